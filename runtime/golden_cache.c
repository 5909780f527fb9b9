/* golden_cache.c - golden outputs by content, on disk or in memory (golden_cache.h). */
#include "golden_cache.h"
#include "vta_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- keys ---- */

/* The fast hash: four lanes, each a multiply-rotate over every fourth 8-byte word (a
 * 32-byte block per step, so the lanes run in parallel), folded into 128 bits at the end
 * with the length. Not for adversaries: for telling one process's layers apart. */
#define GK_P1 0x9e3779b97f4a7c15ull
#define GK_P2 0xc2b2ae3d27d4eb4full

static uint64_t gk_rotl(uint64_t v, int r)
{
	return (v << r) | (v >> (64 - r));
}

static void gk_block(uint64_t lane[4], const uint8_t *p)
{
	for (int i = 0; i < 4; i++) {
		uint64_t w;
		memcpy(&w, p + 8 * i, 8);
		lane[i] = gk_rotl(lane[i] + w * GK_P2, 31) * GK_P1;
	}
}

static uint64_t gk_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

void vta_golden_key_init(vta_golden_key *k, int fast)
{
	memset(k, 0, sizeof(*k));
	k->fast = fast;
	if (!fast) {
		vta_sha256_init(&k->sha);
		return;
	}
	for (int i = 0; i < 4; i++)
		k->lane[i] = GK_P1 * (uint64_t)(i + 1) + GK_P2;
}

void vta_golden_key_update(vta_golden_key *k, const void *data, size_t n)
{
	if (!k->fast) {
		vta_sha256_update(&k->sha, data, n);
		return;
	}
	if (!n)
		return;
	const uint8_t *p = data;
	k->bytes += n;
	if (k->n) {
		size_t take = sizeof(k->buf) - k->n < n ? sizeof(k->buf) - k->n : n;
		memcpy(k->buf + k->n, p, take);
		k->n += take;
		p += take;
		n -= take;
		if (k->n < sizeof(k->buf))
			return;
		gk_block(k->lane, k->buf);
		k->n = 0;
	}
	for (; n >= 32; p += 32, n -= 32)
		gk_block(k->lane, p);
	memcpy(k->buf, p, n);
	k->n = n;
}

void vta_golden_key_str(vta_golden_key *k, const char *str)
{
	if (!k->fast) {
		vta_sha256_str(&k->sha, str);
		return;
	}
	size_t n = strlen(str);
	vta_golden_key_u64(k, n);
	vta_golden_key_update(k, str, n);
}

void vta_golden_key_u64(vta_golden_key *k, uint64_t v)
{
	if (!k->fast) {
		vta_sha256_u64(&k->sha, v);
		return;
	}
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	vta_golden_key_update(k, b, sizeof(b));
}

void vta_golden_key_f64(vta_golden_key *k, double v)
{
	if (!k->fast) {
		vta_sha256_f64(&k->sha, v);
		return;
	}
	uint64_t u;
	memcpy(&u, &v, sizeof(u));
	vta_golden_key_u64(k, u);
}

void vta_golden_key_final_hex(vta_golden_key *k, char hex[VTA_SHA256_HEX])
{
	if (!k->fast) {
		vta_sha256_final_hex(&k->sha, hex);
		return;
	}
	/* the tail, zero-padded, then the length: "a" and "a\0" differ */
	memset(k->buf + k->n, 0, sizeof(k->buf) - k->n);
	gk_block(k->lane, k->buf);
	uint64_t a = gk_mix(k->lane[0] ^ gk_rotl(k->lane[2], 17) ^ k->bytes);
	uint64_t b = gk_mix(k->lane[1] ^ gk_rotl(k->lane[3], 29) ^ (k->bytes * GK_P1));
	a = gk_mix(a + b);
	b = gk_mix(b + a);
	snprintf(hex, VTA_SHA256_HEX, "%016llx%016llx", (unsigned long long)a,
		 (unsigned long long)b);
}

/* ---- in memory ---- */

struct vta_golden_entry {
	char key[VTA_SHA256_HEX];
	int32_t shape[4];
	int8_t *data;
	vta_golden_stats stats;
};

void vta_golden_cache_memory(vta_golden_cache *c)
{
	memset(c, 0, sizeof(*c));
}

void vta_golden_cache_close(vta_golden_cache *c)
{
	for (size_t i = 0; i < c->n_entries; i++)
		free(c->entries[i].data);
	free(c->entries);
	c->entries = NULL;
	c->n_entries = c->cap_entries = 0;
}

int vta_golden_cache_fast_keys(const vta_golden_cache *c)
{
	return !c->dir[0];
}

static const vta_golden_entry *memory_find(const vta_golden_cache *c,
					   const char key[VTA_SHA256_HEX])
{
	for (size_t i = 0; i < c->n_entries; i++)
		if (!strcmp(c->entries[i].key, key))
			return &c->entries[i];
	return NULL;
}

