/*
 * vtasim_api.h - the C API of the SystemC accelerator model: the only header where C and
 * C++ meet.
 *
 * SystemC elaborates once per process: the first vtasim_sim_create() builds the model for
 * its config; later creates in the same process must pass a config with identical values
 * (else VTA_E_USAGE), and return a handle on the same model. One handle runs any number of
 * programs, one after the other; every run starts from empty SRAMs, queues and counters.
 * Different configs need different processes.
 *
 * SystemC prints its banner only from its own main (sc_elab_and_sim), which a program
 * linking this library does not use (it brings its own main; sc_main is a stub), so no
 * banner appears and nobody needs to set SYSTEMC_DISABLE_COPYRIGHT_MESSAGE.
 */
#ifndef VTASIM_API_H
#define VTASIM_API_H

#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_engine.h"
#include "vta_program.h"
#include "vta_queues.h"
#include "vta_rules.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vtasim_sim vtasim_sim;

vta_status vtasim_sim_create(const vta_config *cfg, vtasim_sim **out, vta_error *err);
/* The SystemC release linked in ("2.3.4-Accellera"); needs no model. */
const char *vtasim_systemc_version(void);
void vtasim_sim_destroy(vtasim_sim *sim);

/* The handle as an engine ("sim", timed): its run is vtasim_sim_run. Lives as long as the
 * handle. */
vta_engine *vtasim_engine(vtasim_sim *sim);
/* The model as a kind of engine ("sim"): create, destroy and SRAMs. */
extern const vta_engine_kind vtasim_engine_kind;
/* The handle behind an engine of vtasim_engine_kind, NULL for another engine. */
vtasim_sim *vtasim_sim_of(vta_engine *engine);

/* Run one program over dram (segments already placed). On VTA_OK, stats are filled and
 * dram holds what STORE wrote. On a simulation problem (deadlock, OOB, flags, unsupported
 * op, cycle budget), err names the instruction index and what it waited on; stats hold the
 * counters up to that point. */
vta_status vtasim_sim_run(vtasim_sim *sim, const vta_program *prog, vta_dram *dram,
			  vta_run_stats *stats, vta_error *err);

/* SRAM contents after the last run, in the reference executor's layout (vta_ref.h). */
const uint8_t *vtasim_sim_sram(const vtasim_sim *sim, vta_mem mem, uint64_t *size);

/* ----- Per-instruction records (a timeline of the run) -----
 *
 * Off by default. With recording on, every run of the handle keeps one record per
 * instruction of the stream, in program order (record i is instruction i). Recording
 * costs a few stores per instruction, never anything per cycle, and changes no timing and
 * no statistic. The records of the last run stay readable after it, whether it succeeded
 * or failed (deadlock, out-of-bounds access, cycle budget): each says how far its
 * instruction got, and when a run fails, an instruction blocked on a token or a full
 * queue at its end has that open wait counted up to the end (stats->cycles).
 *
 * The life of an instruction (cycles count from the run's launch, like stats->cycles):
 *   fetch_cycle     FETCH's burst holding it starts on the DRAM port
 *   arrive_cycle    its bytes have arrived from DRAM
 *   dispatch_cycle  it is in its module's instruction queue (at arrive_cycle, or later
 *                   when FETCH had to wait for room in that queue)
 *   wait_cycle      it is the head of the queue: it starts waiting for its tokens
 *   start_cycle     its tokens are popped: it starts executing
 *   end_cycle       its execution is done (DRAM port waits included): it starts pushing
 *   retire_cycle    its tokens are pushed: it leaves the queue (FINISH: end_cycle)
 * A stage never reached is VTASIM_CYCLE_NONE. Each cycle is >= the one before it; only
 * fetch, arrive and dispatch may lie past the end of the run (FETCH queues an instruction
 * before its bytes arrive, and the run may end meanwhile). For a
 * LOAD, COMPUTE or STORE module, the sums over its records of (end - start - port_cycles),
 * of the pop_cycles and of (port_cycles + push_cycles) are its busy_cycles,
 * stall_dep_cycles and stall_mem_cycles; FETCH's stall_mem_cycles is the sum of
 * fetch_port_cycles and fetch_room_cycles (all for a run that completed).
 * Pushes happen in increasing token order (push_prev before push_next), each after its
 * own wait: a push into q is at end_cycle + the push_cycles of the pushed queues <= q. */
