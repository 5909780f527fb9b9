/* layer_run.c - one workload layer end to end (layer_run.h). */
#include "layer_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram_tensor.h"
#include "layer_ops.h"
#include "model_check.h"
#include "stream_memo.h"
#include "vta_cost.h"
#include "vta_rules.h"
#include "vta_text.h"

vta_roofline vta_layer_roofline(const vta_config *cfg, const vta_layer_result *r)
{
	uint64_t out_bytes = 1;
	for (int i = 0; i < 4; i++)
		out_bytes *= (uint64_t)r->out_shape[i];
	const vta_stream_stats *ss = &r->counters.stream;
	vta_roofline_work w = {
		.macs = r->counters.macs,
		.alu_tensor_uops = ss->alu_uops - ss->alu_imm_uops,
		.alu_imm_uops = ss->alu_imm_uops,
		.dram_bytes = r->input_bytes + r->counters.const_bytes + out_bytes,
	};
	return vta_cost_roofline(cfg, &w);
}

/* What the layer holds while it runs (freed in one place). */
typedef struct layer_run {
	vta_layer_data d;
	vta_layer_plain plain; /* decoded once, for the golden kernels and the observers */
	vta_layer_stream ls;
	vta_dram dram;
	vta_dram *dram_home; /* where dram was lent from (opts->dram), or NULL: its own */
	bool emitted;        /* ls says what was written to dram */
	vta_tensor_i8 gold, tflite, got;
	bool gold_borrowed;  /* gold.data is opts->golden_given */
	vta_layer_view view;
	uint8_t *image;
} layer_run;

/* The golden output of the layer in `mode` into out (allocated), through the cache when the
 * run has one; *computed tells whether the kernel ran. */
static vta_status golden_in_mode(const vta_layer_run_opts *o, const vta_layer_ops *ops,
				 layer_run *L, vta_arith_mode mode, vta_tensor_i8 *out,
				 vta_golden_stats *gs, bool *computed, vta_error *err)
{
	char key[VTA_SHA256_HEX];
	vta_golden_cache *gc = o->golden_cache;
	if (gc) {
		vta_golden_key h;
		vta_golden_key_init(&h, vta_golden_cache_fast_keys(gc));
		vta_golden_key_str(&h, "vtasim golden 1");
		vta_golden_key_u64(&h, (uint64_t)L->d.op->builtin); /* stable across processes */
		vta_golden_key_u64(&h, (uint64_t)mode);
		ops->golden_key(&L->d, &L->plain, &h);
		vta_golden_key_final_hex(&h, key);
		if (vta_golden_cache_load(gc, key, out, gs)) {
			gc->reused++;
			return VTA_OK;
		}
	}
	*computed = true;
	vta_status st = ops->golden(&L->d, &L->plain, mode, out, gs, err);
	if (!st && gc) {
		gc->computed++;
		st = vta_golden_cache_store(gc, key, out, gs, err);
	}
	return st;
}

static vta_status golden(const vta_layer_run_opts *o, const vta_layer_ops *ops, layer_run *L,
			 vta_layer_result *r, bool *computed, vta_error *err)
{
	size_t count = vta_tensor_i8_count(&L->d.output);
	L->gold = L->tflite = L->d.output;
	L->gold_borrowed = o->golden_given && o->mode == VTA_ARITH_TFLITE;
	L->gold.data = L->gold_borrowed ? (int8_t *)o->golden_given : malloc(count);
	L->tflite.data = o->mode == VTA_ARITH_VTA16 ? malloc(count) : NULL;
	if (!L->gold.data || (o->mode == VTA_ARITH_VTA16 && !L->tflite.data))
		return vta_fail(err, VTA_E_NOMEM, "layer '%s': out of memory", r->name);
	/* the constants decoded once, for the run's mode and, in vta16 mode, for TFLite's (to
	 * measure the distance from it) */
	double t0 = vta_host_now();
	vta_golden_stats gs = {0}, tgs = {0};
	vta_status st = ops->decode(&L->d, &L->plain, err);
	if (!st && L->gold_borrowed) {
		gs = o->golden_given_stats;
		*computed = true; /* not from the golden cache */
	} else if (!st) {
		st = golden_in_mode(o, ops, L, o->mode, &L->gold, &gs, computed, err);
	}
	r->alu_overflows = gs.alu_overflows;
	r->acc_overflows = gs.acc_overflows;
	if (!st && o->mode == VTA_ARITH_VTA16)
		st = golden_in_mode(o, ops, L, VTA_ARITH_TFLITE, &L->tflite, &tgs, computed, err);
	r->golden_seconds = vta_host_now() - t0;
	return st;
}

