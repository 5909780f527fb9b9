/*
 * rtl_harness.h - drives verilated units: a clock domain (one VerilatedContext with any number
 * of models ticking in lock step, one VCD waveform for all of them), and helpers that move
 * bytes and int32 lanes in and out of packed ports of any width. C++ only; the rtl_*.cc
 * wrappers use it behind their C headers. No process-wide Verilator state is shared between
 * domains.
 * Clocking and waveform time: docs/rtl.md "The harness" and "Waveforms" (registered outputs
 * read after tick() are those of the edge just taken; at_cycle() moves time forward only).
 */
#ifndef VTASIM_RTL_HARNESS_H
#define VTASIM_RTL_HARNESS_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "verilated.h"
#include "verilated_vcd_c.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the port copies below assume a little-endian host"
#endif

namespace vtasim_rtl {

/* Models of one clock. Every model has the ports clk and rst. */
class clock_domain {
public:
	clock_domain() : ctx_(new VerilatedContext)
	{
		ctx_->traceEverOn(true); /* cheap; lets trace_open() work at any time */
		ctx_->randReset(0);      /* every uninitialised register starts at zero */
		ctx_->timeunit(-12);     /* waveform times in ps: 1000 per cycle */
		ctx_->timeprecision(-12);
	}
	~clock_domain()
	{
		for (auto &g : groups_)
			g->final();
		if (vcd_)
			vcd_->close();
		vcd_.reset(); /* before the models it traces */
		groups_.clear();
	}
	clock_domain(const clock_domain &) = delete;
	clock_domain &operator=(const clock_domain &) = delete;

	/* Create one model of class Model per name (its scope in the waveform); all models are
	 * added before reset(). */
	template <class Model> std::vector<Model *> add(const std::vector<std::string> &names)
	{
		std::unique_ptr<group<Model>> g(new group<Model>);
		std::vector<Model *> out;
		for (const auto &n : names) {
			g->models.emplace_back(new Model(ctx_.get(), n.c_str()));
			out.push_back(g->models.back().get());
		}
		groups_.emplace_back(std::move(g));
		return out;
	}

	/* Reset every model (rst high for one clock); the cycle count restarts at 0. */
	void reset()
	{
		for (auto &g : groups_)
			g->set_rst(1);
		tick();
		for (auto &g : groups_)
			g->set_rst(0);
		cycles_ = 0;
		now_ = 0;
	}

	uint64_t cycles() const { return cycles_; }

	/* Start writing a VCD file of every signal of every model, its time from cycle 0 (a new
	 * run); false if it cannot be opened. A null path closes the file being written (complete
	 * from then on) and stops tracing. */
	bool trace_open(const char *path)
	{
		if (vcd_)
			vcd_->close();
		vcd_.reset();
		if (!path)
			return true;
		now_ = 0;
		vcd_.reset(new VerilatedVcdC);
		for (auto &g : groups_)
			g->trace(vcd_.get());
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

	/* Clock-gate the models of the add() call number `group` (from 0): a gated group is not
	 * evaluated, so its registers and its clk hold. Only gate a group with nothing in flight. */
	void gate(std::size_t group, bool gated) { groups_[group]->gated = gated; }

	/* Settle the combinational outputs for the current inputs without a clock edge. */
	void settle()
	{
		for (auto &g : groups_)
			if (!g->gated)
				g->half(0);
	}

	void tick()
	{
		for (auto &g : groups_)
			if (!g->gated)
				g->half(0);
		dump(1000 * now_);
		for (auto &g : groups_)
			if (!g->gated)
				g->half(1);
		dump(1000 * now_ + 500);
		now_++;
		cycles_++;
	}

private:
	/* The models of one class: a virtual call per class and half cycle, not per model. */
	struct group_base {
		virtual ~group_base() = default;
		virtual void half(uint8_t clk) = 0;
		virtual void set_rst(uint8_t rst) = 0;
		virtual void trace(VerilatedVcdC *vcd) = 0;
		virtual void final() = 0;
		bool gated = false;
	};
	template <class Model> struct group final : group_base {
		std::vector<std::unique_ptr<Model>> models;
		void half(uint8_t clk) override
		{
			for (auto &m : models) {
				m->clk = clk;
				m->eval();
			}
		}
		void set_rst(uint8_t rst) override
		{
			for (auto &m : models)
				m->rst = rst;
		}
		void trace(VerilatedVcdC *vcd) override
		{
			for (auto &m : models)
				m->trace(vcd, 99);
		}
		void final() override
		{
			for (auto &m : models)
				m->final();
		}
	};

	void dump(uint64_t t)
	{
		ctx_->time(t);
		if (vcd_)
			vcd_->dump(t);
	}

	std::unique_ptr<VerilatedContext> ctx_; /* outlives the models (declared first) */
	std::vector<std::unique_ptr<group_base>> groups_;
	std::unique_ptr<VerilatedVcdC> vcd_;
	uint64_t cycles_ = 0;
	uint64_t now_ = 0; /* the cycle the next tick is dumped at */
};

/* One model in a domain of its own, reset on construction. */
template <class Model> class harness {
public:
	explicit harness(const char *name) : model_(dom_.add<Model>({name})[0]) { dom_.reset(); }

	Model &io() { return *model_; }
	uint64_t cycles() const { return dom_.cycles(); }
	bool trace_open(const char *path) { return dom_.trace_open(path); }
	void at_cycle(uint64_t c) { dom_.at_cycle(c); }
	void settle() { dom_.settle(); }
	void tick() { dom_.tick(); }

private:
	clock_domain dom_;
	Model *model_;
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

/* Copy n bytes to the low bytes of a port whose other bytes are don't-care or already zero:
 * one memcpy, since byte j of a port is bits [8j+7:8j] and VlWide words are 32-bit
 * little-endian chunks (the host is little-endian). */
template <class T> inline typename std::enable_if<std::is_integral<T>::value>::type
port_copy_bytes(T &port, const void *bytes, std::size_t n)
{
	std::memcpy(&port, bytes, n < sizeof(T) ? n : sizeof(T));
}
template <std::size_t N> inline void port_copy_bytes(VlWide<N> &port, const void *bytes,
						     std::size_t n)
{
	std::memcpy(port.data(), bytes, n < 4 * N ? n : 4 * N);
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
