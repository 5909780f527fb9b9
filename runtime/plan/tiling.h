/*
 * tiling.h - how a CONV2D is cut to the config's SRAMs: the geometry in blocks, the plan
 * (tile sizes, loop order, SRAM slots) chosen by a small cost model, and the shape of the
 * GEMM micro-op kernel of one step. Used by emit_conv2d.c.
 *
 * Vocabulary (docs/runtime.md "On the accelerator" and "Tiling" tell the whole story): a
 * *tile* is `th` output rows of one image group by `nob` output-channel blocks, held in
 * ACC while it is computed in *steps*, one GEMM per chunk of `ncb` input-channel blocks and
 * weight sub-group of `nobw` blocks; INP, WGT and ACC each have one or two *slots* (two
 * only with 2 virtual threads) so the next loads overlap the current compute.
 */
#ifndef VTA_TILING_H
#define VTA_TILING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A convolution in blocks. A grouped convolution (groups > 1) is cut into *units*: the
 * fewest whole groups whose input and output channels both fill whole blocks; a unit is a
 * dense convolution of `ucb` input blocks into `uob` output blocks whose weights outside
 * its groups are zero, and no GEMM ever pairs blocks of two units (docs/runtime.md
 * "Grouped and depthwise convolution"). A dense convolution is one unit. */
typedef struct vta_conv_geom {
	int32_t n, h, w, c;        /* input NHWC */
	int32_t o, kh, kw;         /* filter OHWI */
	int32_t groups;            /* >= 1: input channels C / groups per output channel */
	int32_t sh, sw, dh, dw;    /* stride, dilation */
	int32_t ho, wo;            /* output rows and columns */
	int32_t pad_top, pad_left; /* TFLite padding before */
	int32_t hp, wp;            /* rows and columns of the padded input the conv reads */
	uint32_t ng, cb, ob;       /* image groups; input channel blocks per pixel in DRAM
				    * (units x ucb, zero blocks past C); output blocks */
	uint32_t ucb, uob, units;  /* blocks per unit (the last unit may have fewer output
				    * blocks), units; dense: cb, ob, 1 */
	bool rowskip;              /* KH == 1, stride > 1: the DMA skips unread rows */
	unsigned wgt_lut_bw;       /* 1..7: the filter comes through the LUT decoder as packed
				    * indices of this width, one load per output block; 0: plain */
	uint32_t wgt_lut_table_bytes; /* its table image, loaded once before the first WGT load */
	uint32_t wgt_lut_block_table_bytes; /* when the tables do not fit the table memory whole:
					     * one output block's, loaded before a load of
					     * another block than the last; else 0 */
	uint32_t wgt_lut_window;   /* multi-block loads (decompressor.multi_block): output
				    * blocks whose tables the table memory holds at once (all
				    * of them when the image fits), so one load spans up to
				    * that many; 0: one load per output block */
	uint32_t wgt_lut_group;    /* zero-lane fill (decompressor.zero_fill): a grouped
				    * filter's rows hold only its groups' input lanes, this many
				    * per output channel (lut_group); 0: whole rows */
	uint32_t wgt_lut_period;   /* and its output channels per group (lut_period) */
	unsigned bias_lut_bw;      /* 1..7: the bias is the last constant row, loaded through
				    * the decoder one block per load; 0: every row plain */
	uint32_t bias_lut_table_bytes; /* its table image, loaded before the first bias load */
} vta_conv_geom;

/* Fill the derived fields of g from the layer fields and the config (groups 0 counts as
 * 1). */
void vta_conv_geom_derive(const vta_config *cfg, vta_conv_geom *g);

/* The unit of output block ob, and the output blocks of unit u. */
uint32_t vta_conv_unit_of(const vta_conv_geom *g, uint32_t ob);
uint32_t vta_conv_unit_obs(const vta_conv_geom *g, uint32_t u);

/* Input rows a tile of `th` output rows reads (from the DMA's point of view). */
uint32_t vta_conv_rows_in(const vta_conv_geom *g, uint32_t th);

/* Padded input columns a tile of `tw` output columns reads (g->wp for every column). */
uint32_t vta_conv_cols_in(const vta_conv_geom *g, uint32_t tw);

typedef struct vta_conv_plan {
	unsigned threads;
	uint32_t ncb, nci;        /* input-channel blocks per chunk, chunks (of a unit) */
	uint32_t th, nrt;         /* output rows per row tile, row tiles per image group */
	uint32_t tw, nct;         /* output columns per tile, column tiles per row tile: an
				   * image too wide for INP is cut into column tiles whose
				   * input windows overlap by the filter's halo (tw 0 in a
				   * plan given to vta_conv_plan_check: whole rows, nct 1) */
	uint32_t nob, ngrp;       /* output-channel blocks per tile, channel groups (a group
				   * lies inside one unit; the last may hold fewer blocks:
				   * vta_conv_grp_obs) */
	uint32_t nobw, nsub;      /* blocks per weight load, weight loads per group and chunk */
	bool rows_outer;          /* tile order: row tiles outer (true) or groups outer */
	unsigned s_inp, s_wgt, s_acc; /* slots of each SRAM */
	bool const_all;           /* every channel's constants resident (else per group) */
	bool rowskip;             /* the DMA skips unread input rows (1xN filter, stride > 1) */
	uint32_t nconst;          /* constant rows per output-channel block */
	/* SRAM map (rows) */
	uint32_t inp_slot, wgt_slot;   /* rows per INP / WGT slot */
	uint32_t acc_const_base, acc_const_rows;
	uint32_t acc_slot_base, acc_slot; /* first slot row, rows per ACC slot */
	uint32_t acc_scratch;          /* first scratch row (dummy uops), D rows */
	/* estimates */
	uint64_t est_cycles, est_dram_bytes, est_insns;
} vta_conv_plan;

