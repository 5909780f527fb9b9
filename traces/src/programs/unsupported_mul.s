; unsupported_mul.s - an ALU MUL on a config built without alu.mul (traces/src/configs/
; nomul.yaml): the executors refuse the op naming instruction 1.

.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none
alu    op=mul reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=3 deps=none
finish deps=none

.uops 0x1000
uop dst=0 src=0 wgt=0
