/* cmd_config.c - `vtasim config FILE`: validate a hardware config, print what it derives (the
 * SRAMs, the field widths and their layout in the config's instruction encoding) and the value
 * of every key (in the table's names, as --set takes them). */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "vta_config_keys.h"
#include "vta_energy.h"
#include "vta_insn_fields.h"

/* One word of a format as "name hi:lo, ..." from bit `pos` on; returns the next free bit.
 * Fields take their bits in the encoder's order (vta_insn.c): each field's low part, then
 * at once its high part in the word that holds it ("memory_type[3] 0"). The LUT-only field
 * overlays the plain fields before it. */
static unsigned print_word(const vta_insn_format *f, const vta_field_widths *w, unsigned k,
			   unsigned pos, bool *any)
{
	unsigned plain_at = pos;
	for (size_t j = 0; j < f->n_fields; j++) {
		const vta_insn_field *fd = &f->fields[j];
		unsigned width = vta_field_width(fd, w);
		if (vta_field_word(fd, w) == k && width) {
			unsigned at = pos;
			if (fd->presence == VTA_PRESENT_LUT)
				at = plain_at;
			else if (fd->presence == VTA_PRESENT_PLAIN && (j == 0 ||
				 f->fields[j - 1].presence != VTA_PRESENT_PLAIN))
				plain_at = pos;
			if (width == 1)
				printf("%s %s %u", *any ? "," : "", fd->name, at);
			else
				printf("%s %s %u:%u", *any ? "," : "", fd->name, at + width - 1, at);
			*any = true;
			if (fd->presence != VTA_PRESENT_LUT)
				pos += width;
		}
		unsigned high = vta_field_high_width(fd, w);
		if (!high || vta_field_high_word(fd, w) != k)
			continue;
		if (high == 1)
			printf("%s %s[%u] %u", *any ? "," : "", fd->name, width, pos);
		else
			printf("%s %s[%u:%u] %u:%u", *any ? "," : "", fd->name, width + high - 1,
			       width, pos + high - 1, pos);
		*any = true;
		pos += high;
	}
	return pos;
}

/* Where each field sits in the config's encoding: every word of every format. */
static void print_layout(const vta_field_widths *w)
{
	printf("\nlayout, bits hi:lo of each 64-bit word (unused bits are zero)\n");
	size_t nf;
	const vta_insn_format *const *formats = vta_insn_formats(&nf);
	const vta_insn_format *head = vta_insn_head();
	for (size_t i = 0; i < nf; i++) {
		const vta_insn_format *f = formats[i];
		if (f == head)
			continue; /* shown at the start of each instruction */
		bool uop = f == vta_uop_format();
		unsigned words = uop ? 1 : w->insn_words;
		for (unsigned k = 0; k < words; k++) {
			bool any = false;
			printf("  %-11s word%u", k ? "" : f->name, k);
			unsigned pos = k == 0 && !uop ? print_word(head, w, 0, 0, &any) : 0;
			print_word(f, w, k, pos, &any);
			printf("%s\n", any ? "" : " unused");
		}
	}
}

static void print_config(const vta_config *c)
{
	const vta_field_widths *w = &c->fw;
	printf("config %s\n", c->name);
	printf("  gemm core        %ux%ux%u (batch x block_in x block_out), %u MACs per uop\n",
	       c->batch, c->block_in, c->block_out, c->batch * c->block_in * c->block_out);
	printf("\nSRAM     capacity    element  depth  index bits\n");
	for (unsigned slot = 0; slot < VTA_STATS_SRAMS; slot++) { /* the reports' order */
		const vta_sram_geometry *g = &c->sram[vta_mem_of_stats_slot(slot)];
		printf("  %-5s %9llu B  %5u B  %5u  %u\n", vta_stats_slot_name(slot),
		       (unsigned long long)g->bytes, g->elem_bytes, g->depth, g->log_depth);
	}
	if (c->decomp_enabled)
		printf("  lut   %9llu B  %5u B  %5u  (LUT decoder's table memory)\n",
		       (unsigned long long)c->lut_depth * 4, 4u, c->lut_depth);
	vta_area area;
	vta_area_of(c, &area);
	printf("\narea %.4g mm^2 (the area: keys, docs/energy.md):", area.total_mm2);
	for (int p = 0; p < VTA_AREA_PARTS; p++)
		if (area.part_mm2[p] > 0)
			printf("%s %s %.4g", p ? "," : "", vta_area_part_name(p), area.part_mm2[p]);
	printf("\n");
	printf("\ninstruction encoding %s: %u-byte instructions (%u words of 64 bits), "
	       "%u-byte micro-ops\n",
	       vta_encoding_name(c->isa_encoding), c->insn_bytes, w->insn_words,
	       c->sram[VTA_MEM_UOP].elem_bytes);
	printf("\ninstruction fields (bits), in packing order; every instruction starts with head\n");
	size_t nf;
	const vta_insn_format *const *formats = vta_insn_formats(&nf);
	const vta_insn_format *head = vta_insn_head();
	for (size_t i = 0; i < nf; i++) {
		const vta_insn_format *f = formats[i];
		if (!f->n_fields)
			continue; /* finish: the head only */
		printf("  %-11s", f->name);
		for (size_t j = 0; j < f->n_fields; j++) {
			const vta_insn_field *fd = &f->fields[j];
			printf("%s %s %u%s", j ? "," : "", fd->name, vta_field_width(fd, w),
			       fd->presence == VTA_PRESENT_LUT ? " (in the pads' bits)" : "");
			if (vta_field_high_width(fd, w))
				printf(" + %u in word%u", vta_field_high_width(fd, w),
				       vta_field_high_word(fd, w));
		}
		if (f == vta_uop_format()) {
			printf("  (%u/%u)\n", vta_format_bits(f, w, 0), w->uop_word_bits);
		} else if (f != head) {
			for (unsigned k = 0; k < w->insn_words; k++)
				printf("%sword%u %u/64", k ? ", " : "  (", k,
				       (k ? 0 : vta_format_bits(head, w, 0)) +
					       vta_format_bits(f, w, k));
			printf(")\n");
		} else {
			printf("\n");
		}
	}
	print_layout(w);
	printf("\nkeys\n");
	size_t n;
	const vta_config_key *keys = vta_config_keys(&n);
	for (size_t i = 0; i < n; i++) {
		char value[96];
		vta_config_key_format(&keys[i], c, value, sizeof(value));
		printf("  %-31s %s\n", keys[i].name, value);
	}
}

const char cmd_config_usage[] = "config FILE [--set KEY=VALUE]...";

const cli_opt cmd_config_opts[] = {
	{"set", 0, 'S', "KEY=VALUE", "override a config key (repeatable), checked as in the file"},
	CLI_OPT_END};

int cmd_config(int argc, char **argv)
{
	cli_getopt g;
	cli_getopt_make(cmd_config_opts, &g);
	cli_sets sets = {.n = 0};
	int c, rc;
	if (cli_help_asked(argc, argv, g.shortopts, g.longopts))
		return CLI_EXIT(cli_command_help(argv[0]));
	optind = 1;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c != 'S')
			return cli_bad_option(c, argv);
		if ((rc = cli_sets_add(&sets, optarg)))
			return rc;
	}
	if (optind < argc - 1)
		return cli_unexpected("config", argv[optind + 1]);
	if (optind == argc)
		return cli_missing("config", "config file", "FILE, a hardware config YAML");
	vta_config cfg;
	if ((rc = cli_load_config(argv[optind], &sets, &cfg)))
		return rc;
	print_config(&cfg);
	return 0;
}
