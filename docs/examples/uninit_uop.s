; uninit_uop.s - a read the stream checks refuse (docs/isa.md "Happens-before and races"):
; a GEMM over micro-ops no LOAD UOP has put in the UOP SRAM.
;
; The UOP SRAM starts zeroed, so both micro-ops read as dst=0 src=0 wgt=0. Left to the
; engines, the reset would write ACC row 0 twice in a row and fail as an ACC write hazard,
; which misses the point. vtasim names the unloaded micro-ops first (exit status 1):
;
;   vtasim: error: insn 0 (gemm ...) reads uop row 0, which nothing ordered before it
;           writes in this run (2 such rows): no LOAD UOP put a micro-op there
;
; The fix: load mem=uop sram=0 dram=0x400 y=1 x=2 stride=2 before the GEMM.
.text
gemm   reset=1 uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=none
finish deps=none

.uops 0x1000
uop dst=0 src=0 wgt=0
uop dst=1 src=1 wgt=0
