; A racy stream: the GEMM reads the WGT block and INP row the load module loads, with no
; l2g token between them. The reference executor's schedule runs the loads first (each round
; runs load, then compute). In the model the GEMM ends at cycle 144, before the WGT load's
; data arrives at 168, and accumulates zeros; FINISH retires at 218, while the INP load is
; still on its way. `exec --engine both --no-check-races` finds INP row 0 lane 0 (reference 3,
; model 0) first, then ACC and OUT row 0 lane 0 (6 against 0) and the stored byte at DRAM
; 0x4000; without --no-check-races the stream checks refuse it first (race on INP row 0).
.uops 0x1000
uop dst=0 src=0 wgt=0
.data 0x2000
.byte 2
.data 0x3000
.byte 3
.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1
load   mem=wgt sram=0 dram=0x20 y=1 x=1 stride=1
load   mem=inp sram=0 dram=0x300 y=1 x=1 stride=1
gemm   reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=push_next
store  mem=out sram=0 dram=0x400 y=1 x=1 stride=1 deps=pop_prev,push_prev
finish deps=pop_next
