/* npy.c - minimal, strict .npy reader and writer (see npy.h). */
#include "npy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_bytes.h"
#include "vta_file.h"
#include "vta_text.h"

static const char MAGIC[] = "\x93NUMPY";

size_t vta_npy_dtype_size(vta_npy_dtype dtype)
{
	switch (dtype) {
	case VTA_NPY_I8:
	case VTA_NPY_U8: return 1;
	case VTA_NPY_I16: return 2;
	case VTA_NPY_I32:
	case VTA_NPY_F32: return 4;
	}
	return 0;
}

static const char *descr_of(vta_npy_dtype dtype)
{
	switch (dtype) {
	case VTA_NPY_I8: return "|i1";
	case VTA_NPY_U8: return "|u1";
	case VTA_NPY_I16: return "<i2";
	case VTA_NPY_I32: return "<i4";
	case VTA_NPY_F32: return "<f4";
	}
	return "?";
}

void vta_npy_free(vta_npy *npy)
{
	free(npy->data);
	npy->data = NULL;
}

/* Find 'key': in the header dict and return a pointer just after the colon. */
static const char *dict_value(const char *hdr, const char *key)
{
	const char *p = strstr(hdr, key);
	if (!p)
		return NULL;
	p = strchr(p + strlen(key), ':');
	if (!p)
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

static vta_status parse_header(const char *path, const char *hdr, vta_npy *out, vta_error *err)
{
	const char *d = dict_value(hdr, "'descr'");
	if (!d)
		return vta_fail(err, VTA_E_DATA, "%s: .npy header has no 'descr'", path);
	static const struct {
		const char *text;
		vta_npy_dtype dtype;
	} types[] = {{"'|i1'", VTA_NPY_I8}, {"'<i1'", VTA_NPY_I8}, {"'|u1'", VTA_NPY_U8},
		     {"'<u1'", VTA_NPY_U8}, {"'<i2'", VTA_NPY_I16}, {"'<i4'", VTA_NPY_I32},
		     {"'<f4'", VTA_NPY_F32}};
	size_t i;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strncmp(d, types[i].text, strlen(types[i].text)))
			break;
	if (i == sizeof(types) / sizeof(types[0]))
	{
		vta_quoted q;
		size_t n = strcspn(d, ",}");
		return vta_fail(err, VTA_E_DATA,
				"%s: unsupported dtype %s (expected int8, uint8, little-endian "
				"int32 or float32)",
				path, vta_quote_bytes(&q, d, n));
	}
	out->dtype = types[i].dtype;
	const char *f = dict_value(hdr, "'fortran_order'");
	if (!f || strncmp(f, "False", 5) != 0)
		return vta_fail(err, VTA_E_DATA, "%s: only C-order (fortran_order False) arrays",
				path);
	const char *s = dict_value(hdr, "'shape'");
	if (!s || *s != '(')
		return vta_fail(err, VTA_E_DATA, "%s: .npy header has no shape tuple", path);
	s++;
	out->rank = 0;
	out->count = 1;
	while (*s && *s != ')') {
		while (*s == ' ' || *s == ',')
			s++;
		if (*s == ')')
			break;
		char *end;
		errno = 0;
		unsigned long long v = strtoull(s, &end, 10);
		if (end == s || errno)
			return vta_fail(err, VTA_E_DATA, "%s: bad shape in .npy header", path);
		if (out->rank == VTA_NPY_MAX_RANK)
			return vta_fail(err, VTA_E_DATA, "%s: rank above %d", path,
					VTA_NPY_MAX_RANK);
		if (v != 0 && out->count > ((size_t)1 << 40) / v)
			return vta_fail(err, VTA_E_DATA, "%s: shape too large", path);
		out->shape[out->rank++] = (size_t)v;
		out->count *= (size_t)v;
		s = end;
	}
	if (*s != ')')
		return vta_fail(err, VTA_E_DATA, "%s: unterminated shape in .npy header", path);
	return VTA_OK;
}

/* The whole file is read first (within VTA_LIMIT_NPY: regular files are refused beyond it
 * before anything is allocated), so every size the header claims is checked against the
 * bytes that are there: a header may not promise more data than the file holds, nor may
 * bytes follow the data. */
