; uop_war.s - a correct stream whose STORE overwrites the micro-op kernel after LOAD UOP read
; it (the ALU's g2s token orders them): the base of the LOAD UOP vs STORE mutants of the
; race corpus (tests/race/race_corpus.c).
.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1                                   ; 0x1000
load   mem=acc sram=0 dram=0x80 y=1 x=4 stride=4
alu    op=shr uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=push_next
store  mem=out sram=0 dram=0x100 y=1 x=4 stride=4 deps=pop_prev,push_prev           ; 0x1000
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0
