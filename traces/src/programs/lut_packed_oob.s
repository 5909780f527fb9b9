; lut_packed_oob.s - a decompressing WGT load whose packed index row (3-bit indices, 96
; bytes) starts near the end of the DRAM and runs past it: a truncated index string.
load mem=lut sram=0 dram=0x0 slot=1 y=1 x=4 stride=4 deps=none
load mem=wgt sram=0 dram=0x2aaaaa bw=3 slot=1 y=1 x=1 stride=1 chan=0 deps=push_next
finish deps=pop_prev
