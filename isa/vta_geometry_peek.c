/*
 * vta_geometry_peek.c - read a stream file's geometry without a config, and build the
 * config it implies, so `vtasim disasm` works on a stream file alone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vta_file.h"
#include "vta_program.h"

#define GEOMETRY_OFFSET 16 /* magic 8, version 4, geometry size 4 */

vta_status vta_geometry_read_file(const char *path, vta_geometry *geo, vta_error *err)
{
	FILE *f;
	uint64_t size;
	vta_status st = vta_file_open(path, "program", VTA_LIMIT_PROGRAM, &f, &size, err);
	if (st)
		return st;
	uint8_t head[GEOMETRY_OFFSET + sizeof(*geo)];
	size_t n = fread(head, 1, sizeof(head), f);
	fclose(f);
	if (n < sizeof(head) || !vta_program_is_binary(head, n))
		return vta_fail(err, VTA_E_STREAM, "%s: not a vtasim stream file (bad magic or "
						   "truncated header)", path);
	memcpy(geo, head + GEOMETRY_OFFSET, sizeof(*geo));
	return VTA_OK;
}

vta_status vta_config_from_geometry(const vta_geometry *geo, vta_config *cfg, vta_error *err)
{
	vta_config_default(cfg);
	if (geo->log_batch > 4 || geo->log_block_in > 7 || geo->log_block_out > 7 ||
	    geo->inp_bits > 6 || geo->wgt_bits > 6 || geo->acc_bits > 6 || geo->log_uop_depth > 16 ||
	    geo->log_inp_depth > 16 || geo->log_wgt_depth > 16 || geo->log_acc_depth > 16 ||
	    geo->encoding >= VTA_ENC_COUNT)
		return vta_fail(err, VTA_E_STREAM, "stream geometry out of range");
	cfg->isa_encoding = geo->encoding;
	cfg->log_batch = geo->log_batch;
	cfg->log_block_in = geo->log_block_in;
	cfg->log_block_out = geo->log_block_out;
	cfg->inp_bits = 1u << geo->inp_bits;
	cfg->wgt_bits = 1u << geo->wgt_bits;
	cfg->acc_bits = 1u << geo->acc_bits;
	uint64_t batch = 1u << geo->log_batch, bi = 1u << geo->log_block_in,
		 bo = 1u << geo->log_block_out;
	uint64_t uop = (uint64_t)vta_geometry_uop_bytes(geo) << geo->log_uop_depth;
	uint64_t inp = (batch * bi * cfg->inp_bits / 8) << geo->log_inp_depth;
	uint64_t wgt = (bo * bi * cfg->wgt_bits / 8) << geo->log_wgt_depth;
	uint64_t acc = (batch * bo * cfg->acc_bits / 8) << geo->log_acc_depth;
	if (uop % 1024 || inp % 1024 || wgt % 1024 || acc % 1024)
		return vta_fail(err, VTA_E_STREAM,
				"stream geometry implies SRAM sizes that are not whole KiB; pass -c "
				"CONFIG");
	cfg->sram[VTA_MEM_UOP].kib = (uint32_t)(uop / 1024);
	cfg->sram[VTA_MEM_INP].kib = (uint32_t)(inp / 1024);
	cfg->sram[VTA_MEM_WGT].kib = (uint32_t)(wgt / 1024);
	cfg->sram[VTA_MEM_ACC].kib = (uint32_t)(acc / 1024);
	snprintf(cfg->name, sizeof(cfg->name), "%s", "from-stream-geometry");
	vta_error derr = {0};
	if (vta_config_derive(cfg, &derr))
		return vta_fail(err, VTA_E_STREAM, "stream geometry is not a valid config: %s",
				derr.detail);
	return VTA_OK;
}
