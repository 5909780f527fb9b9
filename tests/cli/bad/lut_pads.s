load mem=inp sram=0 dram=0x0 bw=2 slot=0 y=1 x=1 stride=1 xpad=1,1 deps=none
finish
