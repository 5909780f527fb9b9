; imm_src.s - ACC[0] = ACC[0] + 5 or ACC[1] + 5 by alu.imm_operand (dst, src): the one uop
; has dst 0 and src 1. Row 0 holds 0..15, row 1 100..115, so the stored row is 5..20
; (imm_dst.bin) with dst and 105..120 (imm_src.bin) with src, as VTA's HLS design and fsim,
; and its Chisel RTL compute.
; (tests/cli/CMakeLists.txt: vtasim exec --set alu.imm_operand=...)
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1
load   mem=acc sram=0 dram=0x80 y=1 x=2 stride=2
alu    op=add uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=5 deps=push_next
store  mem=out sram=0 dram=0x300 y=1 x=1 stride=1 deps=pop_prev,push_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=1 wgt=0

.data 0x2000
.word 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.word 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115
