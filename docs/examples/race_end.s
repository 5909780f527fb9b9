; race_end.s - a race the stream checks refuse (docs/isa.md "Happens-before and races"):
; a STORE that nothing orders before FINISH races with the end of the run.
;
; The run ends when FINISH executes, and FINISH does not wait for the STORE (the STORE
; pushes no s2g token, FINISH pops none): on the hardware "done" may come before the
; results reach DRAM. vtasim refuses the stream on every engine (exit status 1):
;
;   vtasim: warning: 1 token pushed into g2s left at FINISH (insn 4): compute insn 2 (alu
;           ...) pushes the first, and no pop ordered before FINISH takes it
;   vtasim: error: race with the end of the run: store insn 3 (store ...) writes dram bytes
;           [0x4000, 0x4040) and no token orders it before FINISH (insn 4): the run may end first
;
; (The STORE pops the ALU's g2s token, but since nothing orders the STORE before FINISH, the
; token may still be in its queue when the run ends: hence the warning.)
;
; The fix: deps=pop_prev,push_prev on the STORE and deps=pop_next on FINISH
; (docs/examples/gemm.s).
.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none
load   mem=acc sram=0 dram=0x80 y=1 x=4 stride=4 deps=none
alu    op=shr reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=push_next
store  mem=out sram=0 dram=0x400 y=1 x=4 stride=4 deps=pop_prev
finish deps=none

.uops 0x1000
uop dst=0 src=0 wgt=0

; ACC rows 0..3, 16 int32 lanes each
.data 0x2000
.word -50, -47, -44, -41, -38, -35, -32, -29, -26, -23, -20, -17, -14, -11, -8, -5
.word -2, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43
.word 46, 49, 52, 55, 58, 61, 64, 67, 70, 73, 76, 79, 82, 85, 88, 91
.word 94, 97, 100, 103, 106, 109, 112, 115, 118, 121, 124, 127, 130, 133, 136, 139
