; load_out.s - a LOAD of memory type OUT, which encodes but is illegal when executed: OUT is
; written by GEMM/ALU and read by STORE. A malformed stream: exit status 2.

.text
load   mem=out sram=0 dram=0x200 y=1 x=1 stride=1 deps=none
finish deps=none
