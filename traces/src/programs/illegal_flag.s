; illegal_flag.s - a load-module instruction pops the previous-stage queue, which the load
; module does not have (a flag illegal for the module, refused before anything runs).

.text
load   mem=inp sram=0 dram=0x200 y=1 x=1 stride=1 deps=pop_prev
finish deps=none
