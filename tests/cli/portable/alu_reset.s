; alu_reset.s - an ALU with reset=1: every VTA ignores the bit
; (tests/cli/CMakeLists.txt: vtasim asm/exec --portable)
load   mem=uop sram=0 dram=0x400 y=1 x=2 stride=2
load   mem=acc sram=0 dram=0x80 y=1 x=8 stride=8
alu    op=add reset=1 uop=1,2 iter=1,4 dst=0,1 src=0,1 use_imm=0 deps=push_next
store  mem=out sram=0 dram=0x300 y=1 x=4 stride=4 deps=pop_prev,push_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0
uop dst=0 src=4 wgt=0
