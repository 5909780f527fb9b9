/* tfl_handbuild.c - building .tflite files by hand for the tests (tfl_handbuild.h). */
#include "tfl_handbuild.h"

#include <stdlib.h>
#include <string.h>

uint32_t tfb_buffer(tfb *t, const void *data, size_t bytes)
{
	vta_fbb_ref d = bytes ? vta_fbb_vector(&t->b, data, bytes, 1, 16) : 0;
	vta_fbb_start(&t->b);
	if (d)
		vta_fbb_ref_field(&t->b, 0 /* data */, d);
	t->buffers[t->n_buffers] = vta_fbb_end(&t->b);
	return (uint32_t)t->n_buffers++;
}

static void le32(uint8_t *out, const int32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 4; k++)
			out[4 * i + (size_t)k] = (uint8_t)((uint32_t)v[i] >> (8 * k));
}

uint32_t tfb_buffer_i32(tfb *t, const int32_t *v, size_t n)
{
	uint8_t le[64 * 4];
	le32(le, v, n);
	return tfb_buffer(t, le, 4 * n);
}

vta_fbb_ref tfb_ints(tfb *t, const int32_t *v, size_t n)
{
	uint8_t le[64 * 4];
	le32(le, v, n);
	return vta_fbb_vector(&t->b, le, n, 4, 0);
}

vta_fbb_ref tfb_quant(tfb *t, size_t n, float s, int64_t zp, int32_t axis)
{
	uint8_t scales[64 * 4], zps[64 * 8];
	for (size_t i = 0; i < n; i++) {
		float v = s * (1.0f + 0.25f * (float)i);
		uint32_t bits;
		memcpy(&bits, &v, 4);
		for (int k = 0; k < 4; k++)
			scales[4 * i + (size_t)k] = (uint8_t)(bits >> (8 * k));
		for (int k = 0; k < 8; k++)
			zps[8 * i + (size_t)k] = (uint8_t)((uint64_t)zp >> (8 * k));
	}
	vta_fbb_ref sv = vta_fbb_vector(&t->b, scales, n, 4, 0);
	vta_fbb_ref zv = vta_fbb_vector(&t->b, zps, n, 8, 0);
	vta_fbb_start(&t->b);
	vta_fbb_ref_field(&t->b, 2 /* scale */, sv);
	vta_fbb_ref_field(&t->b, 3 /* zero_point */, zv);
	if (axis)
		vta_fbb_scalar(&t->b, 6 /* quantized_dimension */, (uint32_t)axis, 4);
	return vta_fbb_end(&t->b);
}

void tfb_tensor(tfb *t, size_t i, const char *name, int type, const int32_t *shape, int rank,
		uint32_t buffer, vta_fbb_ref quant)
{
	vta_fbb_ref sh = tfb_ints(t, shape, (size_t)rank);
	vta_fbb_ref nm = vta_fbb_string(&t->b, name, strlen(name));
	vta_fbb_start(&t->b);
	vta_fbb_ref_field(&t->b, 0 /* shape */, sh);
	if (type)
		vta_fbb_scalar(&t->b, 1 /* type */, (uint8_t)type, 1);
	if (buffer)
		vta_fbb_scalar(&t->b, 2 /* buffer */, buffer, 4);
	vta_fbb_ref_field(&t->b, 3 /* name */, nm);
	if (quant)
		vta_fbb_ref_field(&t->b, 4 /* quantization */, quant);
	t->tensors[i] = vta_fbb_end(&t->b);
}

void tfb_tensor_variable(tfb *t, size_t i, const char *name, int type, const int32_t *shape,
			 int rank, vta_fbb_ref quant)
{
	vta_fbb_ref sh = tfb_ints(t, shape, (size_t)rank);
	vta_fbb_ref nm = vta_fbb_string(&t->b, name, strlen(name));
	vta_fbb_start(&t->b);
	vta_fbb_ref_field(&t->b, 0 /* shape */, sh);
	if (type)
		vta_fbb_scalar(&t->b, 1 /* type */, (uint8_t)type, 1);
	vta_fbb_ref_field(&t->b, 3 /* name */, nm);
	if (quant)
		vta_fbb_ref_field(&t->b, 4 /* quantization */, quant);
	vta_fbb_scalar(&t->b, 5 /* is_variable */, (uint8_t)1, 1);
	t->tensors[i] = vta_fbb_end(&t->b);
}

