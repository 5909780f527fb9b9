load mem=lut sram=8190 dram=0x0 slot=0 y=1 x=4 stride=4 deps=none
finish
