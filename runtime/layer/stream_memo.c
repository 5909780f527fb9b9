/* stream_memo.c - checks and cycles of streams already seen in a run (stream_memo.h). */
#include "stream_memo.h"

#include <stdlib.h>
#include <string.h>

#include "vta_bytes.h"
#include "vta_insn.h"

typedef struct memo_entry {
	vta_stream_key key;
	bool has_checks, has_cycles;
	uint64_t cycles;
	vta_race_report *checks;
} memo_entry;

struct vta_stream_memo {
	vta_config cfg;
	memo_entry *e;
	size_t n, cap;
};

vta_stream_memo *vta_stream_memo_new(const vta_config *cfg)
{
	vta_stream_memo *m = calloc(1, sizeof(*m));
	if (m)
		m->cfg = *cfg;
	return m;
}

void vta_stream_memo_free(vta_stream_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		vta_stream_key_free(&m->e[i].key);
		free(m->e[i].checks);
	}
	free(m->e);
	free(m);
}

/* Append n bytes to the key's buffer of capacity *cap. */
static bool key_add(vta_stream_key *k, size_t *cap, const void *p, size_t n)
{
	if (k->n + n > *cap) {
		size_t c = *cap ? *cap : 4096;
		while (c < k->n + n)
			c *= 2;
		uint8_t *nb = realloc(k->bytes, c);
		if (!nb)
			return false;
		k->bytes = nb;
		*cap = c;
	}
	memcpy(k->bytes + k->n, p, n);
	k->n += n;
	return true;
}

bool vta_stream_key_make(const vta_config *cfg, const vta_program *prog, const vta_dram *dram,
			 vta_stream_key *k)
{
	memset(k, 0, sizeof(*k));
	size_t cap = 0;
	const uint64_t head[2] = {prog->n_insns, dram->size};
	const size_t insn_bytes = cfg->insn_bytes;
	bool ok = key_add(k, &cap, head, sizeof(head)) &&
		  key_add(k, &cap, prog->insns, prog->n_insns * insn_bytes);
	const uint64_t eb = cfg->sram[VTA_MEM_UOP].elem_bytes;
	for (size_t i = 0; ok && i < prog->n_insns; i++) {
		const uint8_t *b = prog->insns + i * insn_bytes;
		vta_opcode op;
		vta_error e;
		vta_error_clear(&e);
		if (vta_insn_peek_opcode(cfg, b, &op, &e) != VTA_OK) {
			ok = false;
			break;
		}
		if (op != VTA_OP_LOAD)
			continue;
		vta_insn in;
		if (vta_insn_decode(cfg, b, &in, &e) != VTA_OK) {
			ok = false;
			break;
		}
		const vta_mem_insn *mi = &in.mem;
		if (mi->mem_type != VTA_MEM_UOP || vta_insn_is_nop(&in))
			continue;
		/* the micro-op rows it reads, as the checks and the model read them */
		for (uint64_t y = 0; ok && y < mi->y_size; y++) {
			const uint64_t at = ((uint64_t)mi->dram_base + y * mi->x_stride) * eb;
			const uint64_t n = (uint64_t)mi->x_size * eb;
			ok = at <= dram->size && n <= dram->size - at &&
			     key_add(k, &cap, dram->bytes + at, (size_t)n);
		}
	}
	if (!ok) {
		vta_stream_key_free(k);
		return false;
	}
	k->hash = vta_fnv_words(0xcbf29ce484222325ull, k->bytes, k->n);
	return true;
}

void vta_stream_key_free(vta_stream_key *k)
{
	free(k->bytes);
	memset(k, 0, sizeof(*k));
}

/* Does m answer for streams of cfg (the memo's own config, byte for byte) keyed by k? */
static bool answers(const vta_stream_memo *m, const vta_config *cfg, const vta_stream_key *k)
{
	return m && k->bytes && memcmp(&m->cfg, cfg, sizeof(*cfg)) == 0;
}

/* k's entry among m's, or NULL. */
static memo_entry *find(const vta_stream_memo *m, const vta_stream_key *k)
{
	for (size_t i = 0; i < m->n; i++) {
		memo_entry *e = &m->e[i];
		if (e->key.hash == k->hash && e->key.n == k->n && !memcmp(e->key.bytes, k->bytes, k->n))
			return e;
	}
	return NULL;
}

/* k's entry, made when new; NULL when out of memory or for another config. */
static memo_entry *entry(vta_stream_memo *m, const vta_config *cfg, const vta_stream_key *k)
{
	if (!answers(m, cfg, k))
		return NULL;
	memo_entry *e = find(m, k);
	if (e)
		return e;
	if (m->n == m->cap) {
		const size_t cap = m->cap ? 2 * m->cap : 16;
		memo_entry *ne = realloc(m->e, cap * sizeof(*ne));
		if (!ne)
			return NULL;
		m->e = ne;
		m->cap = cap;
	}
	e = &m->e[m->n];
	memset(e, 0, sizeof(*e));
	if (!(e->key.bytes = malloc(k->n ? k->n : 1)))
		return NULL;
	memcpy(e->key.bytes, k->bytes, k->n);
	e->key.n = k->n;
	e->key.hash = k->hash;
	m->n++;
	return e;
}

const vta_race_report *vta_stream_memo_checks(const vta_stream_memo *m, const vta_config *cfg,
					      const vta_stream_key *k)
{
	const memo_entry *e = answers(m, cfg, k) ? find(m, k) : NULL;
	return e && e->has_checks ? e->checks : NULL;
}

bool vta_stream_memo_cycles(const vta_stream_memo *m, const vta_config *cfg,
			    const vta_stream_key *k, uint64_t *cycles)
{
	const memo_entry *e = answers(m, cfg, k) ? find(m, k) : NULL;
	if (!e || !e->has_cycles)
		return false;
	*cycles = e->cycles;
	return true;
}

bool vta_stream_memo_keep_checks(vta_stream_memo *m, const vta_config *cfg,
				 const vta_stream_key *k, const vta_race_report *rep)
{
	memo_entry *e = entry(m, cfg, k);
	if (!e)
		return false;
	if (!e->checks && !(e->checks = malloc(sizeof(*e->checks))))
		return false;
	*e->checks = *rep;
	e->has_checks = true;
	return true;
}

bool vta_stream_memo_keep_cycles(vta_stream_memo *m, const vta_config *cfg,
				 const vta_stream_key *k, uint64_t cycles)
{
	memo_entry *e = entry(m, cfg, k);
	if (!e)
		return false;
	e->cycles = cycles;
	e->has_cycles = true;
	return true;
}
