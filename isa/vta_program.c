/*
 * vta_program.c - programs (encoded instructions + DRAM segments) and the binary stream file,
 * whose layout is docs/isa.md "Stream files".
 *
 * Parsing treats the bytes as untrusted: every read is bounds-checked before it happens,
 * counts are checked against the bytes left before anything is allocated, and each
 * instruction and micro-op is decoded so a malformed one is reported where it is.
 */
#include "vta_program.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_bytes.h"
#include "vta_text.h"

static const uint8_t stream_magic[8] = {'V', 'T', 'A', 'S', 'T', 'R', 'M', '\0'};
#define STREAM_VERSION 1u
#define GEOMETRY_BYTES 16u
#define HEADER_BYTES 40u
#define SEGMENT_HEADER_BYTES 16u

/* ---------- geometry ---------- */

void vta_geometry_from_config(const vta_config *cfg, vta_geometry *geo)
{
	memset(geo, 0, sizeof(*geo));
	geo->log_batch = (uint8_t)cfg->log_batch;
	geo->log_block_in = (uint8_t)cfg->log_block_in;
	geo->log_block_out = (uint8_t)cfg->log_block_out;
	geo->inp_bits = (uint8_t)vta_log2(cfg->inp_bits);
	geo->wgt_bits = (uint8_t)vta_log2(cfg->wgt_bits);
	geo->acc_bits = (uint8_t)vta_log2(cfg->acc_bits);
	/* what decoding needs: the width of the micro-op range fields (the UOP SRAM's depth
	 * unless isa.uop_field_depth sets more) */
	geo->log_uop_depth = (uint8_t)cfg->log_uop_field_depth;
	geo->log_inp_depth = (uint8_t)cfg->sram[VTA_MEM_INP].log_depth;
	geo->log_wgt_depth = (uint8_t)cfg->sram[VTA_MEM_WGT].log_depth;
	geo->log_acc_depth = (uint8_t)cfg->sram[VTA_MEM_ACC].log_depth;
	geo->encoding = (uint8_t)cfg->isa_encoding;
}

uint32_t vta_geometry_insn_bytes(const vta_geometry *geo)
{
	return vta_encoding_insn_bytes(geo->encoding);
}

uint32_t vta_geometry_uop_bytes(const vta_geometry *geo)
{
	return vta_encoding_uop_bytes(geo->encoding);
}

/* Names and values of the geometry bytes, in file order. */
static const char *const geometry_names[10] = {
	"log_batch",	 "log_block_in",  "log_block_out", "log_inp_bits",  "log_wgt_bits",
	"log_acc_bits", "log_uop_depth", "log_inp_depth", "log_wgt_depth", "log_acc_depth"};

/* vta_geometry is the header's geometry bytes in file order (all uint8_t: no padding). */
_Static_assert(sizeof(vta_geometry) == GEOMETRY_BYTES, "vta_geometry is the geometry bytes");

vta_status vta_geometry_check(const vta_config *cfg, const vta_geometry *geo, vta_error *err)
{
	vta_geometry want;
	vta_geometry_from_config(cfg, &want);
	const uint8_t *a = (const uint8_t *)geo, *b = (const uint8_t *)&want;
	/* first: another encoding also moves the UOP depth (its micro-ops differ in size) */
	if (geo->encoding != want.encoding)
		return vta_fail(err, VTA_E_STREAM,
				"stream encoding %s != config %s (isa.encoding)",
				geo->encoding < VTA_ENC_COUNT ? vta_encoding_name(geo->encoding)
							      : "undefined",
				vta_encoding_name(want.encoding));
	for (unsigned i = 0; i < 10; i++)
		if (a[i] != b[i])
			return vta_fail(err, VTA_E_STREAM, "stream geometry %s %u != config %u",
					geometry_names[i], a[i], b[i]);
	for (unsigned i = 11; i < GEOMETRY_BYTES; i++)
		if (a[i] != 0)
			return vta_fail(err, VTA_E_STREAM,
					"stream geometry reserved byte %u is %u, not 0", i - 10,
					a[i]);
	return VTA_OK;
}

