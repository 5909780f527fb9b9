; race_dram.s - a race the stream checks refuse (docs/isa.md "Happens-before and races"):
; the load module reads DRAM bytes a STORE writes, with no chain of tokens from the STORE
; to the LOAD.
;
; Compute copies ACC rows 0..3 into OUT, the STORE writes them to 0x4000, and a LOAD reads
; them back as INP rows. The STORE pushes s2g and FINISH pops it, but nothing orders the
; LOAD after the STORE: the load module may read 0x4000 before the bytes are there. vtasim
; refuses the stream on every engine (exit status 1):
;
;   vtasim: error: race (RAW) on dram bytes [0x4000, 0x4040): store insn 3 (store ...)
;           writes, load insn 4 (load ...) reads, and no token orders them
;
; The fix is a chain store -> compute -> load: a compute NOP (load mem=uop ... x=0) with
; deps=pop_next,push_prev after the STORE, and deps=pop_next on the LOAD
; (tests/race/bases/chain_inp.s).
.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none
load   mem=acc sram=0 dram=0x80 y=1 x=4 stride=4 deps=none
alu    op=shr reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=push_next
store  mem=out sram=0 dram=0x400 y=1 x=4 stride=4 deps=pop_prev,push_prev   ; 0x4000
load   mem=inp sram=0 dram=0x400 y=1 x=4 stride=4 deps=push_next            ; 0x4000
finish deps=pop_prev,pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0

; ACC rows 0..3, 16 int32 lanes each
.data 0x2000
.word -50, -47, -44, -41, -38, -35, -32, -29, -26, -23, -20, -17, -14, -11, -8, -5
.word -2, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43
.word 46, 49, 52, 55, 58, 61, 64, 67, 70, 73, 76, 79, 82, 85, 88, 91
.word 94, 97, 100, 103, 106, 109, 112, 115, 118, 121, 124, 127, 130, 133, 136, 139
