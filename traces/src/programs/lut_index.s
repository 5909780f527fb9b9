; lut_index.s - a decompressing load whose index string holds an index beyond its table:
; the int8 table (slot 1) has 4 entries, and the first 3-bit index of the INP row is 7
; (byte 0xe0, most significant bit first). Fails with VTA_E_OOB on both engines.
load mem=lut sram=0 dram=0x0 slot=1 y=1 x=4 stride=4 deps=none
load mem=inp sram=0 dram=0x100 bw=3 slot=1 y=1 x=1 stride=1 chan=0 deps=push_next
finish deps=pop_prev
.data 0x600
.byte 0xe0
