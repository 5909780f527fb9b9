/*
 * vta_insn.c - encoding and decoding of VTA's 128-bit instructions and 32-bit micro-ops.
 *
 * Fields are packed LSB first into two 64-bit words with explicit shifts and masks whose
 * widths come from the loaded config (cfg->fw), in VTA's order (see vta_insn.h and
 * docs/isa.md). A field never straddles the two words; the bits above the last field of
 * each word are unused and must be zero.
 *
 * Encoding range-checks every field and fails with VTA_E_ENCODE naming the field, the value
 * and the width: VTA once lost a memory id to a silently truncated bitfield. Decoding fails
 * with VTA_E_STREAM on an undefined opcode, memory type or ALU op and on any set bit outside
 * the defined fields, so that decode(encode(x)) == x and encode(decode(b)) == b.
 */
#include "vta_insn.h"

#include <string.h>

/* ---------- bit packing ---------- */

/* A cursor over the two 64-bit words of an instruction (or the one word of a uop). */
typedef struct bits {
	uint64_t w[2];
	unsigned pos[2]; /* next free bit of each word */
} bits;

static uint64_t mask_of(unsigned width)
{
	return width >= 64 ? ~0ull : ((1ull << width) - 1);
}

/* Append an unsigned field to word `word`, range-checked. */
static vta_status put_u(bits *b, int word, unsigned width, uint64_t value, const char *name,
			vta_error *err)
{
	if (value > mask_of(width))
		return vta_fail(err, VTA_E_ENCODE, "%s %llu does not fit in %u bits", name,
				(unsigned long long)value, width);
	if (b->pos[word] + width > 64)
		return vta_fail(err, VTA_E_INTERNAL, "field %s overflows word %d", name, word);
	if (width > 0)
		b->w[word] |= value << b->pos[word];
	b->pos[word] += width;
	return VTA_OK;
}

/* Append a signed (two's complement) field, range-checked. */
static vta_status put_s(bits *b, int word, unsigned width, int64_t value, const char *name,
			vta_error *err)
{
	int64_t lo = width == 0 ? 0 : -(int64_t)(1ull << (width - 1));
	int64_t hi = width == 0 ? 0 : (int64_t)((1ull << (width - 1)) - 1);
	if (value < lo || value > hi)
		return vta_fail(err, VTA_E_ENCODE,
				"%s %lld does not fit in %u bits (signed, %lld..%lld)", name,
				(long long)value, width, (long long)lo, (long long)hi);
	return put_u(b, word, width, (uint64_t)value & mask_of(width), name, err);
}

static uint64_t get_u(bits *b, int word, unsigned width)
{
	uint64_t v = width == 0 ? 0 : (b->w[word] >> b->pos[word]) & mask_of(width);
	b->pos[word] += width;
	return v;
}

static int64_t get_s(bits *b, int word, unsigned width)
{
	uint64_t v = get_u(b, word, width);
	if (width > 0 && width < 64 && (v >> (width - 1)) & 1)
		return (int64_t)v - (int64_t)(1ull << width);
	return (int64_t)v;
}

/* Every bit above the last decoded field of `word` must be zero. */
static vta_status check_unused(const bits *b, int word, vta_error *err)
{
	unsigned pos = b->pos[word];
	if (pos >= 64)
		return VTA_OK;
	uint64_t rest = b->w[word] >> pos;
	if (rest == 0)
		return VTA_OK;
	return vta_fail(err, VTA_E_STREAM, "unused bits %u..63 of word %d are not zero (0x%llx)",
			pos, word, (unsigned long long)rest);
}

static void store_le64(uint8_t *out, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t load_le64(const uint8_t *in)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)in[i] << (8 * i);
	return v;
}

/* ---------- instructions ---------- */

static vta_status put_head(bits *b, const vta_field_widths *fw, const vta_insn *insn,
			   vta_error *err)
{
	vta_status st;
	if ((st = put_u(b, 0, fw->opcode, (uint64_t)insn->opcode, "opcode", err)) ||
	    (st = put_u(b, 0, fw->dep_flag, insn->deps.pop_prev, "pop_prev", err)) ||
	    (st = put_u(b, 0, fw->dep_flag, insn->deps.pop_next, "pop_next", err)) ||
	    (st = put_u(b, 0, fw->dep_flag, insn->deps.push_prev, "push_prev", err)) ||
	    (st = put_u(b, 0, fw->dep_flag, insn->deps.push_next, "push_next", err)))
		return st;
	return VTA_OK;
}