/* ---------- the program container ---------- */

void vta_program_init(vta_program *prog, const vta_config *cfg)
{
	memset(prog, 0, sizeof(*prog));
	if (cfg)
		vta_geometry_from_config(cfg, &prog->geometry);
}

void vta_program_free(vta_program *prog)
{
	if (!prog)
		return;
	free(prog->insns);
	for (size_t i = 0; i < prog->n_segments; i++)
		free(prog->segments[i].bytes);
	free(prog->segments);
	memset(prog, 0, sizeof(*prog));
}

/* Make room for one more element in a growable array. */
static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 1;
	size_t ncap = *cap ? *cap * 2 : 64;
	if (ncap < *cap || ncap > SIZE_MAX / elem)
		return 0;
	void *p = realloc(*arr, ncap * elem);
	if (!p)
		return 0;
	*arr = p;
	*cap = ncap;
	return 1;
}

vta_status vta_program_push_raw(vta_program *prog, const uint8_t *bytes, vta_error *err)
{
	const size_t size = vta_geometry_insn_bytes(&prog->geometry);
	void *arr = prog->insns;
	if (!grow(&arr, &prog->cap_insns, prog->n_insns, size))
		return vta_fail(err, VTA_E_NOMEM, "out of memory growing the instruction stream");
	prog->insns = arr;
	memcpy(prog->insns + prog->n_insns * size, bytes, size);
	prog->n_insns++;
	return VTA_OK;
}

vta_status vta_program_push(vta_program *prog, const vta_config *cfg, const vta_insn *insn,
			    vta_error *err)
{
	uint8_t bytes[VTA_INSN_MAX_BYTES];
	vta_error sub = {0};
	if (vta_insn_encode(cfg, insn, bytes, &sub) != VTA_OK)
		return vta_insn_fail(err, sub.status, NULL, prog->n_insns, insn, "%s", sub.detail);
	return vta_program_push_raw(prog, bytes, err);
}

vta_status vta_program_add_segment(vta_program *prog, vta_segment_kind kind, uint64_t dram_addr,
				   const uint8_t *bytes, uint32_t size, vta_error *err)
{
	if (kind != VTA_SEG_DATA && kind != VTA_SEG_UOP)
		return vta_fail(err, VTA_E_USAGE, "segment kind %d is not defined", (int)kind);
	const uint32_t uop_bytes = vta_geometry_uop_bytes(&prog->geometry);
	if (kind == VTA_SEG_UOP && size % uop_bytes != 0)
		return vta_fail(err, VTA_E_USAGE, "uop segment size %u is not a multiple of %u",
				size, uop_bytes);
	if (size > 0 && !bytes)
		return vta_fail(err, VTA_E_USAGE, "segment of %u bytes without data", size);
	void *arr = prog->segments;
	if (!grow(&arr, &prog->cap_segments, prog->n_segments, sizeof(vta_segment)))
		return vta_fail(err, VTA_E_NOMEM, "out of memory growing the segment list");
	prog->segments = arr;
	uint8_t *copy = NULL;
	if (size > 0) {
		copy = malloc(size);
		if (!copy)
			return vta_fail(err, VTA_E_NOMEM, "out of memory for a %u-byte segment",
					size);
		memcpy(copy, bytes, size);
	}
	prog->segments[prog->n_segments++] = (vta_segment){kind, dram_addr, size, copy};
	return VTA_OK;
}

/* Segment indices by DRAM address, then program order (qsort has no context argument, so
 * the sort carries the address beside the index). */
typedef struct seg_at {
	uint64_t addr;
	size_t index;
} seg_at;

