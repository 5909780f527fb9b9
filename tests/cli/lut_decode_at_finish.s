; lut_decode_at_finish.s - FINISH ends the run while the load module waits out the RTL LUT
; decoder's cycles of a decompressing load (whose indices lie beyond their 2-entry tables,
; so it would fail had the run lasted). The load module is left waiting for good; nothing it
; decoded may leak (the ASan build of the suite holds LeakSanitizer to it). Run with
; --no-check-races: the checks refuse the unordered stream first.
.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none
load   mem=lut sram=0 dram=0x5000 slot=0 y=16 x=2 stride=2 deps=none
load   mem=wgt sram=0 dram=0xc0 bw=2 slot=0 y=9 x=1 stride=1 chan=0 deps=none
alu    op=shr reset=0 uop=0,1 iter=1,199 dst=0,1 src=0,1 use_imm=1 imm=2 deps=none
finish deps=none
.uops 0x1000
uop dst=0 src=0 wgt=0
.data 0x3000
.byte 0xff, 0xff, 0xff, 0xff
