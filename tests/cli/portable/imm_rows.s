; imm_rows.s - an ALU immediate op whose uop reads src 4 for dst 0: VTA's Chisel RTL adds to row 4
; (tests/cli/CMakeLists.txt: vtasim asm/exec --portable)
load   mem=uop sram=0 dram=0x400 y=1 x=2 stride=2
load   mem=acc sram=0 dram=0x80 y=1 x=8 stride=8
alu    op=add uop=1,2 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=5 deps=push_next
store  mem=out sram=0 dram=0x300 y=1 x=4 stride=4 deps=pop_prev,push_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0
uop dst=0 src=4 wgt=0
