/*
 * vta_config.h - the hardware configuration shared by isa/, runtime/ and sim/.
 *
 * A config is loaded from YAML (see docs/configs.md for every key; vta_config_keys.h holds
 * their table), validated, and then completed by vta_config_derive(): SRAM depths, element sizes and the bit width of every
 * instruction field follow from the architecture keys exactly as in VTA's hw_spec_const.h.
 * After derivation the struct is read-only for everyone.
 */
#ifndef VTA_CONFIG_H
#define VTA_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "vta_insn_layout.h"
#include "vta_mem.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The instruction encoding (docs/isa.md "Instruction formats" and "The wide encoding"):
 * VTA's 128-bit instructions with 32-bit micro-ops, or 256-bit instructions with 64-bit
 * micro-ops, whose layout gives every field the width its SRAM depth needs. */
typedef enum vta_encoding {
	VTA_ENC_VTA128 = 0,
	VTA_ENC_WIDE = 1,
	VTA_ENC_COUNT = 2
} vta_encoding;
/* "vta128" or "wide", as the config key writes it. */
const char *vta_encoding_name(uint32_t encoding);
/* Bytes of one instruction (16, 32) and of one micro-op (4, 8) in an encoding. */
uint32_t vta_encoding_insn_bytes(uint32_t encoding);
uint32_t vta_encoding_uop_bytes(uint32_t encoding);

/* Bit widths of every instruction and micro-op field, derived from the SRAM depths, and the
 * encoding whose layout places them. */
typedef struct vta_field_widths {
	unsigned encoding;      /* vta_encoding: which word each field goes in */
	unsigned insn_words;    /* 64-bit words per instruction: 2 or 4 */
	unsigned uop_word_bits; /* bits of a micro-op: 32 or 64 */
	/* common */
	unsigned opcode;        /* 3 */
	unsigned dep_flag;      /* 1 each, four of them */
	/* LOAD / STORE */
	unsigned memop_id;      /* 3: memory_type (its low bits, wide) */
	unsigned memop_id_high; /* wide: 1, memory_type's high bit, in word 2; vta128: 0 */
	unsigned memop_sram;    /* 16, must hold the deepest SRAM's indices */
	unsigned memop_dram;    /* 32 */
	unsigned memop_lut_bw;  /* 3: bits of a packed index, 0 for a plain load */
	unsigned memop_lut_slot; /* 3: the LUT decoder's table descriptor */
	unsigned memop_lut_chan; /* 16: in the pads' bits when lut_bw != 0 */
	unsigned memop_lut_run;  /* wide: 16, in word 2; vta128: 0 (no multi-block loads) */
	unsigned memop_lut_group;  /* wide: 8, in word 2; vta128: 0 (no zero-lane fill) */
	unsigned memop_lut_period; /* wide: 16, in word 2; vta128: 0 */
	unsigned memop_size;    /* 16, y_size and x_size */
	unsigned memop_stride;  /* 16 */
	unsigned memop_pad;     /* 4, each of the four pads */
	/* GEMM / ALU */
	unsigned reset;         /* 1 */
	unsigned uop_bgn;       /* log2(uop field depth): isa.uop_field_depth or the UOP SRAM's */
	unsigned uop_end;       /* that + 1 */
	unsigned loop_iter;     /* 14; wide: enough to walk the deepest SRAM row by row */
	unsigned gemm_dst_factor; /* log2(acc depth) */
	unsigned gemm_src_factor; /* log2(inp depth) */
	unsigned gemm_wgt_factor; /* log2(wgt depth) */
	unsigned alu_dst_factor;  /* log2(acc depth) */
	unsigned alu_src_factor;  /* log2(acc depth) */
	unsigned alu_opcode;    /* 3 */
	unsigned alu_use_imm;   /* 1 */
	unsigned alu_imm;       /* 16, signed */
	/* micro-op */
	unsigned uop_dst;       /* log2(acc depth) */
	unsigned uop_src;       /* max(log2(acc depth), log2(inp depth)) */
	unsigned uop_wgt;       /* log2(wgt depth) */
	/* bits used in instruction words 0 and 1 (fields never straddle words) and by a uop */
	unsigned mem_word0_bits, mem_word1_bits;
	unsigned gemm_word0_bits, gemm_word1_bits;
	unsigned alu_word1_bits;
	unsigned uop_bits;
} vta_field_widths;

/* The ACC row an ALU uop with an immediate takes its first operand from (alu.imm_operand):
 * its destination, ACC[dst] = op(ACC[dst], imm), as VTA's HLS design and fsim compute; or
 * its source, ACC[dst] = op(ACC[src], imm), as VTA's Chisel RTL does. */
