; hazard.s - two consecutive micro-ops of one GEMM write the same ACC row (a runtime failure).
;
; The pipeline needs timing.acc_dep_distance (2 in the default config) micro-ops between two
; writes of one ACC row; micro-ops 0 and 1 both write row 0, so the executors report an ACC
; write hazard at instruction 1.

.text
load   mem=uop sram=0 dram=0x400 y=1 x=2 stride=2 deps=none
gemm   reset=1 uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=none
finish deps=none

.uops 0x1000
uop dst=0 src=0 wgt=0
uop dst=0 src=1 wgt=0