static int seg_at_cmp(const void *x, const void *y)
{
	const seg_at *a = x, *b = y;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The end of a segment's bytes, saturated so an address near 2^64 cannot wrap below it. */
static uint64_t seg_end(const vta_segment *s)
{
	return s->dram_addr > UINT64_MAX - s->size ? UINT64_MAX : s->dram_addr + s->size;
}

vta_status vta_program_overlap(const vta_program *prog, int *found, size_t *earlier,
			       size_t *later, vta_error *err)
{
	*found = 0;
	if (prog->n_segments < 2)
		return VTA_OK;
	seg_at *order = malloc(prog->n_segments * sizeof(*order));
	if (!order)
		return vta_fail(err, VTA_E_NOMEM, "out of memory checking %zu segments",
				prog->n_segments);
	size_t n = 0;
	for (size_t i = 0; i < prog->n_segments; i++)
		if (prog->segments[i].size)
			order[n++] = (seg_at){prog->segments[i].dram_addr, i};
	qsort(order, n, sizeof(*order), seg_at_cmp);
	/* sorted by start, a segment overlaps an earlier-starting one iff it starts before the
	 * furthest end so far */
	size_t reach = 0; /* the index in `order` whose segment ends furthest */
	for (size_t k = 1; k < n && !*found; k++) {
		const vta_segment *far = &prog->segments[order[reach].index];
		const vta_segment *s = &prog->segments[order[k].index];
		if (s->dram_addr < seg_end(far)) {
			*found = 1;
			size_t a = order[reach].index, b = order[k].index;
			*earlier = a < b ? a : b;
			*later = a < b ? b : a;
		} else if (seg_end(s) > seg_end(far)) {
			reach = k;
		}
	}
	free(order);
	return VTA_OK;
}

typedef vta_status (*insn_decoder)(const vta_config *cfg, const uint8_t *in, vta_insn *insn,
				   vta_error *err);

static vta_status program_decode(const vta_program *prog, const vta_config *cfg, size_t i,
				 vta_insn *insn, insn_decoder decode, vta_error *err)
{
	if (i >= prog->n_insns)
		return vta_fail(err, VTA_E_USAGE, "insn %zu: the program has %zu instructions", i,
				prog->n_insns);
	vta_error sub;
	vta_error_clear(&sub);
	const size_t size = vta_geometry_insn_bytes(&prog->geometry);
	if (cfg->insn_bytes != size)
		return vta_fail(err, VTA_E_STREAM, "insn %zu: the program's encoding is %s, the "
				"config's %s (isa.encoding)", i,
				vta_encoding_name(prog->geometry.encoding),
				vta_encoding_name(cfg->isa_encoding));
	if (decode(cfg, prog->insns + i * size, insn, &sub) != VTA_OK)
		return vta_fail(err, sub.status, "insn %zu: %s", i, sub.detail);
	return VTA_OK;
}

vta_status vta_program_insn(const vta_program *prog, const vta_config *cfg, size_t i,
			    vta_insn *insn, vta_error *err)
{
	return program_decode(prog, cfg, i, insn, vta_insn_decode, err);
}

vta_status vta_program_insn_head(const vta_program *prog, const vta_config *cfg, size_t i,
				 vta_insn *insn, vta_error *err)
{
	return program_decode(prog, cfg, i, insn, vta_insn_decode_head, err);
}

/* ---------- serialisation ---------- */

vta_status vta_program_serialize(const vta_program *prog, uint8_t **out, size_t *out_len,
				 vta_error *err)
{
	*out = NULL;
	*out_len = 0;
	if (prog->n_insns > UINT32_MAX || prog->n_segments > UINT32_MAX)
		return vta_fail(err, VTA_E_USAGE, "too many instructions or segments for a stream");
	const size_t insn_bytes = vta_geometry_insn_bytes(&prog->geometry);
	size_t len = HEADER_BYTES;
	if (prog->n_insns > (SIZE_MAX - len) / insn_bytes)
		return vta_fail(err, VTA_E_NOMEM, "stream too large");
	len += prog->n_insns * insn_bytes;
	for (size_t i = 0; i < prog->n_segments; i++) {
		size_t add = SEGMENT_HEADER_BYTES + (size_t)prog->segments[i].size;
		if (len > SIZE_MAX - add)
			return vta_fail(err, VTA_E_NOMEM, "stream too large");
		len += add;
	}
	uint8_t *buf = malloc(len);
	if (!buf)
		return vta_fail(err, VTA_E_NOMEM, "out of memory for a %zu-byte stream", len);
	memcpy(buf, stream_magic, 8);
	vta_le_put(buf + 8, 4, STREAM_VERSION);
	vta_le_put(buf + 12, 4, GEOMETRY_BYTES);
	memcpy(buf + 16, &prog->geometry, GEOMETRY_BYTES);
	vta_le_put(buf + 32, 4, (uint32_t)prog->n_insns);
	vta_le_put(buf + 36, 4, (uint32_t)prog->n_segments);
	size_t pos = HEADER_BYTES;
	if (prog->n_insns)
		memcpy(buf + pos, prog->insns, prog->n_insns * insn_bytes);
	pos += prog->n_insns * insn_bytes;
	for (size_t i = 0; i < prog->n_segments; i++) {
		const vta_segment *s = &prog->segments[i];
		buf[pos] = (uint8_t)s->kind;
		buf[pos + 1] = buf[pos + 2] = buf[pos + 3] = 0;
		vta_le_put(buf + pos + 4, 4, s->size);
		vta_le_put(buf + pos + 8, 8, s->dram_addr);
		pos += SEGMENT_HEADER_BYTES;
		if (s->size)
			memcpy(buf + pos, s->bytes, s->size);
		pos += s->size;
	}
	*out = buf;
	*out_len = len;
	return VTA_OK;
}

int vta_program_is_binary(const uint8_t *buf, size_t len)
{
	return len >= sizeof(stream_magic) && memcmp(buf, stream_magic, sizeof(stream_magic)) == 0;
}

/* Fail unless n more bytes are left at pos. */
static vta_status need(size_t len, size_t pos, size_t n, const char *what, vta_error *err)
{
	if (pos <= len && len - pos >= n)
		return VTA_OK;
	return vta_fail(err, VTA_E_STREAM,
			"byte offset %zu: truncated %s (needs %zu bytes, %zu left)", pos, what, n,
			pos <= len ? len - pos : 0);
}

/* The fixed header: magic, version, geometry. */
static vta_status parse_header(const uint8_t *buf, size_t len, vta_geometry *geo,
			       vta_error *err)
{
	vta_status st;
	if ((st = need(len, 0, 8, "header (magic)", err)))
		return st;
	if (!vta_program_is_binary(buf, len))
		return vta_fail(err, VTA_E_STREAM, "byte offset 0: not a stream file (bad magic)");
	if ((st = need(len, 8, 8, "header (version, geometry size)", err)))
		return st;
	uint32_t version = vta_le32_get(buf + 8);
	if (version != STREAM_VERSION)
		return vta_fail(err, VTA_E_STREAM, "byte offset 8: stream version %u, expected %u",
				version, STREAM_VERSION);
	uint32_t gbytes = vta_le32_get(buf + 12);
	if (gbytes != GEOMETRY_BYTES)
		return vta_fail(err, VTA_E_STREAM,
				"byte offset 12: geometry size %u, expected %u", gbytes,
				GEOMETRY_BYTES);
	if ((st = need(len, 16, GEOMETRY_BYTES, "header (geometry)", err)))
		return st;
	memcpy(geo, buf + 16, GEOMETRY_BYTES);
	if (geo->encoding >= VTA_ENC_COUNT)
		return vta_fail(err, VTA_E_STREAM,
				"byte offset 26: stream encoding %u is not defined (0 vta128, 1 wide)",
				geo->encoding);
	for (unsigned i = 1; i < 6; i++)
		if (geo->reserved[i] != 0)
			return vta_fail(err, VTA_E_STREAM,
					"byte offset %u: geometry reserved byte is %u, not 0",
					26 + i, geo->reserved[i]);
	return VTA_OK;
}

/* A stream whose segments overlap is refused, as the assembler refuses its text. */
static vta_status check_overlap(const vta_program *p, vta_error *err)
{
	int found;
	size_t a, b;
	vta_status st = vta_program_overlap(p, &found, &a, &b, err);
	if (st || !found)
		return st;
	size_t at[2] = {0, 0};
	size_t pos = HEADER_BYTES + p->n_insns * vta_geometry_insn_bytes(&p->geometry);
	for (size_t i = 0; i <= b; i++) {
		if (i == a)
			at[0] = pos;
		if (i == b)
			at[1] = pos;
		pos += SEGMENT_HEADER_BYTES + p->segments[i].size;
	}
	const vta_segment *sa = &p->segments[a], *sb = &p->segments[b];
	return vta_fail(err, VTA_E_STREAM,
			"segment %zu (byte offset %zu): DRAM 0x%llx+%u overlaps segment %zu "
			"(byte offset %zu) at 0x%llx+%u",
			b, at[1], (unsigned long long)sb->dram_addr, sb->size, a, at[0],
			(unsigned long long)sa->dram_addr, sa->size);
}

static vta_status parse_body(const uint8_t *buf, size_t len, const vta_config *cfg,
			     vta_program *p, vta_error *err)
{
	vta_status st;
	vta_error sub = {0};
	if ((st = parse_header(buf, len, &p->geometry, err)))
		return st;
	if ((st = vta_geometry_check(cfg, &p->geometry, err)))
		return st;
	if ((st = need(len, 32, 8, "header (counts)", err)))
		return st;
	size_t n_insns = vta_le32_get(buf + 32), n_segs = vta_le32_get(buf + 36);
	size_t pos = HEADER_BYTES;
	/* the geometry matched the config's: the stream's encoding is the config's */
	const size_t insn_bytes = cfg->insn_bytes, uop_bytes = cfg->sram[VTA_MEM_UOP].elem_bytes;
	if (n_insns > (len - pos) / insn_bytes)
		return vta_fail(err, VTA_E_STREAM,
				"byte offset 32: %zu instructions need %zu bytes, only %zu left",
				n_insns, n_insns * insn_bytes, len - pos);
	if (n_insns) {
		p->insns = malloc(n_insns * insn_bytes);
		if (!p->insns)
			return vta_fail(err, VTA_E_NOMEM, "out of memory for %zu instructions",
					n_insns);
		p->cap_insns = n_insns;
	}
	for (size_t i = 0; i < n_insns; i++, pos += insn_bytes) {
		vta_insn insn;
		if (vta_insn_decode(cfg, buf + pos, &insn, &sub) != VTA_OK)
			return vta_fail(err, sub.status, "insn %zu (byte offset %zu): %s", i, pos,
					sub.detail);
		memcpy(p->insns + i * insn_bytes, buf + pos, insn_bytes);
		p->n_insns++;
	}
	if (n_segs > (len - pos) / SEGMENT_HEADER_BYTES)
		return vta_fail(err, VTA_E_STREAM,
				"byte offset 36: %zu segments need at least %zu bytes, only %zu "
				"left",
				n_segs, n_segs * SEGMENT_HEADER_BYTES, len - pos);
	for (size_t i = 0; i < n_segs; i++) {
		size_t at = pos;
		if ((st = need(len, pos, SEGMENT_HEADER_BYTES, "segment header", err)))
			return st;
		unsigned kind = buf[pos];
		if (kind != VTA_SEG_DATA && kind != VTA_SEG_UOP)
			return vta_fail(err, VTA_E_STREAM,
					"segment %zu (byte offset %zu): unknown kind %u (0 data, "
					"1 uop)",
					i, at, kind);
		if (buf[pos + 1] || buf[pos + 2] || buf[pos + 3])
			return vta_fail(err, VTA_E_STREAM,
					"segment %zu (byte offset %zu): reserved header bytes are "
					"not zero",
					i, at);
		uint32_t size = vta_le32_get(buf + pos + 4);
		uint64_t addr = vta_le64_get(buf + pos + 8);
		pos += SEGMENT_HEADER_BYTES;
		if (size > len - pos)
			return vta_fail(err, VTA_E_STREAM,
					"segment %zu (byte offset %zu): length %u runs past the end "
					"of the file (%zu bytes left)",
					i, at, size, len - pos);
		if (kind == VTA_SEG_UOP) {
			if (size % uop_bytes != 0)
				return vta_fail(err, VTA_E_STREAM,
						"segment %zu (byte offset %zu): uop segment length "
						"%u is not a multiple of %zu",
						i, at, size, uop_bytes);
			/* LOAD UOP addresses whole micro-ops, as the assembler's .uops does */
			if (addr % uop_bytes != 0)
				return vta_fail(err, VTA_E_STREAM,
						"segment %zu (byte offset %zu): uop segment address "
						"0x%llx is not a multiple of %zu",
						i, at, (unsigned long long)addr, uop_bytes);
			for (uint32_t k = 0; k < size / uop_bytes; k++) {
				vta_uop u;
				size_t upos = pos + (size_t)k * uop_bytes;
				if (vta_uop_decode(cfg, buf + upos, &u, &sub) != VTA_OK)
					return vta_fail(err, sub.status,
							"segment %zu uop %u (byte offset %zu): %s",
							i, k, upos, sub.detail);
			}
		}
		if ((st = vta_program_add_segment(p, (vta_segment_kind)kind, addr, buf + pos,
						  size, err)))
			return st;
		pos += size;
	}
	if (pos != len)
		return vta_fail(err, VTA_E_STREAM,
				"byte offset %zu: %zu trailing bytes after the last segment", pos,
				len - pos);
	return check_overlap(p, err);
}

vta_status vta_program_parse(const uint8_t *buf, size_t len, const vta_config *cfg,
			     vta_program *prog, vta_error *err)
{
	vta_program p;
	vta_program_init(&p, cfg);
	vta_status st = parse_body(buf, len, cfg, &p, err);
	if (st) {
		vta_program_free(&p);
		vta_program_init(prog, cfg);
		return st;
	}
	*prog = p;
	return VTA_OK;
}

/* ---------- files ---------- */

vta_status vta_write_file(const char *path, const void *bytes, size_t len, vta_error *err)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return vta_fail(err, VTA_E_IO, "%s: cannot create: %s", VTA_QPATH(path),
				strerror(errno));
	int bad = len > 0 && fwrite(bytes, 1, len, f) != len;
	bad |= fclose(f) != 0;
	if (bad)
		return vta_fail(err, VTA_E_IO, "%s: write error", VTA_QPATH(path));
	return VTA_OK;
}

vta_status vta_program_write(const vta_program *prog, const char *path, vta_error *err)
{
	uint8_t *buf;
	size_t len;
	vta_status st = vta_program_serialize(prog, &buf, &len, err);
	if (st)
		return st;
	st = vta_write_file(path, buf, len, err);
	free(buf);
	return st;
}

vta_status vta_program_read(const char *path, const vta_config *cfg, vta_program *prog,
			    vta_error *err)
{
	uint8_t *buf;
	size_t len;
	vta_program_init(prog, cfg); /* what a failed read leaves */
	vta_status st = vta_read_file(path, "program", VTA_LIMIT_PROGRAM, &buf, &len, err);
	if (st)
		return st;
	vta_error sub = {0};
	st = vta_program_parse(buf, len, cfg, prog, &sub);
	free(buf);
	if (st)
		return vta_fail(err, st, "%s: %s", VTA_QPATH(path), sub.detail);
	return VTA_OK;
}
