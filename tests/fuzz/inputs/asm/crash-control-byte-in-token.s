; gemm.s - a complete GEMM program on the default config (1x16x16, int8 x int8 -> int32).
;
; OUT[i] = clip(ACC[i] >> 1, 0, 127) with ACC[i][o] = sum_k INP[i][k] * WGT[o][k], for the
; four input rows i = 0..3 and one 16x16 weight block: a tiny fully connected layer with a
; requantizing shift and a ReLU, as VTA's own tutorials build it.
;
; DRAM (byte addresses; LOAD/STORE dram= counts elements of the memory type):
;   0x1000  2 micro-ops           (uop elements are 4 B:   dram=0x400)
;   0x2000  4 INP rows x 16 int8  (inp elements are 16 B:  dram=0x200)
;   0x3000  one 16x16 WGT block   (wgt elements are 256 B: dram=0x30)
;   0x4000  4 OUT rows x 16 int8  (out elements are 16 B:  dram=0x400), written by STORE
;
; Tokens: the load module pushes l2g after the weights (push_next); the GEMM that reads
; them pops it (pop_prev). The last ALU pushes g2s (push_next) for the STORE, which pops it
; (pop_prev) and pushes s2g (push_prev); FINISH pops s2g (pop_next), so it runs only after
; the results are in DRAM. Every pushed token is popped.
;
; Expected OUT at 0x4000 (int8):
;   row 0: 0 0 0 0 4 0 1 0 20 0 0 0 0 4 0 1
;   row 1: 0 11 0 0 10 14 0 17 0 0 11 0 0 10 14 0
;   row 2: 15 19 23 0 4 0 0 0 0 15 19 23 0 4 0 0
;   row 3: 29 0 0 20 0 11 0 7 0 29 0 0 20 0 11 0

.text
load   mem=uop sram=0 dram=0x400 y=1 x=2 stride=2 deps=none          ; compute module
load   mem=inp sram=0 dram=0x200 y=1 x=4 stride=4 deps=none          ; load module
load   mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 deps=push_next      ; load: l2g
gemm   reset=1 uop=0,2 iter=2,1 dst=2,0 src=2,0 wgt=0,0 deps=none    ; ACC rows 0..3 = 0
gemm   reset=0 uop=0,2 iter=2,1 dst=2,0 src=2,0 wgt=0,0 deps=pop_prev ; wait for INP/WGT
alu    op=shr reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=1 deps=none
alu    op=max reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=none
alu    op=min reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=127 deps=push_next
store  mem=out sram=0 dram=0x400 y=1 x=4 stride=4 deps=pop_prev,push_prev
finish deps=pop_next

; The kernel: uop k covers ACC/INP row k; the outer loop (iter_out 2, factors 2) moves it
; to rows 2 and 3. The ALU instructions reuse uop 0 with an inner loop over rows 0..3.
.uops 0x1000
uop dst=0 src=0 wgt=0
uop dst=1 src=1 wgt=0

; INP rows 0..3, 16 int8 lanes each
.data 0x2000
.byte -5, 2, -2, 5, 1, -3, 4, 0, -4, 3, -1, -5, 2, -2, 5, 1
.byte -3, 4, 0, -4, 3, -1, -5, 2, -2, 5, 1, -3, 4, 0, -4, 3
.byte -1, -5, 2, -2, 5, 1, -3, 4, 0, -4, 3, -1, -5, 2, -2, 5
.byte 1, -3, 4, 0, -4, 3, -1, -5, 2, -2, 5, 1, -3, 4, 0, -4

; WGT block: row o holds the 16 weights of output lane o
.data 0x3000
.byte -4, -1, 2, -4, -1, 2, -4, -1, 2, -4, -1, 2, -4, -1, 2, -4
.byte 3, -2, 2, -3, 1, -4, 0, 4, -1, 3, -2, 2, -3, 1, -4, 0
.byte 1, -3, 2, -2, 3, -1, 4, 0, -4, 1, -3, 2, -2, 3, -1, 4
.byte -1, -4, 2, -1, -4, 2, -1, -4, 2, -1, -4, 2, -1, -4, 2, -1
.byte -3, 4, 2, 0, -2, -4, 3, 1, -1, -3, 4, 2, 0, -2, -4, 3
.byte 4, 3, 2, 1, 0, -1, -2, -3, -4, 4, 3, 2, 1, 0, -1, -2
.byte 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
.byte 0, 1, 2, 3, 4, -4, -3, -2, -1, 0, 1, 2, 3, 4, -4, -3
.byte -2, 0, 2, 4, -3, -1, 1, 3, -4, -2, 0, 2, 4, -3, -1, 1
.byte -4, -1, 2, -4, -1, 2, -4, -1, 2, -4, -1, 2, -4, -1, 2, -4
.byte 3, -2, 2, -3, 1, -4, 0, 4, -1, 3, -2, 2, -3, 1, -4, 0
.byte 1, -3, 2, -2, 3, -1, 4, 0, -4, 1, -3, 2, -2, 3, -1, 4
.byte -1, -4, 2, -1, -4, 2, -1, -4, 2, -1, -4, 2, -1, -4, 2, -1
.byte -3, 4, 2, 0, -2, -4, 3, 1, -1, -3, 4, 2, 0, -2, -4, 3
.byte 4, 3, 2, 1, 0, -1, -2, -3, -4, 4, 3, 2, 1, 0, -1, -2
.byte 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
