; lut_long_table.s - lut_wgt.s (docs/examples) with its int8 LUT table loaded as one
; per-tensor table of 2052 entries (y=1 x=2052): longer than any 2-bit index reads, which
; the ISA allows (docs/isa.md "LUT decompression"). Every engine and datapath decodes it
; alike: the WGT lanes read entries 0..3 of the one table.
.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none                  ; compute
load   mem=lut sram=0 dram=0x5000 slot=0 y=1 x=2052 stride=2052 deps=none    ; load
load   mem=inp sram=0 dram=0x200 y=1 x=1 stride=1 deps=none                  ; load
load   mem=wgt sram=0 dram=0xc0 bw=2 slot=0 y=1 x=1 stride=1 chan=0 deps=push_next
load   mem=lut32 sram=2100 dram=0x1800 slot=1 y=1 x=4 stride=4 deps=none       ; compute
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
