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
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vtasim_sim vtasim_sim;

vta_status vtasim_sim_create(const vta_config *cfg, vtasim_sim **out, vta_error *err);
void vtasim_sim_destroy(vtasim_sim *sim);

/* The handle as an engine ("sim", timed): its run is vtasim_sim_run. Lives as long as the
 * handle. */
vta_engine *vtasim_engine(vtasim_sim *sim);

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

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_API_H */
