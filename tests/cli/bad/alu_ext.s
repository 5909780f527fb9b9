; SRDHM on a config without the TFLite ALU ops
.text
alu op=srdhm reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=3 deps=none
finish
