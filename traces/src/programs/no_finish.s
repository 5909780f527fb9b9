; no_finish.s - every instruction executes but the stream has no FINISH (a runtime failure).

.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none
gemm   reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=none

.uops 0x1000
uop dst=0 src=0 wgt=0
