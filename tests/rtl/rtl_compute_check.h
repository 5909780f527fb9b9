/*
 * rtl_compute_check.h - runs one COMPUTE instruction on the verilated arrays (rtl_compute.h)
 * and on the C datapath the model uses (sim/datapath.h), uop by uop in issue order, on SRAMs
 * that start equal, and fails the test at the first ACC or OUT lane that differs. Include
 * after <cmocka.h>.
 */
#ifndef VTASIM_TEST_RTL_COMPUTE_CHECK_H
#define VTASIM_TEST_RTL_COMPUTE_CHECK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datapath.h"
#include "rtl_check.h"
#include "rtl_compute.h"
#include "vta_insn.h"

typedef struct rtl_uop {
	uint32_t dst, src, wgt;
	int reset;
} rtl_uop;

/* One shape's datapath and two copies of ACC and OUT: _c for C, _v for the verilated RTL. */
typedef struct rtl_cmp {
	unsigned batch, bi, bo, rows; /* rows of each SRAM */
	size_t lanes;                 /* batch x bo: an ACC / OUT row */
	int8_t *inp, *wgt, *out_c, *out_v;
	int32_t *acc_c, *acc_v;
	vta_rtl_compute *c;
} rtl_cmp;

static inline void rtl_cmp_init(rtl_cmp *m, unsigned batch, unsigned bi, unsigned bo,
				unsigned rows)
{
	vta_error err = {0};
	memset(m, 0, sizeof(*m));
	m->batch = batch;
	m->bi = bi;
	m->bo = bo;
	m->rows = rows;
	m->lanes = (size_t)batch * bo;
	m->inp = calloc((size_t)rows * batch * bi, 1);
	m->wgt = calloc((size_t)rows * bo * bi, 1);
	m->out_c = calloc(rows * m->lanes, 1);
	m->out_v = calloc(rows * m->lanes, 1);
	m->acc_c = calloc(rows * m->lanes, sizeof(int32_t));
	m->acc_v = calloc(rows * m->lanes, sizeof(int32_t));
	assert_true(m->inp && m->wgt && m->out_c && m->out_v && m->acc_c && m->acc_v);
	if (vta_rtl_compute_create(&m->c, batch, bi, bo, &err) != VTA_OK)
		fail_msg("%ux%ux%u: %s", batch, bi, bo, err.detail);
}

static inline void rtl_cmp_free(rtl_cmp *m)
{
	vta_rtl_compute_destroy(m->c);
	free(m->inp);
	free(m->wgt);
	free(m->out_c);
	free(m->out_v);
	free(m->acc_c);
	free(m->acc_v);
}

/* Set ACC row r of both copies. */
static inline void rtl_cmp_set_acc(rtl_cmp *m, uint32_t r, const int32_t *v)
{
	memcpy(m->acc_c + r * m->lanes, v, m->lanes * sizeof(int32_t));
	memcpy(m->acc_v + r * m->lanes, v, m->lanes * sizeof(int32_t));
}

/* Run one instruction (alu_op < 0: GEMM) on both and compare every row; returns the RTL's
 * clocks for it. `what` names the case in a failure message. */
static inline uint64_t rtl_cmp_run(rtl_cmp *m, const char *what, int alu_op, int use_imm,
				   int32_t imm, const rtl_uop *u, size_t n)
{
	const size_t in_row = (size_t)m->batch * m->bi, w_row = (size_t)m->bo * m->bi;
	vta_rtl_compute_mem mem = {m->inp, m->wgt, m->acc_v, m->out_v};
	vta_rtl_compute_begin(m->c, &mem, alu_op, use_imm, 0, imm, 0);
	for (size_t i = 0; i < n; i++) {
		int32_t *a = m->acc_c + u[i].dst * m->lanes;
		int8_t *o = m->out_c + u[i].dst * m->lanes;
		if (alu_op > VTA_ALU_RSHR) {
			/* an undefined op: the lane passes a through, as vtasim_alu_lane does
			 * (vtasim_alu_row leaves the rows of an op the decoder refuses alone) */
			for (size_t j = 0; j < m->lanes; j++)
				o[j] = (int8_t)(uint8_t)(uint32_t)a[j];
		} else if (alu_op >= 0)
			vtasim_alu_row((uint32_t)alu_op, a, use_imm ? NULL : m->acc_c + u[i].src * m->lanes,
				       imm, o, (unsigned)m->lanes);
		else if (u[i].reset)
			vtasim_gemm_reset(a, o, (unsigned)m->lanes);
		else
			vtasim_gemm_uop(m->inp + u[i].src * in_row, m->wgt + u[i].wgt * w_row, a, o,
					m->batch, m->bi, m->bo);
		vta_rtl_compute_uop(m->c, u[i].dst, u[i].src, u[i].wgt, u[i].reset);
	}
	uint64_t clocks = vta_rtl_compute_end(m->c);
	size_t all = m->rows * m->lanes;
	long bad = rtl_first_diff_i32(m->acc_c, m->acc_v, all);
	if (bad >= 0)
		fail_msg("%s (%ux%ux%u, op %d): ACC row %ld lane %ld: RTL %d, C %d", what, m->batch,
			 m->bi, m->bo, alu_op, bad / (long)m->lanes, bad % (long)m->lanes,
			 m->acc_v[bad], m->acc_c[bad]);
	bad = rtl_first_diff_i8(m->out_c, m->out_v, all);
	if (bad >= 0)
		fail_msg("%s (%ux%ux%u, op %d): OUT row %ld lane %ld: RTL %d, C %d", what, m->batch,
			 m->bi, m->bo, alu_op, bad / (long)m->lanes, bad % (long)m->lanes,
			 m->out_v[bad], m->out_c[bad]);
	return clocks;
}

#endif /* VTASIM_TEST_RTL_COMPUTE_CHECK_H */
