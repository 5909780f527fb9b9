; race_waw.s - a race the stream checks refuse (docs/isa.md "Happens-before and races"):
; two modules write the same rows with no token between them.
;
; An int8 table (LOAD lut, on the load module, which loads what it feeds) and an int32 one
; (LOAD lut32, on compute) are put in overlapping entries of the decoder's table memory,
; entries 0..3 and 2..5, and each is decoded through by a decompressing load. Which table
; entries 2..3 finally hold, and which values each decoding reads, depends on timing. vtasim
; refuses the stream on every engine (exit status 1), first with the write-write race:
;
;   vtasim: error: race (WAW) on lut table entries [2, 4): load insn 0 (load ...) writes,
;           compute insn 1 (load ...) writes, and no token orders them
;   vtasim: note: race (RAW) on lut table entries [2, 4): compute insn 1 (load ...) writes,
;           load insn 2 (load ...) reads, and no token orders them
;   vtasim: note: race (RAW) on lut table entries [2, 4): load insn 0 ... compute insn 3 ...
;
; The fix: give each table its own entries (sram=4 for the lut32 table), as the runtime
; does (docs/runtime.md "LUT constants on the decoder").
.text
load   mem=lut sram=0 dram=0x5000 slot=0 y=1 x=4 stride=4 deps=none            ; load
load   mem=lut32 sram=2 dram=0x1800 slot=1 y=1 x=4 stride=4 deps=none          ; compute
load   mem=wgt sram=0 dram=0xc0 bw=2 slot=0 y=1 x=1 stride=1 chan=0 deps=push_next
load   mem=acc sram=0 dram=0x1c00 bw=2 slot=1 y=1 x=1 stride=1 chan=0 deps=none
finish deps=pop_prev

; the int8 table and the int32 table; the packed indices are zero (DRAM starts zeroed)
.data 0x5000
.byte -2, -1, 1, 2
.data 0x6000
.word -200, -100, 100, 200