#define VTASIM_CYCLE_NONE UINT64_MAX

/* How far an instruction got. */
typedef enum vtasim_insn_stage {
	VTASIM_STAGE_NONE = 0,  /* not dispatched: FETCH had not read it, or waited for room */
	VTASIM_STAGE_QUEUED,    /* in its module's queue, behind others or still arriving */
	VTASIM_STAGE_WAITING,   /* at the head of the queue, waiting for tokens */
	VTASIM_STAGE_EXECUTING, /* executing (an error stops the run here) */
	VTASIM_STAGE_PUSHING,   /* executed, waiting for room to push its tokens */
	VTASIM_STAGE_RETIRED
} vtasim_insn_stage;

typedef struct vtasim_insn_record {
	uint64_t index;   /* instruction index in the stream */
	uint8_t module;   /* VTA_STATS_LOAD, _COMPUTE or _STORE: where FETCH sent it */
	uint8_t stage;    /* vtasim_insn_stage */
	uint8_t pops;     /* token queues it pops, bit (1 << VTA_QUEUE_*) */
	uint8_t pushes;   /* token queues it pushes, same bits */
	uint64_t fetch_cycle, arrive_cycle, dispatch_cycle;
	uint64_t wait_cycle, start_cycle, end_cycle, retire_cycle;
	/* what it waited on, in cycles */
	uint64_t fetch_port_cycles; /* FETCH waiting for the DRAM port for the burst it
				       starts (0 for the other instructions of a burst) */
	uint64_t fetch_room_cycles; /* FETCH waiting for room in its module's queue (from
				       when FETCH reached it, possibly before it arrived) */
	uint64_t pop_cycles[VTA_QUEUE_COUNT];  /* waiting for a token, per queue */
	uint64_t port_cycles;                   /* waiting for the DRAM port (LOAD/STORE) */
	uint64_t push_cycles[VTA_QUEUE_COUNT]; /* waiting for room, per queue */
	/* the datapath's own cycles: a GEMM or ALU's pipeline (fill and uops), a
	 * decompressing LOAD's decoder; 0 for the rest. From the C timing model with
	 * `datapath: c`, from the RTL units' handshakes with `datapath: rtl`. */
	uint64_t unit_cycles;
	/* ALU lane-ops of this instruction whose exact result did not fit int32 (ADD, MUL,
	 * SHR by a negative amount: docs/arithmetic.md's overflow count); which lanes, in the
	 * run's events. 0 for every other instruction. */
	uint64_t alu_wraps;
} vtasim_insn_record;

/* ----- Events of a recorded run, beside its records -----
 *
 * What the records cannot say, kept with them under the same rule (a few stores per event,
 * nothing per cycle, no cycle or statistic changed), each kind in the order it happens. */

/* One burst on the shared DRAM port. Bursts never overlap: each starts once the one before
 * it has left the port, so they come in the order of their start_cycle. */
typedef struct vtasim_port_burst {
	uint64_t insn;        /* the instruction it moves data for (FETCH: the first it reads) */
	uint64_t ask_cycle;   /* its client asked for the port ... */
	uint64_t start_cycle; /* ... and got it, for `beats` cycles */
	uint64_t beats;
	uint64_t bytes;       /* bytes moved: read, or written by STORE */
	uint8_t module;       /* the client, VTA_STATS_FETCH, _LOAD, _COMPUTE or _STORE */
} vtasim_port_burst;

/* The live bytes of each SRAM (docs/architecture.md "Live bytes"), by VTA_STATS_UOP ..
 * _OUT, from `cycle` on; one step per time at which instructions applied SRAM effects and
 * some SRAM's live bytes changed. Before the first step every SRAM holds 0 live bytes. */
typedef struct vtasim_live_step {
	uint64_t cycle;
	uint64_t bytes[VTA_STATS_SRAMS];
} vtasim_live_step;

/* A lane of an ALU instruction some of whose lane-ops wrapped (see alu_wraps above), and
 * how many did. Lane l is batch row l / block_out, output lane l % block_out. In
 * instruction order, then lane order. */
typedef struct vtasim_alu_wrap {
	uint64_t insn;
	uint32_t lane;
	uint32_t count;
} vtasim_alu_wrap;