/* A stream of the layer in a DRAM it holds alone: the one it runs, or the one-thread stream
 * it is timed against (measure_threads). */
typedef struct layer_stream {
	vta_layer_stream ls;
	vta_dram dram;
	vta_dram *dram_home; /* the run's DRAM lent to it (opts->dram), or NULL: its own */
	bool emitted;
	uint8_t *image; /* the DRAM it starts from, when the observers want it */
	vta_race_report checks;
	bool checks_run;
	double check_seconds;
	vta_stream_key key; /* its identity for the run's memo, made before it runs (bytes
			     * NULL: none) */
	bool key_tried;
} layer_stream;

/* The stream's key in the run's memo, made once (before the stream runs: a run's STOREs
 * may change DRAM); NULL without a memo or a key. */
static const vta_stream_key *stream_key(const vta_config *cfg, const vta_layer_run_opts *o,
					layer_stream *s)
{
	if (o->memo && !s->key_tried) {
		s->key_tried = true;
		(void)vta_stream_key_make(cfg, &s->ls.prog, &s->dram, &s->key);
	}
	return s->key.bytes ? &s->key : NULL;
}

/* A zeroed DRAM for a stream: one the run lends (its own, then its spare) if it is of the
 * config's size and no other stream of the layer holds it (it is moved out of *o->dram or
 * *o->dram_spare while lent), else a fresh one. */
static vta_status take_dram(const vta_config *cfg, const vta_layer_run_opts *o, vta_dram *dram,
			    vta_dram **home, vta_error *err)
{
	uint64_t size = (uint64_t)cfg->dram_size_mib << 20;
	*home = NULL;
	vta_dram *const lent[] = {o->dram, o->dram_spare}; /* the first free one */
	for (size_t i = 0; i < sizeof(lent) / sizeof(lent[0]); i++)
		if (lent[i] && lent[i]->bytes && lent[i]->size == size) {
			*dram = *lent[i];
			*lent[i] = (vta_dram){0};
			*home = lent[i];
			return VTA_OK;
		}
	return vta_dram_init(dram, size, err);
}

/* The first DRAM byte above everything written to it: the stream's buffers and segments
 * (below dram_end) and the rows of every STORE it holds (the builder's count of them);
 * UINT64_MAX if not known. */
static uint64_t dram_written_end(const vta_layer_stream *ls, bool emitted)
{
	if (!emitted)
		return UINT64_MAX;
	uint64_t end = ls->dram_end;
	for (size_t i = 0; i < ls->prog.n_segments; i++) {
		const vta_segment *sg = &ls->prog.segments[i];
		if (sg->dram_addr + sg->size > end)
			end = sg->dram_addr + sg->size;
	}
	return ls->counters.stream.store_end > end ? ls->counters.stream.store_end : end;
}

/* Hand a DRAM back: a lent one cleared (for the run's next layer) to where it came from,
 * one of its own freed. */
static vta_status give_dram(vta_dram *dram, vta_dram *home, const vta_layer_stream *ls,
			    bool emitted, vta_error *err)
{
	if (!home) {
		vta_dram_free(dram);
		return VTA_OK;
	}
	vta_status st = vta_dram_reset(dram, dram_written_end(ls, emitted), err);
	*home = *dram;
	*dram = (vta_dram){0};
	return st;
}

static void layer_stream_free(layer_stream *s)
{
	free(s->image);
	/* should clearing fail, the run has no DRAM left to lend: later layers get their own */
	vta_error e = {0};
	(void)give_dram(&s->dram, s->dram_home, &s->ls, s->emitted, &e);
	vta_layer_stream_free(&s->ls);
	vta_stream_key_free(&s->key);
}

