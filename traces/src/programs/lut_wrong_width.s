; lut_wrong_width.s - slot 3 holds int8 (lut) tables, and an ACC load, which needs int32
; (lut32) values, decodes through it: a malformed stream.
load mem=lut sram=8 dram=0x0 slot=3 y=4 x=4 stride=4 deps=push_next
load mem=acc sram=0 dram=0x0 bw=2 slot=3 y=1 x=1 stride=1 chan=0 deps=pop_prev
finish
