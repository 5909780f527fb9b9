; oob_dram.s - a LOAD whose DRAM rows run past the end of the DRAM (a runtime failure).
;
; The default DRAM is 256 MiB (0x10000000 bytes). INP elements are 16 bytes, so dram=0xffffff
; is the last element and a row of x=2 elements ends 16 bytes past the end. Both executors
; report an out-of-bounds DRAM read naming instruction 0.

.text
load   mem=inp sram=0 dram=0xffffff y=1 x=2 stride=2 deps=push_next
gemm   reset=0 uop=0,0 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev
finish deps=none