/* Output blocks of channel group grp: nob, or fewer in a ragged last group (a dense layer
 * whose blocks nob does not divide; its group is then one weight load, nobw = nob). */
uint32_t vta_conv_grp_obs(const vta_conv_geom *g, const vta_conv_plan *p, uint32_t grp);

/* A tile of the output and a step of its computation, in program order. */
typedef struct vta_conv_tile {
	uint32_t g, rt, grp; /* image group, row tile, channel group */
	uint32_t ct;         /* column tile */
	uint32_t unit;       /* the unit the channel group lies in */
	uint32_t y0, rows;   /* output rows [y0, y0 + rows) */
	uint32_t x0, cols;   /* output columns [x0, x0 + cols) */
} vta_conv_tile;

typedef struct vta_conv_step {
	uint32_t tile, c, sub;     /* tile, input-channel chunk, weight sub-group */
	int8_t inp_slot, wgt_slot; /* slots the GEMM reads */
	bool load_inp, load_wgt;   /* the step loads that slot first */
	int64_t need;              /* last step that read a slot this step's loads overwrite */
	bool pop_g2l;              /* the loads wait for compute (need is new) */
	bool push_g2l;             /* a later load waits for this step */
} vta_conv_step;

typedef struct vta_conv_sched {
	vta_conv_tile *tiles;
	uint32_t n_tiles;
	vta_conv_step *steps;
	uint64_t n_steps;
} vta_conv_sched;

/* Walk the plan: tiles in order, steps per tile, slot assignment (a resident content is
 * reused; a new one goes to the least recently read slot) and the g2l tokens. */
vta_status vta_conv_schedule(const vta_conv_geom *g, const vta_conv_plan *p,
			     vta_conv_sched *s, vta_error *err);
void vta_conv_sched_free(vta_conv_sched *s);

/* Choose a plan. nconst: constant rows per output-channel block the requantization needs;
 * alu_tt / alu_imm: tensor and immediate ALU operations per output element.
 * VTA_E_USAGE naming the SRAM and sizes when not even the smallest tile fits. */
vta_status vta_conv_plan_choose(const vta_config *cfg, const vta_conv_geom *g, unsigned threads,
				uint32_t nconst, uint32_t alu_tt, uint32_t alu_imm,
				const char *layer, vta_conv_plan *plan, vta_error *err);

/* Choices of a plan held fixed (docs/runtime.md "Pinned plans"), the others left to the
 * chooser: every field 0 is free, so a zeroed pin pins nothing. Counts are in blocks of the
 * config, as in vta_conv_plan. */
typedef enum vta_pin_order { VTA_PIN_FREE = 0, VTA_PIN_ROWS_OUTER, VTA_PIN_GROUPS_OUTER } vta_pin_order;
typedef enum vta_pin_consts { VTA_PIN_CONSTS_FREE = 0, VTA_PIN_CONSTS_ALL, VTA_PIN_CONSTS_GROUP } vta_pin_consts;
typedef struct vta_conv_pin {
	uint32_t th, ncb, nob, nobw;  /* rows per tile, input blocks per chunk, output blocks per
				       * tile, output blocks per weight load */
	vta_pin_order order;
	unsigned s_inp, s_wgt, s_acc; /* slots */
	vta_pin_consts consts;
} vta_conv_pin;

/* True when the pin fixes at least one choice. */
bool vta_conv_pin_any(const vta_conv_pin *pin);

/* The pin's fields by the names the workload (`plan:`) and `vtasim sweep` (`plan.NAME`)
 * use, NULL-terminated: rows, chunk_blocks, group_blocks, load_blocks, order, inp_slots,
 * wgt_slots, acc_slots, constants. */
const char *const *vta_conv_pin_fields(void);

/* Set one field from text ("rows", "8"; "order", "rows"; "constants", "all"), with one
 * checked message per problem ("plan.rows: expected an integer >= 1, got 'x'"),
 * VTA_E_PARSE. "free" unpins the field. */
vta_status vta_conv_pin_set(vta_conv_pin *pin, const char *field, const char *text,
			    vta_error *err);

/* The pinned fields as "rows 8, chunk_blocks 2" (or "nothing"). */
void vta_conv_pin_describe(const vta_conv_pin *pin, char *out, size_t size);

/* vta_conv_plan_choose among the plans that agree with `pin` (NULL: any plan). A pinned
 * row count is used as given (clamped to the output's rows) instead of the chooser's
 * heights. When no such plan fits, VTA_E_USAGE "layer L: the pinned plan (rows 8, ...)
 * does not fit: <why>", the why from vta_conv_plan_check of the pin completed with the
 * smallest free choices. */