/* The stream checks of s, unless they are skipped. */
static vta_status check_stream(const vta_config *cfg, const vta_layer_run_opts *o,
			       const char *name, layer_stream *s, vta_error *err)
{
	if (o->skip_checks)
		return VTA_OK;
	double c0 = vta_host_now();
	vta_error cerr = {0};
	vta_status st = VTA_OK;
	/* a stream the run checked already (a repeated layer's) passed then */
	const vta_stream_key *k = stream_key(cfg, o, s);
	const vta_race_report *known = k ? vta_stream_memo_checks(o->memo, cfg, k) : NULL;
	if (known) {
		s->checks = *known;
	} else {
		st = vta_race_check(cfg, &s->ls.prog, &s->dram, NULL, &s->checks, &cerr);
		if (!st && k)
			(void)vta_stream_memo_keep_checks(o->memo, cfg, k, &s->checks);
	}
	if (!st && o->strict)
		st = vta_race_strict(&s->checks, &cerr);
	s->check_seconds = vta_host_now() - c0;
	s->checks_run = true;
	return st ? vta_fail(err, st, "layer %s: %s", name, cerr.detail) : VTA_OK;
}

/* Emit the layer with `threads` into s (a zeroed DRAM), keep its image if asked, and check
 * it when `check` (check_stream). */
static vta_status emit_stream(const vta_config *cfg, const vta_layer_run_opts *o,
			      const vta_layer_ops *ops, const layer_run *L, const char *name,
			      unsigned threads, bool check, layer_stream *s, vta_error *err)
{
	vta_status st = take_dram(cfg, o, &s->dram, &s->dram_home, err);
	if (st)
		return st;
	/* take_dram's DRAM is all zeros: fresh, or cleared up to what its last stream wrote */
	vta_emit_opts eo = {.mode = o->mode, .threads = threads, .name = name,
			    .decompress = o->decompress, .resident = o->resident,
			    .n_resident = o->n_resident, .plans = o->plans, .dram_zeroed = true};
	if ((st = ops->emit(cfg, &L->d, &eo, &s->dram, &s->ls, err)))
		return st;
	s->emitted = true;
	if (o->keep_dram_image) {
		/* the DRAM the layer starts from, for outside replay (vtasim exec --dram) */
		s->image = malloc(s->ls.dram_end ? s->ls.dram_end : 1);
		if (!s->image)
			return vta_fail(err, VTA_E_NOMEM, "layer '%s': out of memory", name);
		memcpy(s->image, s->dram.bytes, s->ls.dram_end);
	}
	return check ? check_stream(cfg, o, name, s, err) : VTA_OK;
}

/* What the result says of the stream the layer runs. */
static void describe_stream(const layer_stream *s, vta_layer_result *r)
{
	r->counters = s->ls.counters;
	/* what the emitter did: an op whose constants the decoder cannot take decodes them on
	 * the host (and the report says so) */
	r->decompress = s->ls.counters.lut_hw_bytes ? VTA_DECOMPRESS_HW : VTA_DECOMPRESS_HOST;
	snprintf(r->plan, sizeof(r->plan), "%s", s->ls.plan);
	r->has_conv_plan = s->ls.has_conv_plan;
	r->conv_plan = s->ls.conv_plan;
	r->threads = s->ls.threads;
	r->insns = s->ls.prog.n_insns;
	r->checks = s->checks;
	r->checks_run = s->checks_run;
	r->check_seconds = s->check_seconds;
}

/* Two virtual threads are never worse than one. The chooser prices the DRAM port by its
 * total beats and does not replay how one module's transfers queue behind another's, which
 * a second slot brings: on a small layer, whose few steps cannot amortise those waits, a
 * two-thread plan it prefers may run slower than the best one-thread plan. Such a layer is
 * cheap to simulate, so a timed engine decides there: the one-thread stream is emitted and
 * run as well, and the faster is kept (docs/runtime.md "Two threads never worse than one").
 * The limit is the chosen plan's estimate: about 2 ms of simulation. */
