/*
 * vtasim_api.cc - the C API of the SystemC model (vtasim_api.h), and the only place that
 * touches SystemC's process-wide kernel.
 *
 * SystemC elaborates once per process, so the model is process-wide state fenced in this
 * file: the first vtasim_sim_create() configures the kernel (no banner, reports silenced
 * or thrown, never printed) and elaborates the model for its config; later creates must
 * pass a config with the same values and get a handle on the same model. Handles are
 * cheap; destroying the last one keeps the model (it cannot be elaborated again).
 * SystemC reports of severity error or fatal are thrown and turned into VTA_E_INTERNAL.
 */
#include "vtasim_api.h"

#include <systemc>

#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <vector>

#include "stepper.h"
#include "top.h"
#include "vcd_merge.h"

/* A C program with its own main links libsystemc, which references sc_main. */
int sc_main(int, char **)
{
	return 0;
}

struct vtasim_sim {
	vta_engine engine; /* first: vtasim_engine() hands out its address */
	vtasim::top *model;
	bool recording;
	std::vector<vtasim_insn_record> records; /* of this handle's last run */
	vtasim::run_events events;               /* kept with them */
	std::unique_ptr<vtasim::stepper> step;   /* this handle's stepped run */
};

namespace {

/* The one elaborated model of this process. */
struct kernel_model {
	vtasim::top *model = nullptr;
	vta_config cfg{};
};

kernel_model &the_kernel()
{
	static kernel_model k;
	return k;
}

void configure_kernel()
{
	using sc_core::sc_report_handler;
	sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
	sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
	sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
	sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_THROW);
}

} // namespace

static vta_status sim_engine_run(vta_engine *self, const vta_program *prog, vta_dram *dram,
				 vta_run_stats *stats, vta_error *err)
{
	return vtasim_sim_run(reinterpret_cast<vtasim_sim *>(self), prog, dram, stats, err);
}

extern "C" vta_engine *vtasim_engine(vtasim_sim *sim)
{
	return &sim->engine;
}

extern "C" vtasim_sim *vtasim_sim_of(vta_engine *engine)
{
	return engine && engine->run == sim_engine_run ? reinterpret_cast<vtasim_sim *>(engine)
						       : nullptr;
}

static vta_status sim_kind_create(const vta_config *cfg, vta_engine **out, vta_error *err)
{
	vtasim_sim *sim = nullptr;
	vta_status st = vtasim_sim_create(cfg, &sim, err);
	*out = st ? nullptr : &sim->engine;
	return st;
}

static void sim_kind_destroy(vta_engine *engine)
{
	vtasim_sim_destroy(vtasim_sim_of(engine));
}

static const uint8_t *sim_kind_sram(vta_engine *engine, vta_mem mem, uint64_t *size)
{
	return vtasim_sim_sram(vtasim_sim_of(engine), mem, size);
}

extern "C" {
const vta_engine_kind vtasim_engine_kind = {"sim", "model", true, sim_kind_create, sim_kind_destroy,
					    sim_kind_sram, nullptr};
}

extern "C" const char *vtasim_systemc_version(void)
{
	return sc_core::sc_release();
}

extern "C" vta_status vtasim_sim_create(const vta_config *cfg, vtasim_sim **out, vta_error *err)
{
	if (!cfg || !out)
		return vta_fail(err, VTA_E_USAGE, "vtasim_sim_create: NULL argument");
	*out = nullptr;
	/* work on a re-derived copy: the model never trusts derived fields it was handed */
	vta_config c = *cfg;
	vta_status st = vta_config_derive(&c, err);
	if (st != VTA_OK)
		return st;
	kernel_model &k = the_kernel();
	try {
		if (!k.model) {
			configure_kernel();
			if (sc_core::sc_get_status() != sc_core::SC_ELABORATION)
				return vta_fail(err, VTA_E_INTERNAL,
						"the SystemC kernel of this process has already "
						"started: the model cannot be elaborated");
			vtasim::rtl_datapath *rtl = nullptr;
			if (c.datapath == VTA_DATAPATH_RTL &&
			    (st = vtasim::rtl_datapath::create(c, &rtl, err)) != VTA_OK)
				return st;
			k.cfg = c;
			k.model = new vtasim::top("vta", c, rtl);
		} else if (!vta_config_same(&k.cfg, &c)) {
			return vta_fail(err, VTA_E_USAGE,
					"the simulator of this process was elaborated for config "
					"'%s'; a config with other values ('%s') needs another process",
					k.cfg.name, c.name);
		}
		*out = new vtasim_sim{{"sim", true, sim_engine_run}, k.model, false, {}, {},
				      std::make_unique<vtasim::stepper>(*k.model)};
	} catch (const std::bad_alloc &) {
		return vta_fail(err, VTA_E_NOMEM, "out of memory elaborating the simulator");
	} catch (const std::exception &e) {
		return vta_fail(err, VTA_E_INTERNAL, "SystemC: %s", e.what());
	}
	return VTA_OK;
}