vta_status vta_conv_plan_choose_pinned(const vta_config *cfg, const vta_conv_geom *g,
				       unsigned threads, uint32_t nconst, uint32_t alu_tt,
				       uint32_t alu_imm, const vta_conv_pin *pin, const char *layer,
				       vta_conv_plan *plan, vta_error *err);

/* The chooser's candidate and base arrays, kept from one search to the next so that a run's
 * searches grow them once instead of each its own (a base carries its costs: about 2 KiB).
 * Holds nothing a search reads: a search's result never depends on it. */
typedef struct vta_conv_plan_work vta_conv_plan_work;

/* NULL when out of memory. */
vta_conv_plan_work *vta_conv_plan_work_new(void);
void vta_conv_plan_work_free(vta_conv_plan_work *w);

/* vta_conv_plan_choose_pinned on work's arrays (NULL: arrays of its own). */
vta_status vta_conv_plan_choose_in(vta_conv_plan_work *work, const vta_config *cfg,
				   const vta_conv_geom *g, unsigned threads, uint32_t nconst,
				   uint32_t alu_tt, uint32_t alu_imm, const vta_conv_pin *pin,
				   const char *layer, vta_conv_plan *plan, vta_error *err);

/* Plans already chosen in a run, by everything the chooser reads (config, geometry,
 * threads, constants, ALU ops, pin): a layer the same to the chooser as an earlier one gets
 * the earlier plan without a search (tiling_cache.c). Owned by the caller; not shared
 * between threads. */
typedef struct vta_conv_plan_cache vta_conv_plan_cache;

/* NULL when out of memory. */
vta_conv_plan_cache *vta_conv_plan_cache_new(void);
void vta_conv_plan_cache_free(vta_conv_plan_cache *c);

/* Lookups answered from the cache and searched (0 and 0 for NULL). */
void vta_conv_plan_cache_counts(const vta_conv_plan_cache *c, uint64_t *hits, uint64_t *misses);

/* vta_conv_plan_choose_pinned through cache c (NULL: no cache). */
vta_status vta_conv_plan_choose_cached(vta_conv_plan_cache *c, const vta_config *cfg,
				       const vta_conv_geom *g, unsigned threads, uint32_t nconst,
				       uint32_t alu_tt, uint32_t alu_imm, const vta_conv_pin *pin,
				       const char *layer, vta_conv_plan *plan, vta_error *err);

/* Complete and check a plan given by its choices (threads, ncb, th, nob, nobw, rows_outer,
 * s_inp, s_wgt, s_acc, const_all): derives the counts and the SRAM map, and fails with
 * VTA_E_USAGE naming what does not divide or fit (ncb must divide a unit's input blocks,
 * nob every unit's output blocks). The chooser's plans pass it; a caller
 * may force its own plan through vta_emit_conv2d_plan(). */
vta_status vta_conv_plan_check(const vta_config *cfg, const vta_conv_geom *g, uint32_t nconst,
			       const char *layer, vta_conv_plan *p, vta_error *err);

/* The dimensions of one GEMM step. */
enum { VTA_KD_OB = 0, VTA_KD_Y, VTA_KD_X, VTA_KD_KY, VTA_KD_KX, VTA_KD_CB, VTA_KD_COUNT };

/* How a step's GEMM is shaped: two loop dims (-1 when unused, outer first) and the list of
 * the others, output dims innermost; `dummy` extra uops pad a list whose outputs are fewer
 * than acc_dep_distance + 1. */
typedef struct vta_conv_kshape {
	uint32_t extent[VTA_KD_COUNT];
	int32_t dst[VTA_KD_COUNT], src[VTA_KD_COUNT], wgt[VTA_KD_COUNT]; /* strides */
	int loop[2];
	uint32_t list_len; /* uops in the list, dummies included */
	uint32_t outputs;  /* real outputs per cycle of the list (P) */
	uint32_t dummy;    /* dummy uops per cycle */
	bool ok;
} vta_conv_kshape;

/* Shape the kernel of a step: `nobw` blocks of a tile of `nob`, `rows` output rows, chunk
 * `ncb`. ACC tiles are [pixel][nob], INP slots [row][column][ncb], WGT slots
 * [nobw][ky][kx][ncb]. */
void vta_conv_kshape_make(const vta_config *cfg, const vta_conv_geom *g, uint32_t nob,
			  uint32_t nobw, uint32_t rows, uint32_t ncb, vta_conv_kshape *k);

/* The same for a column tile of `cols` output columns: its ACC tile is [pixel][nob] over
 * rows x cols pixels, its INP slot [row][vta_conv_cols_in(cols)][ncb]. */
void vta_conv_kshape_make_cols(const vta_config *cfg, const vta_conv_geom *g, uint32_t nob,
			       uint32_t nobw, uint32_t rows, uint32_t cols, uint32_t ncb,
			       vta_conv_kshape *k);

#ifdef __cplusplus
}
#endif

#endif /* VTA_TILING_H */
