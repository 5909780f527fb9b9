/* golden_cache.c - golden outputs on disk by content (golden_cache.h). */
#include "golden_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	if (strlen(dir) >= sizeof(c->dir) - 80)
		return vta_fail(err, VTA_E_IO, "%s: path too long for the golden cache", dir);
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

vta_status vta_golden_cache_store(const vta_golden_cache *c, const char key[VTA_SHA256_HEX],
				  const vta_tensor_i8 *t, const vta_golden_stats *stats,
				  vta_error *err)
{
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