#define LAYER_MEASURE_THREADS_CYCLES 32768

static bool measure_threads(const vta_layer_run_opts *o, const vta_engine *engine,
			    const layer_stream *s)
{
	return o->threads == 2 && engine->timed && s->ls.threads == 2 && s->ls.has_conv_plan &&
	       s->ls.conv_plan.est_cycles <= LAYER_MEASURE_THREADS_CYCLES;
}

/* The stream's key for the cycles the run's memo keeps: on the C datapath only (the
 * verilated units' handshakes are not asked to be blind to the bytes they decode). */
static const vta_stream_key *cycles_key(const vta_config *cfg, const vta_layer_run_opts *o,
					layer_stream *s)
{
	return cfg->datapath == VTA_DATAPATH_C ? stream_key(cfg, o, s) : NULL;
}

/* The cycles of an earlier timed run of the stream. */
static bool known_cycles(const vta_config *cfg, const vta_layer_run_opts *o, layer_stream *s,
			 uint64_t *cycles)
{
	const vta_stream_key *k = cycles_key(cfg, o, s);
	return k && vta_stream_memo_cycles(o->memo, cfg, k, cycles);
}

static void keep_cycles(const vta_config *cfg, const vta_layer_run_opts *o, layer_stream *s,
			uint64_t cycles)
{
	const vta_stream_key *k = cycles_key(cfg, o, s);
	if (k)
		(void)vta_stream_memo_keep_cycles(o->memo, cfg, k, cycles);
}

/* A run of a stream whose cycles an identical earlier one gave must give them again. */
static vta_status same_cycles(const char *name, const vta_run_stats *st, uint64_t known,
			      vta_error *err)
{
	if (st->cycles == known)
		return VTA_OK;
	return vta_fail(err, VTA_E_INTERNAL, "layer %s: the stream took %llu cycles, the same "
			"stream earlier in the run %llu", name, (unsigned long long)st->cycles,
			(unsigned long long)known);
}

