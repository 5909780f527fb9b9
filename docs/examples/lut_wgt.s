; lut_wgt.s - a GEMM whose weights and bias come through the LUT decoder (default config,
; 1x16x16; docs/isa.md "LUT decompression").
;
; The 16x16 weight block is stored as 2-bit indices, 16 lanes x 2 bits = 4 bytes per output
; row, 64 bytes in all, decoded through 16 per-channel int8 tables of 4 entries (one per
; output channel: WGT lane L of row o uses table o). The bias is stored as 2-bit indices
; into one per-tensor int32 table and decoded straight into ACC. Then
; OUT[o] = clip((bias[o] + sum_k INP[k] * WGT[o][k]) >> 2, 0, 127).
;
; DRAM (byte addresses; dram= counts elements of the memory type, packed ones included):
;   0x1000  1 micro-op                      (uop 4 B:           dram=0x400)
;   0x2000  1 INP row of 16 int8            (inp 16 B:          dram=0x200)
;   0x3000  WGT indices, 64 bytes           (wgt, 2-bit: 64 B:  dram=0xc0)
;   0x5000  16 int8 tables of 4 entries     (lut 1 B:           dram=0x5000)
;   0x6000  one int32 table of 4 entries    (lut32 4 B:         dram=0x1800)
;   0x7000  ACC indices, 4 bytes            (acc, 2-bit: 4 B:   dram=0x1c00)
;   0x4000  1 OUT row of 16 int8            (out 16 B:          dram=0x400), written by STORE
;
; Index strings are read most-significant bit first: byte 0x1b is indices 0, 1, 2, 3 and
; 0xe4 is 3, 2, 1, 0. Table memory: entries 0..63 hold the int8 tables (slot 0), 64..67 the
; int32 one (slot 1). lut tables are loaded by the load module (they feed WGT), lut32 ones
; by the compute module (they feed ACC), each before the load that uses them.
;
; Expected ACC: -1 117 -75 1004 12 130 -101 1017 25 104 -88 1030 -1 117 -75 1004
; Expected OUT at 0x4000 (int8): 0 29 0 127 3 32 0 127 6 26 0 127 0 29 0 127

.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none                  ; compute
load   mem=lut sram=0 dram=0x5000 slot=0 y=16 x=4 stride=4 deps=none         ; load
load   mem=inp sram=0 dram=0x200 y=1 x=1 stride=1 deps=none                  ; load
load   mem=wgt sram=0 dram=0xc0 bw=2 slot=0 y=1 x=1 stride=1 chan=0 deps=push_next
load   mem=lut32 sram=64 dram=0x1800 slot=1 y=1 x=4 stride=4 deps=none       ; compute
load   mem=acc sram=0 dram=0x1c00 bw=2 slot=1 y=1 x=1 stride=1 chan=0 deps=none
gemm   reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev        ; wait for WGT
alu    op=shr reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=2 deps=none
alu    op=max reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=0 deps=none
alu    op=min reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=127 deps=push_next
store  mem=out sram=0 dram=0x400 y=1 x=1 stride=1 deps=pop_prev,push_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0

.data 0x2000
.byte 3, -1, 4, 1, -5, 9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 3

; WGT indices: every output row is 0 1 2 3 3 2 1 0 0 1 2 3 3 2 1 0
.data 0x3000
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4
.byte 0x1b, 0xe4, 0x1b, 0xe4

; table o (output channel o): entries for indices 0..3
.data 0x5000
.byte -3, -1, 1, 2
.byte -2, -1, 1, 3
.byte -3, -1, 1, 4
.byte -2, -1, 1, 2
.byte -3, -1, 1, 3
.byte -2, -1, 1, 4
.byte -3, -1, 1, 2
.byte -2, -1, 1, 3
.byte -3, -1, 1, 4
.byte -2, -1, 1, 2
.byte -3, -1, 1, 3
.byte -2, -1, 1, 4
.byte -3, -1, 1, 2
.byte -2, -1, 1, 3
.byte -3, -1, 1, 4
.byte -2, -1, 1, 2

; the bias table
.data 0x6000
.word 0, 100, -100, 1000

; bias indices: 0 1 2 3 for each group of four channels
.data 0x7000
.byte 0x1b, 0x1b, 0x1b, 0x1b