typedef struct vtasim_run_events {
	const vtasim_port_burst *bursts;
	size_t n_bursts;
	const vtasim_live_step *live;
	size_t n_live;
	const vtasim_alu_wrap *wraps;
	size_t n_wraps;
} vtasim_run_events;

/* With `datapath: rtl`: write the RTL units' signals over the next runs to the VCD file
 * `path` (each run rewrites it; NULL: stop). Cycle c of a run is at 1000 c ps (the CLI
 * merges the file with the model's waveform at the clock's period, vtasim_vcd_merge).
 * VTA_E_USAGE with the C datapath; VTA_E_IO when a run cannot write the file. */
vta_status vtasim_sim_set_vcd(vtasim_sim *sim, const char *path, vta_error *err);

/* Keep records from the next run of this handle on (on != 0) or stop keeping them. */
vta_status vtasim_sim_set_recording(vtasim_sim *sim, int on, vta_error *err);

/* The records of the handle's last run (none if it ran without recording, or its stream
 * was rejected before launch); *count receives their number. Valid until the handle's
 * next run or destruction. */
const vtasim_insn_record *vtasim_sim_records(const vtasim_sim *sim, size_t *count);

/* The events of the handle's last run, kept when its records are (all empty otherwise).
 * Valid as long as the records. */
void vtasim_sim_events(const vtasim_sim *sim, vtasim_run_events *out);

/* ----- Waveform files -----
 *
 * One VCD file from several (sim/vcd_merge.h): every input's scopes go under `scope` (NULL
 * or empty: as they are), its times are multiplied by time_mul / time_div, its identifier
 * codes renamed apart, and the value changes merged in time order. A missing input is
 * skipped. `comment` goes into the header, after the timescale (1 ps, every input's).
 * VTA_E_IO if a file cannot be read or written. */
typedef struct vtasim_vcd_input {
	const char *path;
	const char *scope;
	uint64_t time_mul, time_div;
} vtasim_vcd_input;

vta_status vtasim_vcd_merge(const vtasim_vcd_input *inputs, size_t n, const char *out,
			    const char *comment, vta_error *err);

/* ----- Stepping: one run advanced piece by piece (a debugger's view) -----
 *
 * vtasim_step_begin launches a run as vtasim_sim_run does, but returns before anything
 * has happened (cycle 0). vtasim_step_next lets it go on until the next instruction event,
 * a given cycle, or its end. Between steps the model can be looked at: vtasim_sim_sram
 * gives the SRAMs as they are now, the caller's DRAM holds what STORE has written so far,
 * vtasim_step_module and vtasim_step_queue what the modules and queues hold.
 * vtasim_step_end runs whatever is left and gives the run's status, statistics and records:
 * exactly those of vtasim_sim_run on the same program (stepping changes no cycle, no
 * statistic, no record). Without a stepped run, the hooks cost one pointer test per event.
 *
 * The model stops for an event at the end of the SystemC delta cycle in which it happened
 * (a process cannot be suspended in the middle): what is seen then is the model at that
 * cycle, possibly with other events of the same delta cycle done too. Those are returned
 * by the next steps, one by one, in the order they happened, without simulating anything
 * in between.
 *
 * One model per process: a new run on it, stepped or not and from any handle, abandons an
 * unfinished stepped run (its handle's next step is then VTA_E_USAGE). */

/* An instruction event. */
typedef enum vtasim_event_kind {
	VTASIM_EVENT_START = 0, /* it has popped its tokens and starts executing */
	VTASIM_EVENT_END        /* it has executed: its SRAM and DRAM writes are done */
} vtasim_event_kind;

typedef struct vtasim_event {
	uint64_t index; /* instruction index in the stream */
	uint64_t cycle; /* run cycle at which it happened */
	uint8_t module; /* VTA_STATS_LOAD, _COMPUTE or _STORE */
	uint8_t kind;   /* vtasim_event_kind */
} vtasim_event;

/* Why a step returned. */
typedef enum vtasim_stop {
	VTASIM_STOP_EVENT = 0, /* an instruction event, in *ev */
	VTASIM_STOP_CYCLE,     /* the run reached the cycle asked for (nothing of it has run) */
	VTASIM_STOP_OVER       /* the run is over (FINISH, an error, a deadlock, the budget):
				  vtasim_step_end tells how */
} vtasim_stop;