static vta_status emit_and_execute(const vta_config *cfg, const vta_layer_run_opts *o,
				   const vta_layer_ops *ops, vta_engine *engine, layer_run *L,
				   vta_layer_result *r, vta_error *err)
{
	layer_stream chosen = {0}, one = {0};
	vta_run_stats one_stats = {0};
	bool one_ran = false, ran = false, known = false, one_wins = false;
	uint64_t one_known = 0, chosen_known = 0;
	double e0 = vta_host_now();
	vta_status st = emit_stream(cfg, o, ops, L, r->name, o->threads, false, &chosen, err);
	r->plan_seconds = chosen.ls.counters.plan_seconds;
	r->emit_seconds = vta_host_now() - e0 - r->plan_seconds;
	const bool measure = !st && measure_threads(o, engine, &chosen);
	if (measure) {
		/* the one-thread stream first, so that the run the observers see is the last;
		 * a run it cannot finish (the cycle budget is the asked stream's) leaves the
		 * choice to the estimate. Only the stream kept is checked: one the layer does
		 * not keep is only timed. Two streams both timed earlier in the run (a
		 * repeated layer's) need no timing: only the faster runs. */
		const double a0 = vta_host_now();
		st = emit_stream(cfg, o, ops, L, r->name, 1, false, &one, err);
		if (!st) { /* both keys before either stream runs */
			(void)stream_key(cfg, o, &one);
			(void)stream_key(cfg, o, &chosen);
		}
		known = !st && known_cycles(cfg, o, &one, &one_known) &&
			known_cycles(cfg, o, &chosen, &chosen_known);
		vta_error rerr = {0};
		one_ran = !st && !known &&
			  engine->run(engine, &one.ls.prog, &one.dram, &one_stats, &rerr) == VTA_OK;
		r->threads_seconds = vta_host_now() - a0;
	}
	if (!st && known) {
		r->threads_measured = true;
		one_wins = one_known < chosen_known;
		if (one_wins) {
			const layer_stream t = chosen;
			chosen = one;
			one = t;
		}
	}
	/* the stream kept, when it is known before it runs, is checked before it runs */
	if (!st && !one_ran)
		st = check_stream(cfg, o, r->name, &chosen, err);
	if (!st) {
		st = engine->run(engine, &chosen.ls.prog, &chosen.dram, &r->stats, err);
		ran = true;
		if (!st && known)
			st = same_cycles(r->name, &r->stats, one_wins ? one_known : chosen_known,
					 err);
	}
	if (!st && one_ran) {
		r->threads_measured = true;
		keep_cycles(cfg, o, &one, one_stats.cycles);
		keep_cycles(cfg, o, &chosen, r->stats.cycles);
		one_wins = one_stats.cycles < r->stats.cycles;
		if (one_wins) {
			const layer_stream t = chosen;
			chosen = one;
			one = t;
			/* the other stream's time is now the two-thread one's run, so that the
			 * phases stay apart (the winner's is the simulation's) */
			r->threads_seconds += r->stats.host_seconds - one_stats.host_seconds;
			r->stats = one_stats;
		}
		/* the kept stream's checks, after its run (they read only micro-ops from the
		 * DRAM, which no STORE of an emitted stream writes) */
		st = check_stream(cfg, o, r->name, &chosen, err);
		/* the engine's last run is what the observers read: run the winner again */
		if (!st && one_wins && o->observer && o->observer->executed) {
			const double a0 = vta_host_now();
			st = engine->run(engine, &chosen.ls.prog, &chosen.dram, &r->stats, err);
			r->threads_seconds += vta_host_now() - a0;
		}
	}
	describe_stream(&chosen, r);
	layer_stream_free(&one);
	vta_stream_key_free(&chosen.key); /* the rest of chosen moves to L */
	L->ls = chosen.ls;
	L->dram = chosen.dram;
	L->dram_home = chosen.dram_home;
	L->emitted = chosen.emitted;
	L->image = chosen.image;
	L->view.dram_image = chosen.image;
	L->view.dram_image_bytes = chosen.image ? chosen.ls.dram_end : 0;
	if (!ran)
		return st;
	vta_layer_observer *ob = o->observer;
	if (ob && ob->executed) {
		vta_error herr = {0};
		vta_status hs = ob->executed(ob, &L->view, st, st ? err : NULL, &herr);
		if (!st && hs) {
			st = hs;
			*err = herr;
		}
	}
	r->timed = !st && engine->timed;
	return st;
}

static vta_status check(const vta_layer_run_opts *o, layer_run *L, vta_layer_result *r,
			vta_error *err)
{
	size_t count = vta_tensor_i8_count(&L->d.output);
	L->got = L->d.output;
	vta_status st = vta_layer_read_output(&L->ls, &L->dram, L->got.data, count, err);
	if (st)
		return st;
	if (o->fault_index >= 0 && (size_t)o->fault_index < count)
		L->got.data[o->fault_index] ^= 1;
	if (o->keep_output &&
	    (st = vta_dram_tensor_keep(&L->ls, &L->dram, o->op_index, L->d.output.data,
				       o->keep_output, err)))
		return st;
	if ((st = vta_golden_compare(&L->gold, &L->got, &r->check, err)))
		return st;
	if (o->mode == VTA_ARITH_VTA16) {
		if ((st = vta_golden_compare(&L->tflite, &L->got, &r->vs_tflite, err)))
			return st;
		r->has_vs_tflite = true;
	}
	L->view.golden = &L->gold;
	L->view.got = &L->got;
	if (o->observer && o->observer->checked &&
	    (st = o->observer->checked(o->observer, &L->view, err)))
		return st;
	if (!r->check.bit_exact)
		return vta_fail(err, VTA_E_MISMATCH,
				"layer '%s': %zu of %zu outputs differ from the golden model; "
				"first at (n, h, w, c) = (%d, %d, %d, %d): expected %d, got %d",
				r->name, r->check.mismatches, r->check.count,
				r->check.first_nhwc[0], r->check.first_nhwc[1],
				r->check.first_nhwc[2], r->check.first_nhwc[3], r->check.expected,
				r->check.got);
	return VTA_OK;
}

