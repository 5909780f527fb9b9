; race_raw.s - a race the stream checks refuse (docs/isa.md "Happens-before and races"):
; a read after write across modules with no token between them.
;
; The ALU writes OUT rows 0..3 (a copy of ACC: SHR 0) and the STORE reads them, but the
; ALU pushes no g2s token and the STORE pops none, so nothing makes the store module wait
; for compute. Run anyway (--no-check-races), the SystemC model stores OUT before the ALU
; has written it (zeros) while the reference executor, which happens to run compute first,
; stores the copy: the result depends on timing. vtasim refuses the stream instead, on
; every engine (exit status 1):
;
;   vtasim: error: race (RAW) on out rows [0, 4): compute insn 2 (alu ...) writes,
;           store insn 3 (store ...) reads, and no token orders them
;   vtasim: note: insn 3 (store ...) reads out row 0, which nothing ordered before it
;           writes in this run (4 such rows)
;
; The fix: deps=push_next on the ALU and deps=pop_prev,push_prev on the STORE, as in
; docs/examples/gemm.s.
.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none                 ; compute
load   mem=acc sram=0 dram=0x80 y=1 x=4 stride=4 deps=none                  ; compute
alu    op=shr reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=none
store  mem=out sram=0 dram=0x400 y=1 x=4 stride=4 deps=push_prev           ; no pop_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0

; ACC rows 0..3, 16 int32 lanes each
.data 0x2000
.word -50, -47, -44, -41, -38, -35, -32, -29, -26, -23, -20, -17, -14, -11, -8, -5
.word -2, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43
.word 46, 49, 52, 55, 58, 61, 64, 67, 70, 73, 76, 79, 82, 85, 88, 91
.word 94, 97, 100, 103, 106, 109, 112, 115, 118, 121, 124, 127, 130, 133, 136, 139
