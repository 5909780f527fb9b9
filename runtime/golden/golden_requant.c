/*
 * golden_requant.c - the per-output-channel requantization the convolution-like golden
 * kernels share (golden.h): their arithmetic is the same definition (docs/arithmetic.md),
 * so it is written once.
 */
#include "golden.h"

#include <stdlib.h>

vta_status vta_golden_requant_init(vta_golden_requant *rq, const char *op, vta_arith_mode mode,
				   float in_scale, const float *filter_scales,
				   size_t filter_scale_count, size_t channels,
				   const vta_tensor_i8 *out, vta_activation act, vta_error *err)
{
	*rq = (vta_golden_requant){.zero_point = out->zero_point, .channels = channels};
	vta_status st = vta_quant_activation_range(act, out->scale, out->zero_point, &rq->act_min,
						   &rq->act_max, err);
	if (st != VTA_OK)
		return st;
	rq->acc32 = malloc((channels ? channels : 1) * sizeof(*rq->acc32));
	if (!rq->acc32)
		return vta_fail(err, VTA_E_NOMEM, "%s: out of memory", op);
	if (mode == VTA_ARITH_TFLITE) {
		rq->m32 = malloc(channels * sizeof(*rq->m32));
		st = rq->m32 ? vta_quant_conv_tflite_params(in_scale, filter_scales,
							    filter_scale_count, channels,
							    out->scale, rq->m32, err)
			     : vta_fail(err, VTA_E_NOMEM, "%s: out of memory", op);
		if (st == VTA_OK)
			st = vta_qmul_lanes_init(&rq->l32, rq->m32, channels, err);
	} else {
		rq->m16 = malloc(channels * sizeof(*rq->m16));
		st = rq->m16 ? vta_quant_conv_vta16_params(in_scale, filter_scales,
							   filter_scale_count, channels,
							   out->scale, rq->m16, err)
			     : vta_fail(err, VTA_E_NOMEM, "%s: out of memory", op);
		if (st == VTA_OK)
			st = vta_q15_lanes_init(&rq->l16, rq->m16, channels, err);
	}
	rq->row = vta_quant_n_pick();
	if (st != VTA_OK)
		vta_golden_requant_done(rq, NULL);
	return st;
}

void vta_golden_requant_done(vta_golden_requant *rq, vta_golden_stats *stats)
{
	if (stats) {
		stats->alu_overflows += rq->alu_overflows;
		stats->acc_overflows += rq->acc_overflows;
	}
	free(rq->m32);
	free(rq->m16);
	vta_qmul_lanes_free(&rq->l32);
	vta_q15_lanes_free(&rq->l16);
	free(rq->acc32);
	rq->m32 = NULL;
	rq->m16 = NULL;
	rq->acc32 = NULL;
}

void vta_golden_requant_row(vta_golden_requant *rq, const int64_t *acc, const int32_t *bias,
			    size_t n, int8_t *out)
{
	rq->acc_overflows += rq->row.wrap(acc, n, rq->acc32);
	vta_golden_requant_row32(rq, rq->acc32, bias, n, out);
}

void vta_golden_requant_row32(vta_golden_requant *rq, const int32_t *acc32,
			      const int32_t *bias, size_t n, int8_t *out)
{
	if (rq->m32)
		rq->row.tflite(acc32, bias, &rq->l32, n, rq->zero_point, rq->act_min, rq->act_max,
			       out, &rq->alu_overflows);
	else
		rq->row.vta16(acc32, bias, &rq->l16, n, rq->zero_point, rq->act_min, rq->act_max,
			      out, &rq->alu_overflows);
}
