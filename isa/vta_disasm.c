/*
 * vta_disasm.c - the disassembler: programs back to the assembly syntax of vta_asm.c
 * (docs/isa.md "Assembly"), each instruction and micro-op in the one-line form of
 * vta_disasm_insn and vta_disasm_uop (vta_insn.c), which prints every field (defaults
 * included; a plain load has no LUT key), so assembling the output gives back the same
 * bytes. Comments carry what the bytes do not need: the geometry, the instruction index,
 * the offset inside a segment.
 */
#include "vta_asm.h"

static vta_status print_uops(const vta_segment *s, const vta_config *cfg, FILE *out,
			     vta_error *err)
{
	const uint32_t size = cfg->sram[VTA_MEM_UOP].elem_bytes;
	for (uint32_t k = 0; k < s->size / size; k++) {
		vta_uop u;
		vta_error sub = {0};
		if (vta_uop_decode(cfg, s->bytes + (size_t)k * size, &u, &sub) != VTA_OK)
			return vta_fail(err, sub.status, "uop segment at 0x%llx, uop %u: %s",
					(unsigned long long)s->dram_addr, k, sub.detail);
		char line[128];
		fprintf(out, "%s  ; %u\n", vta_disasm_uop(&u, line, sizeof(line)), k);
	}
	return VTA_OK;
}

static void print_data(const vta_segment *s, FILE *out)
{
	for (uint32_t i = 0; i < s->size; i += 16) {
		uint32_t n = s->size - i < 16 ? s->size - i : 16;
		fprintf(out, ".byte ");
		for (uint32_t j = 0; j < n; j++)
			fprintf(out, "%s0x%02x", j ? ", " : "", s->bytes[i + j]);
		fprintf(out, "  ; +0x%x\n", i);
	}
}

vta_status vta_disasm_program(const vta_program *prog, const vta_config *cfg, FILE *out,
			      vta_error *err)
{
	const vta_geometry *g = &prog->geometry;
	fprintf(out,
		"; vtasim program: %zu instructions, %zu segments\n"
		"; geometry: batch %u, block_in %u, block_out %u, inp %u bits, wgt %u bits, "
		"acc %u bits\n"
		"; depths: uop %u, inp %u, wgt %u, acc %u\n",
		prog->n_insns, prog->n_segments, 1u << (g->log_batch & 31),
		1u << (g->log_block_in & 31), 1u << (g->log_block_out & 31),
		1u << (g->inp_bits & 31), 1u << (g->wgt_bits & 31), 1u << (g->acc_bits & 31),
		1u << (g->log_uop_depth & 31), 1u << (g->log_inp_depth & 31),
		1u << (g->log_wgt_depth & 31), 1u << (g->log_acc_depth & 31));
	if (g->encoding != VTA_ENC_VTA128) /* a vta128 listing reads as it always did */
		fprintf(out, "; encoding: %s (%u-byte instructions, %u-byte micro-ops)\n",
			vta_encoding_name(g->encoding), vta_geometry_insn_bytes(g),
			vta_geometry_uop_bytes(g));
	fprintf(out, ".text\n");
	char line[256];
	for (size_t i = 0; i < prog->n_insns; i++) {
		vta_insn insn;
		vta_status st = vta_program_insn(prog, cfg, i, &insn, err);
		if (st)
			return st;
		fprintf(out, "%s  ; %zu\n", vta_disasm_insn(&insn, line, sizeof(line)), i);
	}
	vta_status st = VTA_OK;
	for (size_t i = 0; i < prog->n_segments && st == VTA_OK; i++) {
		const vta_segment *s = &prog->segments[i];
		if (s->kind == VTA_SEG_UOP) {
			fprintf(out, "\n.uops 0x%llx  ; %u uops\n",
				(unsigned long long)s->dram_addr,
				s->size / cfg->sram[VTA_MEM_UOP].elem_bytes);
			st = print_uops(s, cfg, out, err);
		} else {
			fprintf(out, "\n.data 0x%llx  ; %u bytes\n", (unsigned long long)s->dram_addr,
				s->size);
			print_data(s, out);
		}
	}
	if (st)
		return st;
	if (ferror(out))
		return vta_fail(err, VTA_E_IO, "write error while disassembling");
	return VTA_OK;
}
