/*
 * golden_add.c - the golden int8 ADD (TFLM reference_integer_ops::Add / the alkali delegate).
 *
 * tflite: per element, vta_quant_add_tflite_apply (left shift 20, three SmallerThanOneExp
 *   rescales, clamp to the fused activation); each input's stage depends on its int8 value
 *   alone, so it is tabulated once per call over the 256 values.
 * vta16: per element, the host input stage then the six ALU operations
 *   (vta_quant_add_vta16_apply); wraps are counted in stats->alu_overflows.
 * Broadcasting (b per channel or scalar) just reindexes b, as BroadcastAdd4DSlow does.
 */
#include "golden.h"

#include <stdlib.h>

static bool ga_same_shape(const vta_tensor_i8 *x, const vta_tensor_i8 *y)
{
	for (int i = 0; i < 4; i++)
		if (x->shape[i] != y->shape[i])
			return false;
	return true;
}

vta_status vta_golden_add(const vta_tensor_i8 *a, const vta_tensor_i8 *b, vta_activation act,
			  vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			  vta_error *err)
{
	vta_status st = vta_tensor_i8_check(a, "ADD input 1", err);
	if (st == VTA_OK)
		st = vta_tensor_i8_check(b, "ADD input 2", err);
	if (st == VTA_OK)
		st = vta_tensor_i8_check(out, "ADD output", err);
	if (st != VTA_OK)
		return st;
	if (!ga_same_shape(a, out))
		return vta_fail(err, VTA_E_USAGE,
				"ADD output shape [%d, %d, %d, %d] differs from input [%d, %d, %d, "
				"%d]",
				(int)out->shape[0], (int)out->shape[1], (int)out->shape[2],
				(int)out->shape[3], (int)a->shape[0], (int)a->shape[1],
				(int)a->shape[2], (int)a->shape[3]);
	size_t n = vta_tensor_i8_count(a);
	size_t nb = vta_tensor_i8_count(b);
	size_t ch = (size_t)a->shape[3];
	bool lead_ones = b->shape[0] == 1 && b->shape[1] == 1 && b->shape[2] == 1;
	/* b_div / b_mod map a's flat index to b's: full (i), per channel (i % C), scalar (0). */
	size_t b_mod;
	if (ga_same_shape(a, b))
		b_mod = n;
	else if (lead_ones && (size_t)b->shape[3] == ch)
		b_mod = ch;
	else if (nb == 1)
		b_mod = 1;
	else
		return vta_fail(err, VTA_E_USAGE,
				"ADD input 2 shape [%d, %d, %d, %d] neither matches input 1 nor "
				"broadcasts to it ([1, 1, 1, %zu] or [1, 1, 1, 1])",
				(int)b->shape[0], (int)b->shape[1], (int)b->shape[2],
				(int)b->shape[3], ch);
	if (mode != VTA_ARITH_TFLITE && mode != VTA_ARITH_VTA16)
		return vta_fail(err, VTA_E_USAGE, "ADD: unknown arithmetic mode %d", (int)mode);

	uint64_t ovf = 0;
	if (mode == VTA_ARITH_TFLITE) {
		vta_add_tflite_params p;
		st = vta_quant_add_tflite_params(a->scale, a->zero_point, b->scale, b->zero_point,
						 out->scale, out->zero_point, act, &p, err);
		if (st != VTA_OK)
			return st;
		int32_t in1[256], in2[256];
		for (int32_t q = -128; q < 128; q++) {
			in1[q + 128] = vta_quant_add_tflite_input(&p, 1, q);
			in2[q + 128] = vta_quant_add_tflite_input(&p, 2, q);
		}
		for (size_t i = 0, j = 0; i < n; i++, j = j + 1 == b_mod ? 0 : j + 1)
			out->data[i] = (int8_t)vta_quant_add_tflite_output(
				&p, in1[a->data[i] + 128], in2[b->data[j] + 128]);
	} else {
		vta_add_vta16_params p;
		st = vta_quant_add_vta16_params(a->scale, a->zero_point, b->scale, b->zero_point,
						out->scale, out->zero_point, act, &p, err);
		if (st != VTA_OK)
			return st;
		for (size_t i = 0, j = 0; i < n; i++, j = j + 1 == b_mod ? 0 : j + 1)
			out->data[i] = (int8_t)vta_quant_add_vta16_apply(&p, a->data[i], b->data[j],
									  &ovf);
	}
	if (stats) {
		stats->alu_overflows += ovf;
	}
	return VTA_OK;
}

vta_status vta_golden_add_decode(const vta_tensor_i8 *b, const vta_lut_tensor *b_lut,
				 vta_tensor_i8 *plain, void **owned, vta_error *err)
{
	*owned = NULL;
	if (!b)
		return vta_fail(err, VTA_E_USAGE, "ADD: missing LUT operand");
	*plain = *b;
	if (!b_lut)
		return VTA_OK;
	size_t nb = vta_tensor_i8_count(b);
	if (nb == 0)
		return vta_tensor_i8_check(b, "ADD input 2", err);
	vta_status st = vta_lut_expect(b_lut, VTA_LUT_INT8, nb, NULL, "ADD input 2", "operand",
				       err);
	if (st)
		return st;
	if (!(*owned = malloc(nb)))
		return vta_fail(err, VTA_E_NOMEM, "ADD: out of memory");
	plain->data = *owned;
	return vta_lut_decode(b_lut, *owned, nb, err);
}

vta_status vta_golden_add_lut(const vta_tensor_i8 *a, const vta_tensor_i8 *b,
			      const vta_lut_tensor *b_lut, vta_activation act,
			      vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			      vta_error *err)
{
	if (!b_lut)
		return vta_fail(err, VTA_E_USAGE, "ADD: missing LUT operand");
	vta_tensor_i8 plain;
	void *owned;
	vta_status st = vta_golden_add_decode(b, b_lut, &plain, &owned, err);
	if (st == VTA_OK)
		st = vta_golden_add(a, &plain, act, mode, out, stats, err);
	free(owned);
	return st;
}
