/* cmd_config.c - `vtasim config FILE`: validate a hardware config and print what it derives. */
#include <stdio.h>

#include "cli.h"

static void print_config(const vta_config *c)
{
	const vta_field_widths *w = &c->fw;
	printf("config %s\n", c->name);
	printf("  clock            %.3f MHz\n", c->clock_mhz);
	printf("  gemm core        %ux%ux%u (batch x block_in x block_out), %u MACs per uop\n",
	       c->batch, c->block_in, c->block_out, c->batch * c->block_in * c->block_out);
	printf("  data widths      inp %u, wgt %u, acc %u, out %u bits\n", c->inp_bits, c->wgt_bits,
	       c->acc_bits, c->out_bits);
	printf("\nSRAM     capacity    element  depth  index bits\n");
	const struct {
		const char *name;
		uint64_t bytes;
		uint32_t elem, depth;
		unsigned log;
	} s[] = {
		{"uop", c->uop_bytes, c->uop_elem_bytes, c->uop_depth, c->log_uop_depth},
		{"inp", c->inp_bytes, c->inp_elem_bytes, c->inp_depth, c->log_inp_depth},
		{"wgt", c->wgt_bytes, c->wgt_elem_bytes, c->wgt_depth, c->log_wgt_depth},
		{"acc", c->acc_bytes, c->acc_elem_bytes, c->acc_depth, c->log_acc_depth},
		{"out", c->out_bytes, c->out_elem_bytes, c->out_depth, c->log_out_depth},
	};
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		printf("  %-5s %9llu B  %5u B  %5u  %u\n", s[i].name, (unsigned long long)s[i].bytes,
		       s[i].elem, s[i].depth, s[i].log);
	printf("\ninstruction fields (bits)\n");
	printf("  load/store  opcode %u, deps 4x%u, memory_type %u, sram_base %u, dram_base %u,"
	       " y_size %u, x_size %u, x_stride %u, pads 4x%u  (word0 %u/64, word1 %u/64)\n",
	       w->opcode, w->dep_flag, w->memop_id, w->memop_sram, w->memop_dram, w->memop_size,
	       w->memop_size, w->memop_stride, w->memop_pad, w->mem_word0_bits, w->mem_word1_bits);
	printf("  gemm        reset %u, uop_bgn %u, uop_end %u, iter_out %u, iter_in %u,"
	       " dst_factor 2x%u, src_factor 2x%u, wgt_factor 2x%u  (word0 %u/64, word1 %u/64)\n",
	       w->reset, w->uop_bgn, w->uop_end, w->loop_iter, w->loop_iter, w->gemm_dst_factor,
	       w->gemm_src_factor, w->gemm_wgt_factor, w->gemm_word0_bits, w->gemm_word1_bits);
	printf("  alu         (word0 as gemm) dst_factor 2x%u, src_factor 2x%u, alu_opcode %u,"
	       " use_imm %u, imm %u  (word1 %u/64)\n",
	       w->alu_dst_factor, w->alu_src_factor, w->alu_opcode, w->alu_use_imm, w->alu_imm,
	       w->alu_word1_bits);
	printf("  uop         dst %u, src %u, wgt %u  (%u/32)\n", w->uop_dst, w->uop_src, w->uop_wgt,
	       w->uop_bits);
	printf("\nqueues      insn %u per module, dependency tokens %u per queue\n", c->insn_depth,
	       c->dep_depth);
	printf("dram        %u-bit bus (%u B/cycle), latency %u cycles, max burst %u B, %u MiB\n",
	       c->dram_bus_bits, c->dram_bus_bits / 8, c->dram_latency_cycles,
	       c->dram_max_burst_bytes, c->dram_size_mib);
	printf("alu         mul %s, tflite_ext %s\n", c->alu_mul ? "yes" : "no",
	       c->alu_tflite_ext ? "yes" : "no");
	printf("decompress  %s, %u indices/cycle\n", c->decomp_enabled ? "enabled" : "disabled",
	       c->decomp_indices_per_cycle);
	printf("timing      gemm_ii %u, alu_ii %u, alu_imm_ii %u, insn overhead %u, pipeline fill %u,"
	       " acc dep distance %u, cycle budget %llu\n",
	       c->gemm_ii, c->alu_ii, c->alu_imm_ii, c->insn_overhead_cycles,
	       c->pipeline_fill_cycles, c->acc_dep_distance, (unsigned long long)c->cycle_budget);
}

int cmd_config(int argc, char **argv)
{
	if (argc != 2)
		return cli_usage_error("usage: vtasim config FILE");
	vta_config cfg;
	int rc = cli_load_config(argv[1], &cfg);
	if (rc)
		return rc;
	print_config(&cfg);
	return 0;
}