/* The pipeline over the tensors of L->d (materialised by the caller, who frees them). */
static vta_status run_layer(const vta_config *cfg, const vta_wl_layer *spec, vta_engine *engine,
			    const vta_layer_run_opts *opts, layer_run *L, vta_layer_result *r,
			    vta_error *err)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", spec->name);
	r->op = spec->op;
	L->view = (vta_layer_view){.spec = spec, .data = &L->d, .plain = &L->plain,
				   .stream = &L->ls, .result = r};
	const vta_layer_ops *ops = vta_layer_ops_of(spec->op);
	memcpy(r->out_shape, L->d.output.shape, sizeof(r->out_shape));
	r->compressed_bytes = L->d.compressed_bytes;
	r->decompressed_bytes = L->d.decompressed_bytes;
	r->has_lut = L->d.has_lut || L->d.has_bias_lut;
	r->binning = L->d.binning;
	r->input_bytes = ops->input_bytes(&L->d);
	vta_status st;
	bool computed = false;
	st = golden(opts, ops, L, r, &computed, err);
	r->golden_reused = !st && !computed;
	if (!st &&
	    !(st = emit_and_execute(cfg, opts, ops, engine, L, r, err)))
		st = check(opts, L, r, err);
	free(L->image);
	if (!L->gold_borrowed)
		free(L->gold.data);
	free(L->tflite.data);
	vta_layer_plain_free(&L->plain);
	vta_error derr = {0};
	vta_status ds = give_dram(&L->dram, L->dram_home, &L->ls, L->emitted, &derr);
	if (ds && (!st || st == VTA_E_MISMATCH)) {
		st = ds;
		*err = derr;
	}
	vta_layer_stream_free(&L->ls);
	return st;
}

/* Materialise the layer if its tensors fit the memory limit, counted from its shapes. */
static vta_status materialize_within(const vta_wl_layer *spec, const vta_layer_run_opts *opts,
				     vta_layer_data *d, vta_error *err)
{
	uint64_t limit = opts->max_memory ? opts->max_memory : VTA_MAX_MEMORY_DEFAULT;
	uint64_t need = vta_layer_spec_bytes(spec);
	if (need > limit)
		return vta_fail(err, VTA_E_NOMEM, "layer '%s': its tensors would take %llu bytes, "
				"above the limit of %llu (--max-memory)", VTA_Q(spec->name),
				(unsigned long long)need, (unsigned long long)limit);
	return vta_layer_materialize(spec, d, err);
}

vta_status vta_layer_run(const vta_config *cfg, const vta_wl_layer *spec, vta_engine *engine,
			 const vta_layer_run_opts *opts, vta_layer_result *r, vta_error *err)
{
	layer_run L;
	memset(&L, 0, sizeof(L));
	vta_status st = materialize_within(spec, opts, &L.d, err);
	if (st) {
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", spec->name);
		return st;
	}
	st = run_layer(cfg, spec, engine, opts, &L, r, err);
	vta_layer_data_free(&L.d);
	return st;
}

vta_status vta_layer_run_data(const vta_config *cfg, const vta_layer_data *d,
			      vta_engine *engine, const vta_layer_run_opts *opts,
			      vta_layer_result *r, vta_error *err)
{
	layer_run L;
	memset(&L, 0, sizeof(L));
	L.d = *d; /* borrowed: the output lands in d->output.data */
	return run_layer(cfg, d->spec, engine, opts, &L, r, err);
}

vta_status vta_layer_golden_prepare(const vta_wl_layer *spec, const vta_layer_run_opts *opts,
				    bool *computed, vta_error *err)
{
	layer_run L;
	vta_layer_result r;
	memset(&L, 0, sizeof(L));
	memset(&r, 0, sizeof(r));
	snprintf(r.name, sizeof(r.name), "%s", spec->name);
	bool any = false;
	vta_status st = materialize_within(spec, opts, &L.d, err);
	if (!st)
		st = golden(opts, vta_layer_ops_of(spec->op), &L, &r, &any, err);
	if (!L.gold_borrowed)
		free(L.gold.data);
	free(L.tflite.data);
	vta_layer_plain_free(&L.plain);
	vta_layer_data_free(&L.d);
	if (computed)
		*computed = any;
	return st;
}
