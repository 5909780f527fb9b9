/*
 * stream_campaign.c - the mutated-stream campaign (docs/robustness.md): N mutants of the
 * default-config programs of traces/ (a bit or byte of an instruction or a micro-op changed,
 * an instruction dropped, duplicated or swapped with its neighbour), each through the
 * stream reader (serialize, parse), the stream checks and both engines (fuzz_engines.h),
 * from its trace's DRAM image. It counts the outcomes and sorts every disagreement of the
 * engines: a race (the checks found a race or a read of unwritten rows: timing picks the
 * order) or a bug (written to OUT_DIR/bug-K.bin with its trace's name). Exit 1 on a bug;
 * a broken contract or a sanitizer's report aborts (the mutant is then OUT_DIR/current.bin).
 *
 *   stream_campaign [-n N] [-s SEED] [-o OUT_DIR] TRACE_DIR...   (from the source tree)
 *
 * One process, one SystemC elaboration: every trace must assemble for the default config
 * (others are skipped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "targets/fuzz_engines.h"
#include "prng.h"
#include "vta_asm.h"

typedef struct seed {
	const char *dir;
	vta_program prog;
	uint8_t *image;
	size_t image_len;
} seed;

static void mutate(vta_prng *r, vta_program *p, const vta_config *cfg)
{
	size_t ib = cfg->insn_bytes;
	int kind = (int)vta_prng_range(r, 0, 99);
	size_t i = (size_t)vta_prng_range(r, 0, (int64_t)p->n_insns - 1);
	uint8_t *insn = p->insns + i * ib;
	if (kind < 55) { /* flip 1..3 bits of one instruction */
		int n = 1 + (int)vta_prng_range(r, 0, 2);
		for (int k = 0; k < n; k++)
			insn[vta_prng_range(r, 0, (int64_t)ib - 1)] ^=
				(uint8_t)(1u << vta_prng_range(r, 0, 7));
	} else if (kind < 70) { /* one random byte */
		insn[vta_prng_range(r, 0, (int64_t)ib - 1)] = (uint8_t)vta_prng_range(r, 0, 255);
	} else if (kind < 80 && p->n_insns > 1) { /* drop */
		memmove(insn, insn + ib, (p->n_insns - i - 1) * ib);
		p->n_insns--;
	} else if (kind < 88 && p->n_insns < p->cap_insns) { /* duplicate */
		memmove(insn + ib, insn, (p->n_insns - i) * ib);
		p->n_insns++;
	} else if (kind < 94 && i + 1 < p->n_insns) { /* swap with the next */
		uint8_t tmp[64];
		memcpy(tmp, insn, ib);
		memcpy(insn, insn + ib, ib);
		memcpy(insn + ib, tmp, ib);
	} else { /* a bit of a micro-op (or of an instruction when there is none) */
		for (size_t s = 0; s < p->n_segments; s++)
			if (p->segments[s].kind == VTA_SEG_UOP && p->segments[s].size) {
				vta_segment *g = &p->segments[s];
				g->bytes[vta_prng_range(r, 0, g->size - 1)] ^=
					(uint8_t)(1u << vta_prng_range(r, 0, 7));
				return;
			}
		insn[vta_prng_range(r, 0, (int64_t)ib - 1)] ^= 1;
	}
}

