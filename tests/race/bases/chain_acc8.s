; chain_acc8.s - a correct stream in which compute loads back, as ACC_8BIT, what a STORE
; wrote: the base of the compute-module LOAD vs STORE mutants of the race corpus
; (tests/race/race_corpus.c).
;
; ACC rows 0..3 go through an ALU into OUT and are stored at 0x4000 (g2s, then s2g back to
; compute); LOAD ACC_8BIT reads those bytes into ACC rows 8..11 after popping s2g; an ALU
; ADD of rows 8..11 into rows 0..3 writes OUT again, stored at 0x5000 before FINISH.
.text
load   mem=uop sram=0 dram=0x400 y=1 x=2 stride=2
load   mem=acc sram=0 dram=0x80 y=1 x=4 stride=4
alu    op=shr uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=push_next
store  mem=out sram=0 dram=0x400 y=1 x=4 stride=4 deps=pop_prev,push_prev           ; 0x4000
load   mem=acc8 sram=8 dram=0x400 y=1 x=4 stride=4 deps=pop_next                    ; 0x4000
alu    op=add uop=1,2 iter=1,4 dst=0,1 src=0,1 use_imm=0 deps=push_next
store  mem=out sram=0 dram=0x500 y=1 x=4 stride=4 deps=pop_prev,push_prev           ; 0x5000
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0
uop dst=0 src=8 wgt=0
