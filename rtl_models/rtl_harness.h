/*
 * rtl_harness.h - drives one verilated unit: its own VerilatedContext (no process-wide
 * Verilator state is shared between units), the clock, an optional VCD waveform, and helpers
 * that move bytes and int32 lanes in and out of packed ports of any width. C++ only; the
 * rtl_*.cc wrappers use it behind their C headers.
 *
 * Clocking: inputs are set while clk is low; tick() evaluates the low phase, then the rising
 * edge, so registered outputs read after tick() are those of the edge just taken.
 * Waveform time: cycle c is dumped at 1000 c (clk low) and 1000 c + 500 (clk high), so with a
 * 1 ps time unit one nanosecond on a viewer's axis is one cycle. The cycle counts on from 0;
 * at_cycle() moves it (forward only) to put the unit's ticks at the simulated cycle of the run.
 */
#ifndef VTASIM_RTL_HARNESS_H
#define VTASIM_RTL_HARNESS_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "verilated.h"
#include "verilated_vcd_c.h"

namespace vtasim_rtl {

template <class Model> class harness {
public:
	explicit harness(const char *name) : ctx_(new VerilatedContext)
	{
		ctx_->traceEverOn(true); /* cheap; lets trace_open() work at any time */
		ctx_->randReset(0);      /* every uninitialised register starts at zero */
		ctx_->timeunit(-12);     /* waveform times in ps: 1000 per cycle */
		ctx_->timeprecision(-12);
		model_.reset(new Model(ctx_.get(), name));
		model_->clk = 0;
		model_->rst = 1;
		tick();
		model_->rst = 0;
		cycles_ = 0;
		now_ = 0;
	}
	~harness()
	{
		model_->final();
		if (vcd_)
			vcd_->close();
	}
	harness(const harness &) = delete;
	harness &operator=(const harness &) = delete;

	Model &io() { return *model_; }
	uint64_t cycles() const { return cycles_; }

	/* Start writing a VCD file of every signal; false if it cannot be opened. */
	bool trace_open(const char *path)
	{
		if (vcd_)
			vcd_->close();
		vcd_.reset(new VerilatedVcdC);
		model_->trace(vcd_.get(), 99);
		vcd_->open(path);
		if (!vcd_->isOpen()) {
			vcd_.reset();
			return false;
		}
		return true;
	}

	/* Stamp the next tick with simulated cycle c (ignored when c lies before the next
	 * tick's cycle: a waveform's time only moves forward). */
	void at_cycle(uint64_t c)
	{
		if (c > now_)
			now_ = c;
	}

	/* Settle the combinational outputs for the current inputs without a clock edge. */
	void settle() { model_->eval(); }

	void tick()
	{
		model_->clk = 0;
		model_->eval();
		dump(1000 * now_);
		model_->clk = 1;
		model_->eval();
		dump(1000 * now_ + 500);
		now_++;
		cycles_++;
	}

private:
	void dump(uint64_t t)
	{
		ctx_->time(t);
		if (vcd_)
			vcd_->dump(t);
	}

	std::unique_ptr<VerilatedContext> ctx_;
	std::unique_ptr<Model> model_;
	std::unique_ptr<VerilatedVcdC> vcd_;
	uint64_t cycles_ = 0;
	uint64_t now_ = 0; /* the cycle the next tick is dumped at */
};

/* ---- packed ports: byte j of a port is bits [8j+7:8j] ---- */

template <class T> inline typename std::enable_if<std::is_integral<T>::value>::type
port_clear(T &port)
{
	port = 0;
}
template <std::size_t N> inline void port_clear(VlWide<N> &port)
{
	for (std::size_t i = 0; i < N; i++)
		port[i] = 0;
}

/* OR byte b into byte j of a cleared port. */
template <class T> inline typename std::enable_if<std::is_integral<T>::value>::type
port_or_byte(T &port, std::size_t j, uint8_t b)
{
	port = (T)(port | (T)((uint64_t)b << (8 * j)));
}
template <std::size_t N> inline void port_or_byte(VlWide<N> &port, std::size_t j, uint8_t b)
{
	port[j / 4] |= (EData)b << (8 * (j % 4));
}

template <class T> inline typename std::enable_if<std::is_integral<T>::value, uint8_t>::type
port_byte(const T &port, std::size_t j)
{
	return (uint8_t)((uint64_t)port >> (8 * j));
}
template <std::size_t N> inline uint8_t port_byte(const VlWide<N> &port, std::size_t j)
{
	return (uint8_t)(port[j / 4] >> (8 * (j % 4)));
}

/* Load n bytes into a port (the rest zero). */
template <class P> inline void port_set_bytes(P &port, const uint8_t *bytes, std::size_t n)
{
	port_clear(port);
	for (std::size_t j = 0; j < n; j++)
		port_or_byte(port, j, bytes[j]);
}

/* Load n int32 lanes (lane j = bits [32j+31:32j]) into a port. */
template <class P> inline void port_set_i32(P &port, const int32_t *v, std::size_t n)
{
	port_clear(port);
	for (std::size_t j = 0; j < n; j++) {
		uint32_t u = (uint32_t)v[j];
		for (unsigned k = 0; k < 4; k++)
			port_or_byte(port, 4 * j + k, (uint8_t)(u >> (8 * k)));
	}
}

template <class P> inline int32_t port_i32(const P &port, std::size_t j)
{
	uint32_t u = 0;
	for (unsigned k = 0; k < 4; k++)
		u |= (uint32_t)port_byte(port, 4 * j + k) << (8 * k);
	return (int32_t)u;
}

/* ---- the variants a library was built with: pairs of numbers ---- */

/* Copy up to max of the built pairs to out; returns how many were built. */
template <std::size_t N>
inline std::size_t copy_built(const unsigned (&built)[N][2], unsigned (*out)[2], std::size_t max)
{
	for (std::size_t i = 0; i < N && i < max; i++) {
		out[i][0] = built[i][0];
		out[i][1] = built[i][1];
	}
	return N;
}

/* "a<sep>b, c<sep>d, ..." of the built pairs, for a message naming what exists. */
template <std::size_t N>
inline std::string list_built(const unsigned (&built)[N][2], const char *sep)
{
	std::string s;
	for (const auto &p : built)
		s += (s.empty() ? "" : ", ") + std::to_string(p[0]) + sep + std::to_string(p[1]);
	return s;
}

} // namespace vtasim_rtl

#endif /* VTASIM_RTL_HARNESS_H */