static vta_status put_mem(bits *b, const vta_field_widths *fw, const vta_mem_insn *m,
			  vta_error *err)
{
	vta_status st;
	if (m->mem_type >= VTA_MEM_COUNT)
		return vta_fail(err, VTA_E_ENCODE, "memory_type %u is not defined (0..%d)",
				m->mem_type, VTA_MEM_COUNT - 1);
	if ((st = put_u(b, 0, fw->memop_id, m->mem_type, "memory_type", err)) ||
	    (st = put_u(b, 0, fw->memop_sram, m->sram_base, "sram_base", err)) ||
	    (st = put_u(b, 0, fw->memop_dram, m->dram_base, "dram_base", err)) ||
	    (st = put_u(b, 1, fw->memop_size, m->y_size, "y_size", err)) ||
	    (st = put_u(b, 1, fw->memop_size, m->x_size, "x_size", err)) ||
	    (st = put_u(b, 1, fw->memop_stride, m->x_stride, "x_stride", err)) ||
	    (st = put_u(b, 1, fw->memop_pad, m->y_pad_0, "y_pad_0", err)) ||
	    (st = put_u(b, 1, fw->memop_pad, m->y_pad_1, "y_pad_1", err)) ||
	    (st = put_u(b, 1, fw->memop_pad, m->x_pad_0, "x_pad_0", err)) ||
	    (st = put_u(b, 1, fw->memop_pad, m->x_pad_1, "x_pad_1", err)))
		return st;
	return VTA_OK;
}

/* Word 0 of GEMM and ALU, and the dst/src factors that start word 1 of both. */
static vta_status put_loop(bits *b, const vta_field_widths *fw, const vta_loop *l, int is_alu,
			   vta_error *err)
{
	vta_status st;
	unsigned dst_w = is_alu ? fw->alu_dst_factor : fw->gemm_dst_factor;
	unsigned src_w = is_alu ? fw->alu_src_factor : fw->gemm_src_factor;
	if ((st = put_u(b, 0, fw->reset, l->reset, "reset", err)) ||
	    (st = put_u(b, 0, fw->uop_bgn, l->uop_bgn, "uop_bgn", err)) ||
	    (st = put_u(b, 0, fw->uop_end, l->uop_end, "uop_end", err)) ||
	    (st = put_u(b, 0, fw->loop_iter, l->iter_out, "iter_out", err)) ||
	    (st = put_u(b, 0, fw->loop_iter, l->iter_in, "iter_in", err)) ||
	    (st = put_u(b, 1, dst_w, l->dst_factor_out, "dst_factor_out", err)) ||
	    (st = put_u(b, 1, dst_w, l->dst_factor_in, "dst_factor_in", err)) ||
	    (st = put_u(b, 1, src_w, l->src_factor_out, "src_factor_out", err)) ||
	    (st = put_u(b, 1, src_w, l->src_factor_in, "src_factor_in", err)))
		return st;
	return VTA_OK;
}

vta_status vta_insn_encode(const vta_config *cfg, const vta_insn *insn,
			   uint8_t out[VTA_INSN_BYTES], vta_error *err)
{
	const vta_field_widths *fw = &cfg->fw;
	bits b = {{0, 0}, {0, 0}};
	vta_status st;
	if ((unsigned)insn->opcode > VTA_OP_ALU)
		return vta_fail(err, VTA_E_ENCODE, "opcode %u is not defined (0..4)",
				(unsigned)insn->opcode);
	if ((st = put_head(&b, fw, insn, err)))
		return st;
	switch (insn->opcode) {
	case VTA_OP_LOAD:
	case VTA_OP_STORE:
		st = put_mem(&b, fw, &insn->mem, err);
		break;
	case VTA_OP_GEMM:
		if ((st = put_loop(&b, fw, &insn->loop, 0, err)))
			break;
		if ((st = put_u(&b, 1, fw->gemm_wgt_factor, insn->loop.wgt_factor_out,
				"wgt_factor_out", err)))
			break;
		st = put_u(&b, 1, fw->gemm_wgt_factor, insn->loop.wgt_factor_in, "wgt_factor_in",
			   err);
		break;
	case VTA_OP_ALU:
		if ((st = put_loop(&b, fw, &insn->loop, 1, err)))
			break;
		if (insn->alu.op >= VTA_ALU_OP_COUNT) {
			st = vta_fail(err, VTA_E_ENCODE, "alu_opcode %u is not defined (0..%d)",
				      insn->alu.op, VTA_ALU_OP_COUNT - 1);
			break;
		}
		if ((st = put_u(&b, 1, fw->alu_opcode, insn->alu.op, "alu_opcode", err)) ||
		    (st = put_u(&b, 1, fw->alu_use_imm, insn->alu.use_imm, "use_imm", err)))
			break;
		st = put_s(&b, 1, fw->alu_imm, insn->alu.imm, "imm", err);
		break;
	case VTA_OP_FINISH:
		break; /* only the opcode and the flags */
	}
	if (st)
		return st;
	store_le64(out, b.w[0]);
	store_le64(out + 8, b.w[1]);
	return VTA_OK;
}

