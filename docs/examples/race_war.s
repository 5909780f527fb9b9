; race_war.s - a race the stream checks refuse (docs/isa.md "Happens-before and races"):
; a write after read across modules with no token between them.
;
; The first GEMM reads INP rows 0..1 (tile A); the second INP load refills the same rows
; with tile B for the second GEMM. Nothing makes that load wait until the first GEMM has
; read tile A: the GEMM pushes no g2l token and the load pops none. Whether the first GEMM
; sees tile A or tile B depends on timing. vtasim refuses the stream on every engine (exit
; status 1):
;
;   vtasim: error: race (WAR) on inp rows [0, 2): compute insn 4 (gemm ...) reads,
;           load insn 5 (load ...) writes, and no token orders them
;
; The fix: deps=pop_prev,push_prev on the first accumulating GEMM (it gives the rows back
; with g2l) and deps=pop_next,push_next on the refill, as the virtual threads of
; traces/src/programs/vthreads.s do.
.text
load   mem=uop sram=0 dram=0x400 y=1 x=2 stride=2 deps=none                 ; compute
load   mem=inp sram=0 dram=0x200 y=1 x=2 stride=2 deps=none                 ; tile A
load   mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 deps=push_next
gemm   reset=1 uop=0,1 iter=1,4 dst=0,1 src=0,0 wgt=0,0 deps=none           ; ACC 0..3 = 0
gemm   reset=0 uop=0,1 iter=1,2 dst=0,1 src=0,1 wgt=0,0 deps=pop_prev       ; reads tile A
load   mem=inp sram=0 dram=0x202 y=1 x=2 stride=2 deps=push_next            ; tile B, too soon
gemm   reset=0 uop=1,2 iter=1,2 dst=0,1 src=0,1 wgt=0,0 deps=pop_prev       ; reads tile B
alu    op=shr reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=push_next
store  mem=out sram=0 dram=0x400 y=1 x=4 stride=4 deps=pop_prev,push_prev
finish deps=pop_next

; uop 0 accumulates INP row i into ACC row i, uop 1 into ACC row i + 2
.uops 0x1000
uop dst=0 src=0 wgt=0
uop dst=2 src=0 wgt=0

; tiles A (rows 0..1) and B (rows 2..3)
.data 0x2000
.byte -5, -2, 1, 4, -4, -1, 2, 5, -3, 0, 3, -5, -2, 1, 4, -4
.byte 2, 5, -3, 0, 3, -5, -2, 1, 4, -4, -1, 2, 5, -3, 0, 3
.byte -2, 1, 4, -4, -1, 2, 5, -3, 0, 3, -5, -2, 1, 4, -4, -1
.byte 5, -3, 0, 3, -5, -2, 1, 4, -4, -1, 2, 5, -3, 0, 3, -5

; an identity weight block: output lane o is input lane o
.data 0x3000
.byte 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
.byte 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
.byte 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
.byte 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
.byte 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
.byte 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
.byte 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0
.byte 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0
.byte 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0
.byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0
.byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0
.byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0
.byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0
.byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0
.byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0
.byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
