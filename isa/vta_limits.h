/*
 * vta_limits.h - the fixed limits of the ISA that are not config keys: the LUT decoder's
 * index widths, table strides and descriptors (docs/isa.md "LUT decompression"), and the
 * largest ACC write-after-write window (timing.acc_dep_distance). Everything that checks,
 * sizes an array by, or prints one of these limits uses its name here: the rules, the
 * reference executor, the stream builder, the LUT compressor, the SystemC model, the RTL
 * models (whose Verilog ports a test holds to these values) and the messages.
 */
#ifndef VTA_LIMITS_H
#define VTA_LIMITS_H

/* The widest LUT index: lut_bw is a 3-bit field (0 is a plain load), and TFLM's LUT
 * compression allows 1..7 bits too. */
#define VTA_LUT_MAX_BITWIDTH 7
/* Entries per channel value table: TFLM's kMaxValueTableChannelStride, the RTL decoder's
 * 8-bit stride register. */
#define VTA_LUT_MAX_STRIDE 128
/* The table descriptors of the decoder (lut_slot 0..VTA_LUT_SLOTS - 1). */
#define VTA_LUT_SLOTS 8

/* The largest timing.acc_dep_distance: the hazard checks keep a ring of this many ACC rows. */
#define VTA_ACC_HAZARD_MAX 64

#endif /* VTA_LIMITS_H */