int main(int argc, char **argv)
{
	long n = 1000, seed_no = 1;
	const char *out_dir = NULL;
	int opt;
	while ((opt = getopt(argc, argv, "n:s:o:")) != -1) {
		switch (opt) {
		case 'n': n = atol(optarg); break;
		case 's': seed_no = atol(optarg); break;
		case 'o': out_dir = optarg; break;
		default:
			fprintf(stderr, "usage: stream_campaign [-n N] [-s SEED] [-o OUT_DIR] TRACE_DIR...\n");
			return 2;
		}
	}
	vta_config cfg;
	vta_config_default(&cfg);
	cfg.cycle_budget = 2000000;
	cfg.dram_size_mib = 1;
	vta_error err = {0};
	if (vta_config_derive(&cfg, &err))
		fuzz_die("config", err.detail);

	seed *seeds = calloc((size_t)argc, sizeof(*seeds));
	size_t n_seeds = 0;
	for (int a = optind; a < argc; a++) {
		char path[4096];
		seed *s = &seeds[n_seeds];
		s->dir = argv[a];
		vta_program_init(&s->prog, &cfg);
		snprintf(path, sizeof(path), "%s/program.s", argv[a]);
		if (vta_asm_file(path, &cfg, &s->prog, &err) != VTA_OK) {
			vta_program_free(&s->prog);
			continue;
		}
		snprintf(path, sizeof(path), "%s/dram.bin", argv[a]);
		if (access(path, R_OK) == 0 && !(s->image = fuzz_read_file(path, &s->image_len)))
			fuzz_die("cannot read", path);
		n_seeds++;
	}
	if (!n_seeds) {
		fprintf(stderr, "stream_campaign: no trace assembles for the default config\n");
		return 2;
	}

	vtasim_sim *sim;
	vta_ref *ref;
	if (vtasim_sim_create(&cfg, &sim, &err) || vta_ref_create(&cfg, &ref, &err))
		fuzz_die("engines", err.detail);

	vta_prng r;
	vta_prng_seed(&r, (uint64_t)seed_no);
	size_t outcomes[FUZZ_OUTCOMES] = {0}, rejected = 0, races = 0, bugs = 0;
	size_t checks_clean = 0, checks_racy = 0, checks_other = 0, checks_skipped = 0;
	for (long m = 0; m < n; m++) {
		seed *s = &seeds[vta_prng_range(&r, 0, (int64_t)n_seeds - 1)];
		/* the mutant: a copy of the seed through the stream format, changed */
		uint8_t *b;
		size_t len;
		if (vta_program_serialize(&s->prog, &b, &len, &err))
			fuzz_die("serialize", err.detail);
		vta_program p;
		if (vta_program_parse(b, len, &cfg, &p, &err))
			fuzz_die("parse", err.detail);
		free(b);
		/* room to duplicate one instruction */
		if (p.n_insns == p.cap_insns) {
			uint8_t *grown = realloc(p.insns, (p.n_insns + 1) * cfg.insn_bytes);
			fuzz_require(grown != NULL, "out of memory");
			p.insns = grown;
			p.cap_insns = p.n_insns + 1;
		}
		mutate(&r, &p, &cfg);
		vta_status st = vta_program_serialize(&p, &b, &len, &err);
		fuzz_expect(st, &err);
		vta_program_free(&p);
		if (st == VTA_OK) {
			st = vta_program_parse(b, len, &cfg, &p, &err);
			fuzz_expect(st, &err);
		}
		if (st != VTA_OK) {
			rejected++;
			free(b);
			continue;
		}
		if (out_dir) { /* what a crash leaves behind */
			char path[4096];
			snprintf(path, sizeof(path), "%s/current.bin", out_dir);
			vta_write_file(path, b, len, &err);
		}
		fuzz_verdict v;
		fuzz_run_engines(&cfg, ref, sim, &p, s->image, s->image_len, &v);
		outcomes[v.outcome]++;
		if (v.outcome != FUZZ_NOT_PLACED) {
			if (!v.checked)
				checks_skipped++;
			else if (v.checks == VTA_OK)
				checks_clean++;
			else if (fuzz_racy(&v))
				checks_racy++;
			else
				checks_other++;
		}
		if (fuzz_disagree(&v)) {
			if (fuzz_racy(&v)) {
				races++;
			} else {
				bugs++;
				printf("BUG mutant %ld of %s: %s%s%s; checks: %s; reference: %s; "
				       "model: %s\n",
				       m, s->dir, fuzz_outcome_names[v.outcome],
				       v.where[0] ? " at " : "", v.where,
				       v.checks ? v.check_err.detail : "clean",
				       v.ref ? v.ref_err.detail : "ok",
				       v.sim ? v.sim_err.detail : "ok");
				if (out_dir) {
					char path[4096];
					snprintf(path, sizeof(path), "%s/bug-%zu.bin", out_dir, bugs);
					vta_write_file(path, b, len, &err);
				}
			}
		}
		free(b);
		vta_program_free(&p);
	}
	printf("stream campaign: %ld mutants of %zu programs (seed %ld)\n", n, n_seeds, seed_no);
	printf("  %-34s %zu\n", "rejected by the stream reader", rejected);
	for (int o = 0; o < FUZZ_OUTCOMES; o++)
		printf("  %-34s %zu\n", fuzz_outcome_names[o], outcomes[o]);
	printf("  stream checks: %zu clean, %zu race or unwritten read, %zu other errors, %zu no "
	       "verdict (the engines report why)\n",
	       checks_clean, checks_racy, checks_other, checks_skipped);
	printf("  disagreements: %zu explained by a race, %zu bugs\n", races, bugs);
	for (size_t i = 0; i < n_seeds; i++) {
		vta_program_free(&seeds[i].prog);
		free(seeds[i].image);
	}
	free(seeds);
	vta_ref_destroy(ref);
	vtasim_sim_destroy(sim);
	return bugs ? 1 : 0;
}