/* Launch prog over dram (segments placed) and stop at cycle 0. Records are kept as for
 * vtasim_sim_run when recording is on. Errors are those of a stream rejected before launch. */
vta_status vtasim_step_begin(vtasim_sim *sim, const vta_program *prog, vta_dram *dram,
			     vta_error *err);

/* Go on until the next instruction event, or until the run reaches cycle `until` (nothing
 * at `until` has happened then; VTASIM_CYCLE_NONE: no such limit), or the run is over.
 * *stop says which; *ev (may be NULL) receives the event. VTA_E_USAGE without a stepped
 * run on this handle. */
vta_status vtasim_step_next(vtasim_sim *sim, uint64_t until, vtasim_stop *stop,
			    vtasim_event *ev, vta_error *err);

/* Where the stepped run stands: the cycle of the last event returned, the cycle reached,
 * or, once over, the run's end (0 without a stepped run). */
uint64_t vtasim_step_cycle(const vtasim_sim *sim);

/* Run what is left of the stepped run and end it: status, err and stats as vtasim_sim_run
 * gives them (stats may be NULL). VTA_E_USAGE without a stepped run on this handle. */
vta_status vtasim_step_end(vtasim_sim *sim, vta_run_stats *stats, vta_error *err);

/* What a module is doing. */
typedef enum vtasim_activity {
	VTASIM_ACT_IDLE = 0,  /* its instruction queue is empty (FETCH: everything dispatched) */
	VTASIM_ACT_ARRIVING,  /* its head instruction's bytes are still coming from DRAM */
	VTASIM_ACT_POP,       /* waiting for a token in token queue `queue` */
	VTASIM_ACT_BUSY,      /* executing (its tokens popped) */
	VTASIM_ACT_PORT,      /* waiting for or using the DRAM port (FETCH: reading a burst) */
	VTASIM_ACT_ROOM,      /* executed, waiting for room in token queue `queue` */
	VTASIM_ACT_INSN_ROOM  /* FETCH: waiting for room in module `queue`'s instruction queue */
} vtasim_activity;

typedef struct vtasim_module_view {
	uint8_t activity; /* vtasim_activity */
	int8_t queue;     /* a vta_queue (POP, ROOM) or vta_module (INSN_ROOM), else -1 */
	int64_t insn;     /* the instruction it holds (FETCH: the next to dispatch), -1: none */
} vtasim_module_view;

/* Module `module` (VTA_STATS_FETCH .. VTA_STATS_STORE) of the stepped run: in progress,
 * or as it was left when it ended (a deadlock's waits), until another run replaces it. */
vta_status vtasim_step_module(const vtasim_sim *sim, int module, vtasim_module_view *view,
			      vta_error *err);

/* One entry of an instruction queue. */
typedef struct vtasim_queued {
	uint64_t index;        /* instruction index */
	uint64_t arrive_cycle; /* when its bytes arrive from DRAM (it may be queued before) */
} vtasim_queued;

typedef struct vtasim_queue_view {
	uint32_t tokens[VTA_QUEUE_COUNT]; /* tokens held, by vta_queue */
	uint32_t dep_depth, insn_depth;   /* capacities */
	uint32_t queued[VTA_MODULE_COUNT]; /* instructions held, by vta_module */
} vtasim_queue_view;

/* Token and instruction queue counts of the stepped run (as for vtasim_step_module); the
 * entries of module m's instruction queue, head first, are vtasim_step_queued(sim, m, i,
 * &entry) for i below queued[m]. */
vta_status vtasim_step_queue(const vtasim_sim *sim, vtasim_queue_view *view, vta_error *err);
vta_status vtasim_step_queued(const vtasim_sim *sim, int module, uint32_t i,
			      vtasim_queued *entry, vta_error *err);

/* The LUT decoder's table descriptors of the stepped run as they are now (as for
 * vtasim_step_module): what a decompressing load decodes through, VTA_LUT_SLOTS of them. */
vta_status vtasim_step_lut_slots(const vtasim_sim *sim, vta_lut_desc slots[VTA_LUT_SLOTS],
				 vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_API_H */