typedef enum vta_imm_operand { VTA_IMM_OPERAND_DST = 0, VTA_IMM_OPERAND_SRC = 1 } vta_imm_operand;
/* "dst" or "src", as the config key writes it. */
const char *vta_imm_operand_name(uint32_t operand);

/* The model's datapath: its own C functions, or the verilated RTL units clocked inside it. */
typedef enum vta_datapath { VTA_DATAPATH_C, VTA_DATAPATH_RTL } vta_datapath;
/* "c" or "rtl", as the config key writes it. */
const char *vta_datapath_name(uint32_t datapath);

/* The most bursts the DRAM model keeps in flight per direction (dram.max_read_bursts,
 * dram.max_write_bursts): VTA's RTL has 16 read tags; this bounds the model's rings. */
#define VTA_MAX_BURSTS_IN_FLIGHT 256

/* When FETCH hands a burst's instructions to the modules (timing.fetch_dispatch). */
typedef enum vta_fetch_dispatch {
	VTA_FETCH_STREAM = 0, /* each as it arrives; the next burst once this one has arrived */
	VTA_FETCH_BURST,      /* one per cycle once the whole burst has arrived; the next
			       * burst once all are dispatched (VTA's Chisel Fetch64Bit) */
} vta_fetch_dispatch;

/* One SRAM of the config: its size key's value and what vta_config_derive makes of it. */
typedef struct vta_sram_geometry {
	uint32_t kib;        /* sram_kib.NAME; 0 for an SRAM no key sizes (OUT) */
	/* ----- derived by vta_config_derive() ----- */
	uint32_t elem_bytes; /* one row */
	uint64_t bytes;      /* capacity */
	uint32_t depth;      /* rows */
	unsigned log_depth;
} vta_sram_geometry;

typedef struct vta_config {
	char name[64];
	double clock_mhz;

	/* arch: VTA's LOG_* parameters (widths are bits, powers of two) */
	unsigned log_batch, log_block_in, log_block_out;
	unsigned inp_bits, wgt_bits, acc_bits;

	/* the SRAMs by vta_mem (VTA_MEM_UOP .. VTA_MEM_OUT): each sized SRAM's kib is its key
	 * (vta_mem_info.size_key), the rest is derived; OUT has ACC's depth, as in VTA */
	vta_sram_geometry sram[VTA_SRAM_COUNT];

	/* the instruction encoding: vta_encoding */
	uint32_t isa_encoding;
	/* micro-ops the GEMM/ALU uop_bgn/uop_end fields are sized for: 0 for the UOP SRAM's
	 * depth, or more (a design whose decoder has wider fields than its SRAM needs) */
	uint32_t isa_uop_field_depth;

	/* queues: instruction queue depth per module, dependency token queue depth */
	uint32_t insn_depth, dep_depth;

	/* DRAM model: an AXI-like port, a read and a write channel (docs/architecture.md) */
	uint32_t dram_bus_bits;       /* bytes per cycle = bus_bits / 8 */
	uint32_t dram_latency_cycles; /* request to first data; last written beat to response */
	uint32_t dram_max_burst_bytes;
	uint32_t dram_burst_boundary_bytes; /* no burst crosses a multiple of this */
	uint32_t dram_max_read_bursts;      /* read bursts in flight, all clients together */
	uint32_t dram_max_write_bursts;     /* write bursts awaiting their response */
	uint32_t dram_write_ack_cycles;     /* a write burst's handshakes beyond beats, latency */
	uint32_t dram_read_pipeline_cycles; /* a read's last beat to its data in SRAM */
	uint32_t dram_size_mib;       /* size of the simulated DRAM address space */

	/* ALU features */
	bool alu_mul;        /* ALU op MUL (not in every VTA build) */
	bool alu_tflite_ext; /* ALU ops SRDHM and RSHR for TFLite requantization */
	uint32_t alu_imm_operand; /* vta_imm_operand */

	/* LUT decompressor in the LOAD path */
	bool decomp_enabled;
	uint32_t decomp_indices_per_cycle;
	uint32_t decomp_table_kib; /* table memory of 32-bit entries */
	bool decomp_multi_block;   /* a decompressing load may span channel blocks (lut_run) */
	bool decomp_zero_fill;     /* a WGT load may hold only its groups' lanes (lut_group) */

	/* timing knobs (cycles) */
	uint32_t gemm_ii;              /* cycles per GEMM uop */
	uint32_t alu_ii;               /* cycles per tensor-tensor ALU uop */
	uint32_t alu_imm_ii;           /* cycles per ALU-immediate uop */
	uint32_t insn_overhead_cycles; /* fixed cost of every instruction */
	uint32_t pipeline_fill_cycles; /* GEMM/ALU pipeline fill per instruction */
	uint32_t launch_cycles;        /* a run's fixed cost: launch and FINISH handshakes */
	uint32_t fetch_dispatch;       /* vta_fetch_dispatch */
	uint32_t store_read_cycles;    /* STORE: OUT read between two elements of a burst */
	uint32_t pad_elem_cycles;      /* a LOAD's SRAM write of one zero-padded element */
	uint32_t acc_dep_distance;     /* uops between two writes of one ACC row */
	uint64_t cycle_budget;         /* a run longer than this without FINISH fails */
	uint64_t uop_budget;           /* a run executing more GEMM/ALU uops than this fails */
	uint64_t insn_budget;          /* instructions at this index or beyond fail */
	double host_seconds;           /* a run taking longer on the host fails; 0: no limit */

	/* what computes GEMM/ALU and decodes LUT loads in the model (docs/rtl.md) */
	uint32_t datapath; /* vta_datapath */

	/* energy per action, pJ (docs/energy.md; vta_energy.h prices a run's statistics) */
	double e_dram_read_pj_byte, e_dram_write_pj_byte;
	double e_sram_pj_8kib, e_sram_pj_32kib, e_sram_pj_1mib; /* one 64-bit access */
	double e_sram_write_factor;   /* a write against a read of the same width */
	double e_mac_pj, e_alu_op_pj; /* a GEMM MAC; an ALU lane operation */
	double e_insn_pj_64b;         /* 64 bits of an instruction into or out of a queue */
	double e_lut_index_pj;        /* picking one index out of a packed row */
	double e_leak_pj_kib_cycle;   /* SRAM leakage */
	/* area (docs/energy.md): um^2 */
	double a_sram_cell_um2, a_sram_efficiency, a_mac_um2, a_alu_add_um2, a_alu_mul_um2;

	/* ----- derived by vta_config_derive() ----- */
	unsigned batch, block_in, block_out, out_bits;
	uint32_t insn_bytes; /* one instruction in the stream: 16 (vta128) or 32 (wide) */
	uint32_t lut_depth; /* entries of the decoder's table memory */
	/* log2 of the micro-op range the uop_bgn/uop_end fields address: isa.uop_field_depth,
	 * or the UOP SRAM's depth; a stream file's geometry records it as its UOP depth */
	unsigned log_uop_field_depth;
	vta_field_widths fw;
	vta_insn_layout layout; /* the field tables placed for fw (vta_insn_layout.h) */
} vta_config;

