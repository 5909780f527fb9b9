load mem=lut sram=0 dram=0x0 slot=1 y=1 x=4 stride=4 deps=none
load mem=inp sram=0 dram=0x100 bw=3 slot=1 y=1 x=1 stride=1 chan=0 deps=push_next
finish deps=pop_prev
.data 0x600
.byte 0xe0
