/* cmd_config.c - `vtasim config FILE`: validate a hardware config, print what it derives and
 * the value of every key (in the table's names, as --set takes them). */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "vta_config_keys.h"

static void print_config(const vta_config *c)
{
	const vta_field_widths *w = &c->fw;
	printf("config %s\n", c->name);
	printf("  gemm core        %ux%ux%u (batch x block_in x block_out), %u MACs per uop\n",
	       c->batch, c->block_in, c->block_out, c->batch * c->block_in * c->block_out);
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
	printf("\nkeys\n");
	size_t n;
	const vta_config_key *keys = vta_config_keys(&n);
	for (size_t i = 0; i < n; i++) {
		char value[96];
		vta_config_key_format(&keys[i], c, value, sizeof(value));
		printf("  %-31s %s\n", keys[i].name, value);
	}
}

int cmd_config(int argc, char **argv)
{
	static const char USAGE[] = "usage: vtasim config FILE [--set KEY=VALUE]...";
	static const struct option opts[] = {{"set", required_argument, 0, 'S'}, {0, 0, 0, 0}};
	cli_sets sets = {.n = 0};
	int c, rc;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'S')
			return cli_usage_error("%s", USAGE);
		if ((rc = cli_sets_add(&sets, optarg)))
			return rc;
	}
	if (optind != argc - 1)
		return cli_usage_error("%s", USAGE);
	vta_config cfg;
	if ((rc = cli_load_config(argv[optind], &sets, &cfg)))
		return rc;
	print_config(&cfg);
	return 0;
}
