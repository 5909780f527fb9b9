; a data segment written over the micro-op kernel: the assembler refuses it
.text
finish
.uops 0x1000
uop dst=0 src=0
uop dst=1 src=1
.data 0x1004
.byte 1, 2, 3
