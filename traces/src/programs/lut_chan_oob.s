; lut_chan_oob.s - per-channel int8 tables for 16 channels (slot 1), and a WGT load whose
; channel block starts at channel 1: its lanes need tables 1..16, one beyond the 16 loaded.
load mem=lut sram=0 dram=0x0 slot=1 y=16 x=4 stride=4 deps=none
load mem=wgt sram=0 dram=0x10 bw=2 slot=1 y=1 x=1 stride=1 chan=1 deps=push_next
finish deps=pop_prev
