; warn_finish.s - a correct stream with two things the stream checks warn about
; (docs/isa.md "Happens-before and races"), on stderr, exit status 0 (1 with --strict):
;
;   vtasim: warning: insn 5 (load ...) comes after FINISH (insn 4): the run ends at
;           FINISH, so it may never execute
;   vtasim: warning: 1 token pushed into g2l left at FINISH (insn 4): compute insn 2 (alu
;           ...) pushes the first, and no pop ordered before FINISH takes it
;
; The ALU hands a g2l token to the load module, which never takes it; the load NOP after
; FINISH may or may not run. Neither changes a result here, but a token left in a queue is
; still there for whatever runs next, and an instruction after FINISH is usually a mistake.
.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none
load   mem=acc sram=0 dram=0x80 y=1 x=4 stride=4 deps=none
alu    op=shr reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=push_prev,push_next
store  mem=out sram=0 dram=0x400 y=1 x=4 stride=4 deps=pop_prev,push_prev
finish deps=pop_next
load   mem=inp sram=0 dram=0x0 y=0 x=0 stride=0 deps=none                   ; after FINISH

.uops 0x1000
uop dst=0 src=0 wgt=0

; ACC rows 0..3, 16 int32 lanes each
.data 0x2000
.word -50, -47, -44, -41, -38, -35, -32, -29, -26, -23, -20, -17, -14, -11, -8, -5
.word -2, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43
.word 46, 49, 52, 55, 58, 61, 64, 67, 70, 73, 76, 79, 82, 85, 88, 91
.word 94, 97, 100, 103, 106, 109, 112, 115, 118, 121, 124, 127, 130, 133, 136, 139