vta_status vta_insn_decode(const vta_config *cfg, const uint8_t in[VTA_INSN_BYTES],
			   vta_insn *insn, vta_error *err)
{
	const vta_field_widths *fw = &cfg->fw;
	bits b = {{load_le64(in), load_le64(in + 8)}, {0, 0}};
	vta_insn d;
	memset(&d, 0, sizeof(d));
	vta_status st;

	uint64_t op = get_u(&b, 0, fw->opcode);
	if (op > VTA_OP_ALU)
		return vta_fail(err, VTA_E_STREAM, "opcode %llu is not defined (0..4)",
				(unsigned long long)op);
	d.opcode = (vta_opcode)op;
	d.deps.pop_prev = get_u(&b, 0, fw->dep_flag) != 0;
	d.deps.pop_next = get_u(&b, 0, fw->dep_flag) != 0;
	d.deps.push_prev = get_u(&b, 0, fw->dep_flag) != 0;
	d.deps.push_next = get_u(&b, 0, fw->dep_flag) != 0;

	switch (d.opcode) {
	case VTA_OP_LOAD:
	case VTA_OP_STORE: {
		vta_mem_insn *m = &d.mem;
		m->mem_type = (uint32_t)get_u(&b, 0, fw->memop_id);
		if (m->mem_type >= VTA_MEM_COUNT)
			return vta_fail(err, VTA_E_STREAM, "memory_type %u is not defined (0..%d)",
					m->mem_type, VTA_MEM_COUNT - 1);
		m->sram_base = (uint32_t)get_u(&b, 0, fw->memop_sram);
		m->dram_base = (uint32_t)get_u(&b, 0, fw->memop_dram);
		m->y_size = (uint32_t)get_u(&b, 1, fw->memop_size);
		m->x_size = (uint32_t)get_u(&b, 1, fw->memop_size);
		m->x_stride = (uint32_t)get_u(&b, 1, fw->memop_stride);
		m->y_pad_0 = (uint32_t)get_u(&b, 1, fw->memop_pad);
		m->y_pad_1 = (uint32_t)get_u(&b, 1, fw->memop_pad);
		m->x_pad_0 = (uint32_t)get_u(&b, 1, fw->memop_pad);
		m->x_pad_1 = (uint32_t)get_u(&b, 1, fw->memop_pad);
		break;
	}
	case VTA_OP_GEMM:
	case VTA_OP_ALU: {
		int is_alu = d.opcode == VTA_OP_ALU;
		vta_loop *l = &d.loop;
		unsigned dst_w = is_alu ? fw->alu_dst_factor : fw->gemm_dst_factor;
		unsigned src_w = is_alu ? fw->alu_src_factor : fw->gemm_src_factor;
		l->reset = get_u(&b, 0, fw->reset) != 0;
		l->uop_bgn = (uint32_t)get_u(&b, 0, fw->uop_bgn);
		l->uop_end = (uint32_t)get_u(&b, 0, fw->uop_end);
		l->iter_out = (uint32_t)get_u(&b, 0, fw->loop_iter);
		l->iter_in = (uint32_t)get_u(&b, 0, fw->loop_iter);
		l->dst_factor_out = (uint32_t)get_u(&b, 1, dst_w);
		l->dst_factor_in = (uint32_t)get_u(&b, 1, dst_w);
		l->src_factor_out = (uint32_t)get_u(&b, 1, src_w);
		l->src_factor_in = (uint32_t)get_u(&b, 1, src_w);
		if (!is_alu) {
			l->wgt_factor_out = (uint32_t)get_u(&b, 1, fw->gemm_wgt_factor);
			l->wgt_factor_in = (uint32_t)get_u(&b, 1, fw->gemm_wgt_factor);
			break;
		}
		d.alu.op = (uint32_t)get_u(&b, 1, fw->alu_opcode);
		if (d.alu.op >= VTA_ALU_OP_COUNT)
			return vta_fail(err, VTA_E_STREAM, "alu_opcode %u is not defined (0..%d)",
					d.alu.op, VTA_ALU_OP_COUNT - 1);
		d.alu.use_imm = get_u(&b, 1, fw->alu_use_imm) != 0;
		d.alu.imm = (int32_t)get_s(&b, 1, fw->alu_imm);
		break;
	}
	case VTA_OP_FINISH:
		break;
	}
	if ((st = check_unused(&b, 0, err)) || (st = check_unused(&b, 1, err)))
		return st;
	*insn = d;
	return VTA_OK;
}