/* Fill cfg with VTA's default (Pynq-like 1x16x16, see configs/default.yaml) and derive. */
void vta_config_default(vta_config *cfg);

/* Validate the architecture keys and compute every derived value. Errors name the key. */
vta_status vta_config_derive(vta_config *cfg, vta_error *err);

/* Load a YAML file: defaults, then the file's keys, then validation and derivation.
 * Errors are "FILE:LINE:COL: problem" with VTA_E_PARSE or VTA_E_CONFIG. */
vta_status vta_config_load(const char *path, vta_config *cfg, vta_error *err);

/* Set one key by its YAML name ("dram.latency_cycles") from text ("128"), with the YAML
 * reader's checks and messages, then re-derive. On failure cfg is unchanged; VTA_E_CONFIG. */
vta_status vta_config_set(vta_config *cfg, const char *key, const char *value, vta_error *err);

/* Same value in every key but the name: configs that build the same hardware model. */
bool vta_config_same(const vta_config *a, const vta_config *b);

/* Bytes of one element of a memory type in DRAM, from its row of the memory table (ACC_8BIT:
 * acc lanes of inp_bits; LUT: 1, LUT32: 4, one table entry; an SRAM's: one row of it). A
 * decompressing load's element is packed: vta_load_elem_bytes. */
uint32_t vta_config_dram_elem_bytes(const vta_config *cfg, vta_mem mem);

/* Lanes of one element of a memory type (rows x lanes of its geometry: INP batch x
 * block_in, WGT block_out x block_in, ...; UOP 1, the micro-op) and the bits of each lane. */
uint32_t vta_config_elem_lanes(const vta_config *cfg, vta_mem mem);
uint32_t vta_config_lane_bits(const vta_config *cfg, vta_mem mem);

/* Depth (rows) of the SRAM a memory type targets (ACC_8BIT -> ACC; LUT, LUT32 -> the
 * decoder's table memory, in entries). */
uint32_t vta_config_sram_depth(const vta_config *cfg, vta_mem mem);

/* floor(log2(v)), 0 for v <= 1: the log2 of the config's power-of-two sizes. */
unsigned vta_log2(uint64_t v);

#ifdef __cplusplus
}
#endif

#endif /* VTA_CONFIG_H */
