/*
 * stream_memo.h - what a run learned of the streams it checked and timed, by stream: a
 * layer whose stream is byte for byte an earlier layer's (a model's repeated blocks) is not
 * checked again, and its timing beside another stream is known without running it.
 *
 * A stream is its instructions, the micro-ops its LOAD UOPs read from DRAM and the DRAM's
 * size: the stream checks read nothing else, and the SystemC model's cycles depend on
 * nothing else (transfers are priced by their addresses and sizes, never their bytes; the
 * C datapath's and the LUT decoder's time comes from the instructions). Entries compare
 * those bytes whole, never a hash alone. One memo serves one config and one engine; a
 * config other than the memo's is never answered.
 */
#ifndef VTA_STREAM_MEMO_H
#define VTA_STREAM_MEMO_H

#include <stdbool.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_race.h"

typedef struct vta_stream_memo vta_stream_memo;

/* NULL when out of memory. */
vta_stream_memo *vta_stream_memo_new(const vta_config *cfg);
void vta_stream_memo_free(vta_stream_memo *m);

/* A stream's identity, made by vta_stream_key_make; freed with vta_stream_key_free. */
typedef struct vta_stream_key {
	uint8_t *bytes;
	size_t n;
	uint64_t hash;
} vta_stream_key;

/* False (no key: the stream is never answered) when out of memory or when an instruction
 * does not decode or a LOAD UOP reads past the DRAM: such a stream fails on its own. */
bool vta_stream_key_make(const vta_config *cfg, const vta_program *prog, const vta_dram *dram,
			 vta_stream_key *k);
void vta_stream_key_free(vta_stream_key *k);

/* The report of the stream checks of an earlier stream with key k under cfg, when they
 * passed (VTA_OK); NULL when none. */
const vta_race_report *vta_stream_memo_checks(const vta_stream_memo *m, const vta_config *cfg,
					      const vta_stream_key *k);
/* The cycles of an earlier timed run of the stream, that finished; false when none. */
bool vta_stream_memo_cycles(const vta_stream_memo *m, const vta_config *cfg,
			    const vta_stream_key *k, uint64_t *cycles);

/* Keep the report of checks that passed, or the cycles of a timed run that finished
 * (k's bytes are copied). False when out of memory: nothing is kept, which only costs
 * time later. */
bool vta_stream_memo_keep_checks(vta_stream_memo *m, const vta_config *cfg,
				 const vta_stream_key *k, const vta_race_report *rep);
bool vta_stream_memo_keep_cycles(vta_stream_memo *m, const vta_config *cfg,
				 const vta_stream_key *k, uint64_t cycles);

#endif /* VTA_STREAM_MEMO_H */