extern "C" void vtasim_sim_destroy(vtasim_sim *sim)
{
	delete sim;
}

/* The API's one way to report a SystemC exception or exhausted memory. */
template <typename F> static vta_status guarded(vta_error *err, F body)
{
	try {
		return body();
	} catch (const std::bad_alloc &) {
		return vta_fail(err, VTA_E_NOMEM, "out of memory during the simulation");
	} catch (const std::exception &e) {
		return vta_fail(err, VTA_E_INTERNAL, "SystemC: %s", e.what());
	}
}

extern "C" vta_status vtasim_sim_run(vtasim_sim *sim, const vta_program *prog, vta_dram *dram,
				     vta_run_stats *stats, vta_error *err)
{
	if (stats)
		std::memset(stats, 0, sizeof(*stats));
	if (!sim || !prog || !dram || (!dram->bytes && dram->size))
		return vta_fail(err, VTA_E_USAGE, "vtasim_sim_run: NULL argument");
	return guarded(err, [&] {
		if (!sim->recording) { /* and their memory */
			std::vector<vtasim_insn_record>().swap(sim->records);
			sim->events = vtasim::run_events{};
		}
		return sim->model->run(prog, dram, stats, err,
				       sim->recording ? &sim->records : nullptr,
				       sim->recording ? &sim->events : nullptr);
	});
}

extern "C" const uint8_t *vtasim_sim_sram(const vtasim_sim *sim, vta_mem mem, uint64_t *size)
{
	if (!sim) {
		if (size)
			*size = 0;
		return nullptr;
	}
	return sim->model->sram_bytes(mem, size);
}

extern "C" vta_status vtasim_sim_set_vcd(vtasim_sim *sim, const char *path, vta_error *err)
{
	if (!sim)
		return vta_fail(err, VTA_E_USAGE, "vtasim_sim_set_vcd: NULL handle");
	vtasim::rtl_datapath *rtl = sim->model->rtl();
	if (!rtl)
		return vta_fail(err, VTA_E_USAGE,
				"a waveform needs the RTL datapath (datapath: rtl, or --set "
				"datapath=rtl)");
	rtl->set_vcd(path ? path : "");
	return VTA_OK;
}

extern "C" vta_status vtasim_sim_set_recording(vtasim_sim *sim, int on, vta_error *err)
{
	if (!sim)
		return vta_fail(err, VTA_E_USAGE, "vtasim_sim_set_recording: NULL handle");
	sim->recording = on != 0;
	return VTA_OK;
}

extern "C" const vtasim_insn_record *vtasim_sim_records(const vtasim_sim *sim, size_t *count)
{
	size_t n = sim ? sim->records.size() : 0;
	if (count)
		*count = n;
	return n ? sim->records.data() : nullptr;
}

extern "C" void vtasim_sim_events(const vtasim_sim *sim, vtasim_run_events *out)
{
	*out = vtasim_run_events{};
	if (!sim || sim->records.empty())
		return;
	const vtasim::run_events &e = sim->events;
	out->bursts = e.bursts.data();
	out->n_bursts = e.bursts.size();
	out->live = e.live.data();
	out->n_live = e.live.size();
	out->wraps = e.wraps.data();
	out->n_wraps = e.wraps.size();
}

extern "C" vta_status vtasim_vcd_merge(const vtasim_vcd_input *inputs, size_t n, const char *out,
				       const char *comment, vta_error *err)
{
	if ((!inputs && n) || !out)
		return vta_fail(err, VTA_E_USAGE, "vtasim_vcd_merge: NULL argument");
	try {
		std::vector<vtasim::vcd_input> in;
		for (size_t i = 0; i < n; i++) {
			vtasim::vcd_input v;
			v.path = inputs[i].path ? inputs[i].path : "";
			v.scope = inputs[i].scope ? inputs[i].scope : "";
			v.time_mul = inputs[i].time_mul;
			v.time_div = inputs[i].time_div;
			in.push_back(v);
		}
		return vtasim::vcd_merge(in, out, comment ? comment : "", err);
	} catch (const std::bad_alloc &) {
		return vta_fail(err, VTA_E_NOMEM, "out of memory merging waveforms");
	}
}

