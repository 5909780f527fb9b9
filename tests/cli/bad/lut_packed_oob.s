load mem=lut sram=0 dram=0x0 slot=1 y=1 x=4 stride=4 deps=none
load mem=wgt sram=0 dram=0x2aaaaa bw=3 slot=1 y=1 x=1 stride=1 chan=0 deps=push_next
finish deps=pop_prev
