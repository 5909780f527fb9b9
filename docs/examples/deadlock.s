; deadlock.s - a stream that assembles but can never finish (a runtime failure).
;
; The GEMM pops an l2g token (pop_prev: "the load module has filled INP/WGT"), but the
; only load-module instruction never pushes one (no push_next). COMPUTE waits forever at
; instruction 3 and FINISH behind it never runs: the executors report a deadlock naming
; the GEMM and the l2g queue it waits on.

.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none
load   mem=inp sram=0 dram=0x200 y=1 x=1 stride=1 deps=none       ; forgot push_next
load   mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 deps=none
gemm   reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev ; waits for l2g
finish deps=none

.uops 0x1000
uop dst=0 src=0 wgt=0
