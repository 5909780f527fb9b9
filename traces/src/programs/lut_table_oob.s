; lut_table_oob.s - a table load of 4 entries at entry 8190 of the default 8192-entry table
; memory: it runs past the end.
load mem=lut sram=8190 dram=0x0 slot=0 y=1 x=4 stride=4 deps=none
finish
