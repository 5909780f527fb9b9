/* vta_file.c - bounded reading of input files (see vta_file.h). */
#include "vta_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vta_text.h"


static const char *kind_of(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* "1 MiB", "64 MiB", "1 GiB" or bytes. */
static void size_text(uint64_t n, char *out, size_t size)
{
	if (n >= (1ull << 30) && n % (1ull << 30) == 0)
		snprintf(out, size, "%llu GiB", (unsigned long long)(n >> 30));
	else if (n >= (1ull << 20) && n % (1ull << 20) == 0)
		snprintf(out, size, "%llu MiB", (unsigned long long)(n >> 20));
	else
		snprintf(out, size, "%llu bytes", (unsigned long long)n);
}

vta_status vta_file_too_big(const char *path, const char *what, uint64_t limit,
			    vta_error *err)
{
	char lim[32];
	vta_quoted_path qp;
	size_text(limit, lim, sizeof(lim));
	return vta_fail(err, VTA_E_IO, "%s: larger than a %s may be (%s)",
			vta_quote_path(&qp, path), what, lim);
}

vta_status vta_file_open(const char *path, const char *what, uint64_t limit, FILE **f,
			 uint64_t *size, vta_error *err)
{
	vta_quoted_path qp;
	*f = fopen(path, "rb");
	if (!*f)
		return vta_fail(err, VTA_E_IO, "%s: cannot open: %s", vta_quote_path(&qp, path),
				strerror(errno));
	struct stat sb;
	if (fstat(fileno(*f), &sb) != 0) {
		vta_status st = vta_fail(err, VTA_E_IO, "%s: cannot stat: %s",
					 vta_quote_path(&qp, path), strerror(errno));
		fclose(*f);
		*f = NULL;
		return st;
	}
	if (S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > limit) {
		fclose(*f);
		*f = NULL;
		return vta_file_too_big(path, what, limit, err);
	}
	if (!S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode)) {
		fclose(*f);
		*f = NULL;
		return vta_fail(err, VTA_E_IO, "%s: %s: a %s must be a regular file or a pipe",
				vta_quote_path(&qp, path), kind_of(sb.st_mode), what);
	}
	*size = S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : UINT64_MAX;
	return VTA_OK;
}

vta_status vta_read_file(const char *path, const char *what, uint64_t limit, uint8_t **out,
			 size_t *out_len, vta_error *err)
{
	*out = NULL;
	*out_len = 0;
	FILE *f;
	uint64_t size;
	vta_status st = vta_file_open(path, what, limit, &f, &size, err);
	if (st)
		return st;
	/* a regular file: its size and one byte to see it did not grow; a pipe: by steps. The
	 * buffer grows only when full (one more byte each time holds the closing NUL), so a
	 * regular file that did not grow is read into size + 2 bytes. */
	size_t cap = size != UINT64_MAX ? (size_t)size + 1 : 65536, len = 0;
	uint8_t *buf = NULL;
	for (;;) {
		if (len == cap || !buf) {
			size_t ncap = buf ? cap * 2 : cap;
			uint8_t *nb = realloc(buf, ncap + 1);
			if (!nb) {
				free(buf);
				fclose(f);
				vta_quoted_path qp;
				return vta_fail(err, VTA_E_NOMEM, "%s: out of memory reading it",
						vta_quote_path(&qp, path));
			}
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (len > limit) {
			free(buf);
			fclose(f);
			return vta_file_too_big(path, what, limit, err);
		}
		if (got == 0)
			break;
	}
	int failed = ferror(f);
	fclose(f);
	if (failed) {
		vta_quoted_path qp;
		free(buf);
		return vta_fail(err, VTA_E_IO, "%s: read error", vta_quote_path(&qp, path));
	}
	buf[len] = 0;
	*out = buf;
	*out_len = len;
	return VTA_OK;
}
