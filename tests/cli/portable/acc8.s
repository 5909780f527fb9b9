; acc8.s - LOAD ACC_8BIT: in fsim only
; (tests/cli/CMakeLists.txt: vtasim asm/exec --portable)
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1
load   mem=acc8 sram=0 dram=0x80 y=1 x=4 stride=4
alu    op=shr uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=push_next
store  mem=out sram=0 dram=0x300 y=1 x=4 stride=4 deps=pop_prev,push_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0