/* ---------- micro-ops ---------- */

vta_status vta_uop_encode(const vta_config *cfg, const vta_uop *uop, uint8_t out[VTA_UOP_BYTES],
			  vta_error *err)
{
	const vta_field_widths *fw = &cfg->fw;
	bits b = {{0, 0}, {0, 0}}; /* one 32-bit word: only word 0's low half is used */
	vta_status st;
	if ((st = put_u(&b, 0, fw->uop_dst, uop->dst, "uop dst", err)) ||
	    (st = put_u(&b, 0, fw->uop_src, uop->src, "uop src", err)) ||
	    (st = put_u(&b, 0, fw->uop_wgt, uop->wgt, "uop wgt", err)))
		return st;
	if (b.pos[0] > 32)
		return vta_fail(err, VTA_E_INTERNAL, "micro-op fields need %u bits", b.pos[0]);
	for (int i = 0; i < VTA_UOP_BYTES; i++)
		out[i] = (uint8_t)(b.w[0] >> (8 * i));
	return VTA_OK;
}

vta_status vta_uop_decode(const vta_config *cfg, const uint8_t in[VTA_UOP_BYTES], vta_uop *uop,
			  vta_error *err)
{
	const vta_field_widths *fw = &cfg->fw;
	uint64_t w = (uint64_t)in[0] | (uint64_t)in[1] << 8 | (uint64_t)in[2] << 16 |
		     (uint64_t)in[3] << 24;
	bits b = {{w, 0}, {0, 0}};
	vta_uop u;
	u.dst = (uint32_t)get_u(&b, 0, fw->uop_dst);
	u.src = (uint32_t)get_u(&b, 0, fw->uop_src);
	u.wgt = (uint32_t)get_u(&b, 0, fw->uop_wgt);
	if (b.pos[0] < 32 && (w >> b.pos[0]) != 0)
		return vta_fail(err, VTA_E_STREAM,
				"unused bits %u..31 of a micro-op are not zero (0x%llx)", b.pos[0],
				(unsigned long long)(w >> b.pos[0]));
	*uop = u;
	return VTA_OK;
}

/* ---------- dispatch and names ---------- */

vta_module vta_insn_module(const vta_insn *insn)
{
	if (insn->opcode == VTA_OP_STORE)
		return VTA_MODULE_STORE;
	if (insn->opcode == VTA_OP_LOAD &&
	    (insn->mem.mem_type == VTA_MEM_INP || insn->mem.mem_type == VTA_MEM_WGT))
		return VTA_MODULE_LOAD;
	return VTA_MODULE_COMPUTE;
}

const char *vta_module_name(vta_module module)
{
	switch (module) {
	case VTA_MODULE_LOAD: return "load";
	case VTA_MODULE_COMPUTE: return "compute";
	case VTA_MODULE_STORE: return "store";
	case VTA_MODULE_COUNT: break;
	}
	return "?";
}

const char *vta_opcode_name(vta_opcode op)
{
	switch (op) {
	case VTA_OP_LOAD: return "load";
	case VTA_OP_STORE: return "store";
	case VTA_OP_GEMM: return "gemm";
	case VTA_OP_FINISH: return "finish";
	case VTA_OP_ALU: return "alu";
	}
	return "?";
}

const char *vta_alu_op_name(uint32_t op)
{
	static const char *const names[VTA_ALU_OP_COUNT] = {"min", "max",   "add", "shr",
							    "mul", "srdhm", "rshr"};
	return op < VTA_ALU_OP_COUNT ? names[op] : NULL;
}

bool vta_insn_is_nop(const vta_insn *insn)
{
	return (insn->opcode == VTA_OP_LOAD || insn->opcode == VTA_OP_STORE) &&
	       insn->mem.x_size == 0;
}

vta_status vta_insn_check_flags(const vta_insn *insn, vta_error *err)
{
	vta_module m = vta_insn_module(insn);
	const char *bad = NULL;
	if (m == VTA_MODULE_LOAD)
		bad = insn->deps.pop_prev ? "pop_prev" : insn->deps.push_prev ? "push_prev" : NULL;
	else if (m == VTA_MODULE_STORE)
		bad = insn->deps.pop_next ? "pop_next" : insn->deps.push_next ? "push_next" : NULL;
	if (!bad)
		return VTA_OK;
	/* load has no previous stage, store no next one: the queue does not exist */
	return vta_fail(err, VTA_E_FLAGS, "%s executes on the %s module, which has no %s queue "
			"(%s is illegal there)",
			vta_opcode_name(insn->opcode), vta_module_name(m),
			m == VTA_MODULE_LOAD ? "previous-stage" : "next-stage", bad);
}
