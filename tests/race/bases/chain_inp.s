; chain_inp.s - a correct stream whose second half reloads what its first half stored: the
; base of the DRAM LOAD/STORE mutants of the race corpus (tests/race/race_corpus.c).
;
; Compute copies ACC rows 0..3 (ALU SHR 0) into OUT; the STORE writes them to 0x4000 and
; pushes s2g; a compute NOP pops it and pushes g2l; the load module then loads the same
; bytes back as INP rows (pop g2l), pushes l2g after the weights, and a GEMM with an
; identity-like weight block and an ALU produce OUT again, stored at 0x5000 before FINISH.
.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1                                   ; compute
load   mem=acc sram=0 dram=0x80 y=1 x=4 stride=4                                    ; compute
alu    op=shr uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=push_next       ; OUT 0..3
store  mem=out sram=0 dram=0x400 y=1 x=4 stride=4 deps=pop_prev,push_prev           ; 0x4000
load   mem=uop sram=8 dram=0 y=0 x=0 stride=0 deps=pop_next,push_prev               ; NOP
load   mem=inp sram=0 dram=0x400 y=1 x=4 stride=4 deps=pop_next                     ; 0x4000
load   mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 deps=push_next
gemm   reset=1 uop=0,1 iter=1,4 dst=0,1 src=0,1 wgt=0,0
gemm   reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 wgt=0,0 deps=pop_prev
alu    op=shr uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=1 deps=push_next
store  mem=out sram=0 dram=0x500 y=1 x=4 stride=4 deps=pop_prev,push_prev           ; 0x5000
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0
