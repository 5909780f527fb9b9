/* golden_cache.c - golden outputs by content, on disk or in memory (golden_cache.h). */
#include "golden_cache.h"
#include "vta_text.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
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
 * the SHA-256 of the entry (below), then the int8 outputs; numbers in the host's byte order
 * (a cache is local to its hosts). A golden output is what the simulator is judged by, so
 * an entry is trusted only when it checks: one changed on disk (a byte of its outputs, its
 * counts, or another key's entry copied over it) would otherwise show as the simulator's
 * mismatch. */
static const char MAGIC[8] = {'V', 'T', 'A', 'G', 'O', 'L', 'D', '2'};

typedef struct entry_head {
	char magic[8];
	int32_t shape[4];
	uint64_t alu_overflows, acc_overflows;
	uint8_t digest[32];
} entry_head;

/* The digest of an entry: its key, shape, counts and outputs. The outputs are hashed as
 * they stream by (update), so checking one needs no buffer of its size. */
static void entry_digest_begin(vta_sha256 *h, const char *key, const entry_head *head)
{
	vta_sha256_init(h);
	vta_sha256_str(h, "vtasim golden entry 2");
	vta_sha256_str(h, key);
	for (int i = 0; i < 4; i++)
		vta_sha256_u64(h, (uint64_t)(int64_t)head->shape[i]);
	vta_sha256_u64(h, head->alu_overflows);
	vta_sha256_u64(h, head->acc_overflows);
}

static void entry_digest_end(vta_sha256 *h, uint8_t digest[32])
{
	char hex[VTA_SHA256_HEX];
	vta_sha256_final_hex(h, hex);
	for (int i = 0; i < 32; i++) {
		unsigned v = 0;
		sscanf(hex + 2 * i, "%2x", &v);
		digest[i] = (uint8_t)v;
	}
}

/* The elements of a shape, or -1 when it is not one (negative or absurd dimensions). */
static int64_t shape_count(const int32_t shape[4])
{
	int64_t n = 1;
	for (int i = 0; i < 4; i++) {
		if (shape[i] < 0 || (shape[i] && n > INT32_MAX / shape[i]))
			return -1;
		n *= shape[i];
	}
	return n;
}

/* Read the entry in f for `key`: its head, and its outputs into data (NULL: only checked),
 * which holds `want` bytes. True when it is whole, exactly that long and its digest
 * matches. */
static bool entry_read(FILE *f, const char *key, entry_head *h, int8_t *data, int64_t want)
{
	if (fread(h, sizeof(*h), 1, f) != 1 || memcmp(h->magic, MAGIC, sizeof(MAGIC)))
		return false;
	const int64_t count = shape_count(h->shape);
	if (count < 0 || (want >= 0 && count != want))
		return false;
	vta_sha256 sha;
	entry_digest_begin(&sha, key, h);
	int8_t chunk[16384];
	for (int64_t at = 0; at < count;) {
		const size_t n = (size_t)(count - at < (int64_t)sizeof(chunk) ? count - at
									: (int64_t)sizeof(chunk));
		int8_t *into = data ? data + at : chunk;
		if (fread(into, 1, n, f) != n)
			return false;
		vta_sha256_update(&sha, into, n);
		at += (int64_t)n;
	}
	uint8_t digest[32];
	entry_digest_end(&sha, digest);
	return fgetc(f) == EOF && !memcmp(digest, h->digest, sizeof(digest));
}

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
	int32_t want_shape[4];
	memcpy(want_shape, out->shape, sizeof(want_shape));
	bool ok = entry_read(f, key, &h, out->data, shape_count(want_shape)) &&
		  !memcmp(h.shape, want_shape, sizeof(h.shape));
	fclose(f);
	if (ok && stats) {
		stats->alu_overflows = h.alu_overflows;
		stats->acc_overflows = h.acc_overflows;
	}
	return ok;
}

size_t vta_golden_cache_scrub(const vta_golden_cache *c, char *first, size_t size)
{
	if (size)
		first[0] = '\0';
	if (!c->dir[0])
		return 0;
	DIR *d = opendir(c->dir);
	if (!d)
		return 0;
	size_t discarded = 0;
	const struct dirent *e;
	while ((e = readdir(d))) {
		/* an entry's name: its 64 hex digits of key and ".golden" */
		const size_t len = strlen(e->d_name);
		if (len != 64 + 7 || strcmp(e->d_name + 64, ".golden"))
			continue;
		char key[VTA_SHA256_HEX], path[640];
		snprintf(key, sizeof(key), "%.64s", e->d_name);
		snprintf(path, sizeof(path), "%s/%s", c->dir, e->d_name);
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		entry_head h;
		const bool ok = entry_read(f, key, &h, NULL, -1);
		fclose(f);
		if (ok || (unlink(path) != 0 && errno != ENOENT))
			continue;
		if (!discarded++ && size)
			snprintf(first, size, "%s", e->d_name);
	}
	closedir(d);
	return discarded;
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
	vta_sha256 sha;
	entry_digest_begin(&sha, key, &h);
	vta_sha256_update(&sha, t->data, count);
	entry_digest_end(&sha, h.digest);
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
