; lut_slot_unset.s - a decompressing load through descriptor slot 2, which no table load of
; this run has set: a malformed stream.
load mem=wgt sram=0 dram=0x10 bw=3 slot=2 y=1 x=1 stride=1 chan=0 deps=push_next
finish deps=pop_prev
