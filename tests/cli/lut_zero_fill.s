; lut_zero_fill.s - zero-lane fill (wide encoding, decompressor.zero_fill; docs/isa.md
; "Zero-lane fill"): WGT row 0 is a depthwise row (group=1 period=1: output lane o's one real
; input lane is o mod 16), rows 1 and 2 come from one multi-block load of groups of 4 input
; lanes shared by 2 output channels (group=4 period=2), row 2 through tables 32..47. DRAM holds
; only the real indices (4 and 16 bytes per row); the decoder writes the other lanes 0. A
; GEMM resets ACC, a second multiplies one INP row by the three rows; OUT holds the low bytes
; of the ACC rows, which lut_zero_fill.out holds as computed independently from the tables
; and indices.

.text
load   mem=uop sram=0 dram=0x200 y=1 x=3 stride=3 deps=none
load   mem=lut sram=0 dram=0x5000 slot=0 y=48 x=4 stride=4 deps=none
load   mem=inp sram=0 dram=0x200 y=1 x=1 stride=1 deps=none
load   mem=wgt sram=0 dram=0xc00 bw=2 slot=0 y=1 x=1 stride=1 chan=0 group=1 period=1 deps=none
load   mem=wgt sram=1 dram=0x310 bw=2 slot=0 y=2 x=1 stride=1 chan=16 run=1 group=4 period=2 deps=push_next
gemm   reset=1 uop=0,3 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev
gemm   reset=0 uop=0,3 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=push_next
store  mem=out sram=0 dram=0x400 y=1 x=3 stride=3 deps=pop_prev,push_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0
uop dst=1 src=0 wgt=1
uop dst=2 src=0 wgt=2

.data 0x2000
.byte 8, 0, -9, -3, -1, -8, 3, 3, -5, -7, 5, -9, 7, -2, -9, -7

; row 0: 16 2-bit indices, one per output lane
.data 0x3000
.byte 0x3c, 0xc4, 0xd1, 0x38

; rows 1 and 2: 64 2-bit indices each, output lane o's four at lanes 4o..4o+3
.data 0x3100
.byte 0x27, 0xbf, 0x11, 0x00, 0x98, 0xed, 0x03, 0xa3, 0x60, 0xf6, 0xb0, 0x72, 0x7b, 0x59, 0xa0, 0x12
.byte 0xd5, 0x50, 0x84, 0x2c, 0x66, 0x24, 0x6d, 0x15, 0x66, 0x1d, 0xbe, 0x0c, 0x7f, 0x63, 0xd5, 0x0b

; table c: entries for indices 0..3
.data 0x5000
.byte -2, 5, 4, 2
.byte 1, 4, -3, 2
.byte -4, -1, 5, 0
.byte 2, 5, -3, 0
.byte 4, -3, 5, 3
.byte 0, -2, 0, 0
.byte 0, 4, -3, -2
.byte -1, 1, -3, -4
.byte 2, 4, 0, -2
.byte 4, -2, 3, 1
.byte 4, 3, 1, 4
.byte 1, -3, -4, -3
.byte 3, 3, 0, 3
.byte 0, 5, 0, -2
.byte -2, -2, 4, 0
.byte 2, -1, -1, 3
.byte 1, 2, 5, 0
.byte 4, 2, 2, 0
.byte 3, 1, 0, 4
.byte -2, -2, 0, 4
.byte 1, -4, -1, -3
.byte 1, 4, -4, 5
.byte 4, 0, 2, 4
.byte -4, 3, -4, -2
.byte 5, 3, 5, 1
.byte 0, 3, 4, -2
.byte -2, 2, 4, -3
.byte 1, -4, -1, 2
.byte 5, 3, -4, -2
.byte 2, -3, 2, -1
.byte 0, 0, 5, -4
.byte 1, 1, -4, 3
.byte 3, -3, 1, 3
.byte 3, 5, -2, -3
.byte -1, 1, 3, 2
.byte -3, -1, -1, 3
.byte -3, -3, 2, -3
.byte -2, -2, 4, 1
.byte -4, 5, -2, 1
.byte 4, 4, 0, -1
.byte 5, 1, -2, 5
.byte -1, -1, 5, 5
.byte -2, -2, 3, -3
.byte 5, -1, 1, 4
.byte -2, -1, -2, 0
.byte 2, -1, 0, -4
.byte 2, 0, -4, 2
.byte 0, -3, 3, 0