extern "C" vta_status vtasim_step_begin(vtasim_sim *sim, const vta_program *prog,
					vta_dram *dram, vta_error *err)
{
	if (!sim || !prog || !dram || (!dram->bytes && dram->size))
		return vta_fail(err, VTA_E_USAGE, "vtasim_step_begin: NULL argument");
	return guarded(err, [&] {
		if (!sim->recording) { /* and their memory */
			std::vector<vtasim_insn_record>().swap(sim->records);
			sim->events = vtasim::run_events{};
		}
		return sim->step->begin(prog, dram, sim->recording ? &sim->records : nullptr,
					sim->recording ? &sim->events : nullptr, err);
	});
}

extern "C" vta_status vtasim_step_next(vtasim_sim *sim, uint64_t until, vtasim_stop *stop,
				       vtasim_event *ev, vta_error *err)
{
	if (!sim || !stop)
		return vta_fail(err, VTA_E_USAGE, "vtasim_step_next: NULL argument");
	return guarded(err, [&] { return sim->step->next(until, *stop, ev, err); });
}

extern "C" uint64_t vtasim_step_cycle(const vtasim_sim *sim)
{
	return sim ? sim->step->cycle() : 0;
}

extern "C" vta_status vtasim_step_end(vtasim_sim *sim, vta_run_stats *stats, vta_error *err)
{
	if (stats)
		std::memset(stats, 0, sizeof(*stats));
	if (!sim)
		return vta_fail(err, VTA_E_USAGE, "vtasim_step_end: NULL handle");
	return guarded(err, [&] { return sim->step->end(stats, err); });
}

static vta_status step_view_check(const vtasim_sim *sim, const char *what, vta_error *err)
{
	if (!sim)
		return vta_fail(err, VTA_E_USAGE, "%s: NULL handle", what);
	if (!sim->step->viewable())
		return vta_fail(err, VTA_E_USAGE, "%s: no stepped run on this handle", what);
	return VTA_OK;
}

extern "C" vta_status vtasim_step_module(const vtasim_sim *sim, int module,
					 vtasim_module_view *view, vta_error *err)
{
	vta_status st = step_view_check(sim, "vtasim_step_module", err);
	if (st != VTA_OK)
		return st;
	if (module < VTA_STATS_FETCH || module > VTA_STATS_STORE || !view)
		return vta_fail(err, VTA_E_USAGE, "vtasim_step_module: module %d", module);
	*view = sim->model->module_view(module);
	return VTA_OK;
}

extern "C" vta_status vtasim_step_queue(const vtasim_sim *sim, vtasim_queue_view *view,
					vta_error *err)
{
	vta_status st = step_view_check(sim, "vtasim_step_queue", err);
	if (st != VTA_OK)
		return st;
	if (!view)
		return vta_fail(err, VTA_E_USAGE, "vtasim_step_queue: NULL argument");
	sim->model->queue_view(*view);
	return VTA_OK;
}

extern "C" vta_status vtasim_step_queued(const vtasim_sim *sim, int module, uint32_t i,
					 vtasim_queued *entry, vta_error *err)
{
	vta_status st = step_view_check(sim, "vtasim_step_queued", err);
	if (st != VTA_OK)
		return st;
	if (module < 0 || module >= VTA_MODULE_COUNT || !entry)
		return vta_fail(err, VTA_E_USAGE, "vtasim_step_queued: module %d", module);
	const vtasim::insn_queue &q = sim->model->insn_queue_of(module);
	if (i >= q.size())
		return vta_fail(err, VTA_E_USAGE,
				"vtasim_step_queued: entry %u of a queue holding %u", i, q.size());
	const vtasim::insn_queue::entry &e = q.at(i);
	entry->index = e.idx;
	entry->arrive_cycle = e.ready - sim->model->run_t0();
	return VTA_OK;
}

extern "C" vta_status vtasim_step_lut_slots(const vtasim_sim *sim,
					    vta_lut_desc slots[VTA_LUT_SLOTS], vta_error *err)
{
	vta_status st = step_view_check(sim, "vtasim_step_lut_slots", err);
	if (st != VTA_OK)
		return st;
	if (!slots)
		return vta_fail(err, VTA_E_USAGE, "vtasim_step_lut_slots: NULL argument");
	std::memcpy(slots, sim->model->lut_slots(), VTA_LUT_SLOTS * sizeof(vta_lut_desc));
	return VTA_OK;
}