static vta_status memory_store(vta_golden_cache *c, const char key[VTA_SHA256_HEX],
			       const vta_tensor_i8 *t, const vta_golden_stats *stats,
			       vta_error *err)
{
	if (memory_find(c, key))
		return VTA_OK;
	if (c->n_entries == c->cap_entries) {
		size_t cap = c->cap_entries ? 2 * c->cap_entries : 16;
		vta_golden_entry *e = realloc(c->entries, cap * sizeof(*e));
		if (!e)
			return vta_fail(err, VTA_E_NOMEM, "golden cache: out of memory");
		c->entries = e;
		c->cap_entries = cap;
	}
	const size_t count = vta_tensor_i8_count(t);
	vta_golden_entry *e = &c->entries[c->n_entries];
	if (!(e->data = malloc(count ? count : 1)))
		return vta_fail(err, VTA_E_NOMEM, "golden cache: out of memory");
	memcpy(e->data, t->data, count);
	snprintf(e->key, sizeof(e->key), "%s", key);
	memcpy(e->shape, t->shape, sizeof(e->shape));
	e->stats = stats ? *stats : (vta_golden_stats){0};
	c->n_entries++;
	return VTA_OK;
}

/* ---- on disk ---- */

/* An entry: this magic, the NHWC shape (4 x int32), the two overflow counts (2 x uint64),
 * then the int8 outputs; numbers in the host's byte order (a cache is local to its hosts). */
static const char MAGIC[8] = {'V', 'T', 'A', 'G', 'O', 'L', 'D', '1'};

typedef struct entry_head {
	char magic[8];
	int32_t shape[4];
	uint64_t alu_overflows, acc_overflows;
} entry_head;

vta_status vta_golden_cache_open(vta_golden_cache *c, const char *dir, vta_error *err)
{
	memset(c, 0, sizeof(*c));
	if (!dir[0] || strlen(dir) >= sizeof(c->dir) - 80)
		return vta_fail(err, VTA_E_IO, "'%s': no path, or too long for the golden cache",
				VTA_QPATH(dir));
	snprintf(c->dir, sizeof(c->dir), "%s", dir);
	struct stat sb;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return vta_fail(err, VTA_E_IO, "%s: cannot create the folder: %s", dir,
				strerror(errno));
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return vta_fail(err, VTA_E_IO, "%s: not a folder", dir);
	return VTA_OK;
}

bool vta_golden_cache_load(const vta_golden_cache *c, const char key[VTA_SHA256_HEX],
			   vta_tensor_i8 *out, vta_golden_stats *stats)
{
	if (!c->dir[0]) {
		const vta_golden_entry *e = memory_find(c, key);
		if (!e || memcmp(e->shape, out->shape, sizeof(e->shape)))
			return false;
		memcpy(out->data, e->data, vta_tensor_i8_count(out));
		if (stats)
			*stats = e->stats;
		return true;
	}
	char path[640];
	snprintf(path, sizeof(path), "%s/%s.golden", c->dir, key);
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	entry_head h;
	const size_t count = vta_tensor_i8_count(out);
	bool ok = fread(&h, sizeof(h), 1, f) == 1 && !memcmp(h.magic, MAGIC, sizeof(MAGIC)) &&
		  !memcmp(h.shape, out->shape, sizeof(h.shape)) &&
		  fread(out->data, 1, count, f) == count && fgetc(f) == EOF;
	fclose(f);
	if (ok && stats) {
		stats->alu_overflows = h.alu_overflows;
		stats->acc_overflows = h.acc_overflows;
	}
	return ok;
}

vta_status vta_golden_cache_store(vta_golden_cache *c, const char key[VTA_SHA256_HEX],
				  const vta_tensor_i8 *t, const vta_golden_stats *stats,
				  vta_error *err)
{
	if (!c->dir[0])
		return memory_store(c, key, t, stats, err);
	char path[640], tmp[700];
	snprintf(path, sizeof(path), "%s/%s.golden", c->dir, key);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	entry_head h;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MAGIC, sizeof(MAGIC));
	memcpy(h.shape, t->shape, sizeof(h.shape));
	h.alu_overflows = stats ? stats->alu_overflows : 0;
	h.acc_overflows = stats ? stats->acc_overflows : 0;
	const size_t count = vta_tensor_i8_count(t);
	FILE *f = fopen(tmp, "wb");
	bool ok = f && fwrite(&h, sizeof(h), 1, f) == 1 && fwrite(t->data, 1, count, f) == count;
	if (f && fclose(f) != 0)
		ok = false;
	if (ok && rename(tmp, path) == 0)
		return VTA_OK;
	int e = errno;
	unlink(tmp);
	return vta_fail(err, VTA_E_IO, "%s: cannot write the golden cache entry: %s", path,
			strerror(e));
}