void tfb_op(tfb *t, uint32_t opcode, const int32_t *in, size_t n_in, const int32_t *out,
	    size_t n_out, uint8_t ot, vta_fbb_ref opt)
{
	vta_fbb_ref iv = tfb_ints(t, in, n_in), ov = tfb_ints(t, out, n_out);
	vta_fbb_start(&t->b);
	if (opcode)
		vta_fbb_scalar(&t->b, 0 /* opcode_index */, opcode, 4);
	vta_fbb_ref_field(&t->b, 1 /* inputs */, iv);
	vta_fbb_ref_field(&t->b, 2 /* outputs */, ov);
	if (ot)
		vta_fbb_scalar(&t->b, 3 /* builtin_options_type */, ot, 1);
	if (opt)
		vta_fbb_ref_field(&t->b, 4 /* builtin_options */, opt);
	t->ops[t->n_ops++] = vta_fbb_end(&t->b);
}

vta_fbb_ref tfb_opts(tfb *t, size_t n, const uint64_t (*f)[3])
{
	vta_fbb_start(&t->b);
	for (size_t i = 0; i < n; i++)
		if (f[i][2]) /* size 0: an empty table */
			vta_fbb_scalar(&t->b, (unsigned)f[i][0], f[i][1], (size_t)f[i][2]);
	return vta_fbb_end(&t->b);
}