vta_status vta_npy_read(const char *path, vta_npy *out, vta_error *err)
{
	vta_quoted_path qp; /* the name messages show (vta_text.h) */
	const char *name = vta_quote_path(&qp, path);
	memset(out, 0, sizeof(*out));
	uint8_t *file;
	size_t len;
	vta_status st = vta_read_file(path, ".npy file", VTA_LIMIT_NPY, &file, &len, err);
	if (st)
		return st;
	char *hdr = NULL;
	size_t pre, hlen;
	if (len < 10 || memcmp(file, MAGIC, 6) != 0) {
		st = vta_fail(err, VTA_E_DATA, "%s: not a .npy file (bad magic)", name);
		goto out;
	}
	if (file[6] == 1) {
		pre = 10;
		hlen = (size_t)file[8] | (size_t)file[9] << 8;
	} else if (file[6] == 2 || file[6] == 3) {
		pre = 12;
		hlen = len < pre ? 0 : vta_le32_get(file + 8);
	} else {
		st = vta_fail(err, VTA_E_DATA, "%s: unsupported .npy version %u", name, file[6]);
		goto out;
	}
	if (len < pre || hlen > len - pre) {
		st = vta_fail(err, VTA_E_DATA, "%s: truncated .npy header", name);
		goto out;
	}
	hdr = malloc(hlen + 1);
	if (!hdr) {
		st = vta_fail(err, VTA_E_NOMEM, "%s: cannot allocate a %zu-byte header", name,
			      hlen + 1);
		goto out;
	}
	memcpy(hdr, file + pre, hlen);
	hdr[hlen] = '\0';
	if ((st = parse_header(name, hdr, out, err)))
		goto out;
	/* count <= 2^40 (parse_header): the product cannot overflow */
	size_t bytes = out->count * vta_npy_dtype_size(out->dtype);
	size_t have = len - pre - hlen;
	if (bytes != have) {
		st = vta_fail(err, VTA_E_DATA,
			      "%s: the shape needs %zu bytes of data, the file holds %zu%s", name,
			      bytes, have, bytes < have ? " (trailing bytes)" : "");
		goto out;
	}
	/* the data moves to the front of the file's buffer, which becomes the tensor's */
	memmove(file, file + pre + hlen, bytes);
	out->data = file;
	file = NULL;
out:
	free(hdr);
	free(file);
	if (st)
		vta_npy_free(out);
	return st;
}

vta_status vta_npy_write(const char *path, vta_npy_dtype dtype, int rank, const size_t *shape,
			 const void *data, vta_error *err)
{
	char dict[256];
	int n = snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (",
			 descr_of(dtype));
	size_t count = 1;
	for (int i = 0; i < rank; i++) {
		n += snprintf(dict + n, sizeof(dict) - (size_t)n, "%zu%s", shape[i],
			      rank == 1 ? "," : (i + 1 < rank ? ", " : ""));
		count *= shape[i];
	}
	n += snprintf(dict + n, sizeof(dict) - (size_t)n, "), }");
	/* pad with spaces so magic + header is a multiple of 64 bytes, ending in '\n' */
	size_t total = 10 + (size_t)n + 1;
	size_t pad = (64 - total % 64) % 64;
	size_t hlen = (size_t)n + pad + 1;
	FILE *f = fopen(path, "wb");
	if (!f)
		return vta_fail(err, VTA_E_IO, "%s: cannot create: %s", path, strerror(errno));
	unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff),
				 (unsigned char)(hlen >> 8)};
	int ok = fwrite(pre, 1, 10, f) == 10 && fwrite(dict, 1, (size_t)n, f) == (size_t)n;
	for (size_t i = 0; ok && i < pad; i++)
		ok = fputc(' ', f) != EOF;
	ok = ok && fputc('\n', f) != EOF;
	size_t bytes = count * vta_npy_dtype_size(dtype);
	ok = ok && fwrite(data, 1, bytes, f) == bytes;
	if (fclose(f) != 0)
		ok = 0;
	if (!ok)
		return vta_fail(err, VTA_E_IO, "%s: write failed", path);
	return VTA_OK;
}
