load mem=inp sram=0 dram=0 y=1 x=1 stride=1 deps=pop_prev
finish