void tfb_pack(uint8_t *out, size_t bytes, size_t n, unsigned bw, unsigned (*index)(size_t))
{
	memset(out, 0, bytes);
	size_t bit = 0;
	for (size_t e = 0; e < n; e++) {
		unsigned v = index(e);
		for (unsigned k = 0; k < bw; k++, bit++)
			if (v & (1u << (bw - 1 - k)))
				out[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
	}
}

void tfb_dcm(uint8_t *h, unsigned bw, unsigned stride)
{
	memset(h, 0, 16);
	h[1] = 1;      /* DCM version */
	h[4] = 1;      /* LUT version */
	h[5] = (uint8_t)bw;
	h[6] = (uint8_t)stride;
}

uint32_t tfb_compression_metadata(tfb *t, unsigned schema_version, size_t n,
				  const uint32_t (*lut_tensors)[3])
{
	vta_fbb m;
	vta_fbb_init(&m);
	vta_fbb_ref lts[16];
	for (size_t i = 0; i < n && i < 16; i++) {
		vta_fbb_start(&m);
		vta_fbb_scalar(&m, 0 /* tensor */, lut_tensors[i][0], 4);
		vta_fbb_scalar(&m, 1 /* value_buffer */, lut_tensors[i][1], 4);
		vta_fbb_scalar(&m, 2 /* index_bitwidth */, lut_tensors[i][2], 1);
		lts[i] = vta_fbb_end(&m);
	}
	vta_fbb_ref v = vta_fbb_ref_vector(&m, lts, n < 16 ? n : 16);
	vta_fbb_start(&m);
	vta_fbb_ref_field(&m, 0 /* lut_tensors */, v);
	vta_fbb_ref sg = vta_fbb_end(&m);
	vta_fbb_ref sgs = vta_fbb_ref_vector(&m, &sg, 1);
	vta_fbb_start(&m);
	vta_fbb_scalar(&m, 0 /* schema_version */, schema_version, 4);
	vta_fbb_ref_field(&m, 1 /* subgraphs */, sgs);
	vta_fbb_ref root = vta_fbb_end(&m);
	uint8_t *bytes;
	size_t len;
	vta_error e = {0};
	if (vta_fbb_finish(&m, root, NULL, &bytes, &len, &e) != VTA_OK)
		return 0;
	uint32_t b = tfb_buffer(t, bytes, len);
	free(bytes);
	return b;
}

static vta_fbb_ref tfb_opcodes(tfb *t, const tfb_opcode *codes, size_t n)
{
	vta_fbb_ref refs[TFB_MAX_OPS];
	for (size_t i = 0; i < n && i < TFB_MAX_OPS; i++) {
		const tfb_opcode *c = &codes[i];
		vta_fbb_ref name = c->custom ? vta_fbb_string(&t->b, c->custom, strlen(c->custom))
					     : 0;
		vta_fbb_start(&t->b);
		if (c->deprecated >= 0)
			vta_fbb_scalar(&t->b, 0 /* deprecated_builtin_code */, (uint8_t)c->deprecated,
				       1);
		if (name)
			vta_fbb_ref_field(&t->b, 1 /* custom_code */, name);
		vta_fbb_scalar(&t->b, 2 /* version */, c->version, 4);
		if (c->builtin >= 0)
			vta_fbb_scalar(&t->b, 3 /* builtin_code */, (uint32_t)c->builtin, 4);
		refs[i] = vta_fbb_end(&t->b);
	}
	return vta_fbb_ref_vector(&t->b, refs, n < TFB_MAX_OPS ? n : TFB_MAX_OPS);
}

uint8_t *tfb_model(tfb *t, const tfb_model_desc *m, size_t *len)
{
	vta_fbb *b = &t->b;
	vta_fbb_ref tv = vta_fbb_ref_vector(b, t->tensors, m->n_tensors);
	vta_fbb_ref ov = vta_fbb_ref_vector(b, t->ops, t->n_ops);
	vta_fbb_ref in = tfb_ints(t, m->inputs, m->n_inputs);
	vta_fbb_ref out = tfb_ints(t, m->outputs, m->n_outputs);
	vta_fbb_ref name = vta_fbb_string(b, "main", 4);
	vta_fbb_start(b);
	vta_fbb_ref_field(b, 0 /* tensors */, tv);
	vta_fbb_ref_field(b, 1 /* inputs */, in);
	vta_fbb_ref_field(b, 2 /* outputs */, out);
	vta_fbb_ref_field(b, 3 /* operators */, ov);
	vta_fbb_ref_field(b, 4 /* name */, name);
	vta_fbb_ref sg = vta_fbb_end(b);
	vta_fbb_ref sgs = vta_fbb_ref_vector(b, &sg, 1);
	vta_fbb_ref md[8];
	size_t n_md = m->n_metadata < 8 ? m->n_metadata : 8;
	for (size_t i = 0; i < n_md; i++) {
		vta_fbb_ref s = vta_fbb_string(b, m->md_names[i], strlen(m->md_names[i]));
		vta_fbb_start(b);
		vta_fbb_ref_field(b, 0 /* name */, s);
		vta_fbb_scalar(b, 1 /* buffer */, m->md_buffers[i], 4);
		md[i] = vta_fbb_end(b);
	}
	vta_fbb_ref mdv = vta_fbb_ref_vector(b, md, n_md);
	vta_fbb_ref bufs = vta_fbb_ref_vector(b, t->buffers, t->n_buffers);
	vta_fbb_ref codes = tfb_opcodes(t, m->opcodes, m->n_opcodes);
	vta_fbb_ref desc = vta_fbb_string(b, m->description, strlen(m->description));
	vta_fbb_start(b);
	vta_fbb_scalar(b, 0 /* version */, m->version, 4);
	vta_fbb_ref_field(b, 1 /* operator_codes */, codes);
	vta_fbb_ref_field(b, 2 /* subgraphs */, sgs);
	vta_fbb_ref_field(b, 3 /* description */, desc);
	vta_fbb_ref_field(b, 4 /* buffers */, bufs);
	vta_fbb_ref_field(b, 6 /* metadata */, mdv);
	vta_fbb_ref root = vta_fbb_end(b);
	uint8_t *bytes = NULL;
	vta_error e = {0};
	if (vta_fbb_finish(b, root, "TFL3", &bytes, len, &e) != VTA_OK)
		return NULL;
	return bytes;
}
