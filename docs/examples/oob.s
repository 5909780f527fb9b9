; oob.s - a stream that assembles but accesses SRAM out of bounds (a runtime failure).
;
; On the default config the INP SRAM holds 2048 rows (0..2047). The LOAD writes
; y_size * x_size = 2 * 8 = 16 rows starting at row 2040, i.e. rows 2040..2055: the last
; 8 lie past the end. Every field fits its encoding, so the assembler accepts it; the
; executors report an out-of-bounds INP access naming instruction 0.

.text
load   mem=inp sram=2040 dram=0x200 y=2 x=8 stride=8 deps=push_next
gemm   reset=0 uop=0,0 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev
finish deps=none
