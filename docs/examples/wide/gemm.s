; wide/gemm.s - the GEMM of ../gemm.s on configs/wide.yaml (isa.encoding: wide, ACC and
; INP of 8192 rows, WGT of 4096 blocks), working at SRAM rows the default config does not
; have: ACC rows 5000..5003, INP rows 6000..6003 and WGT block 3000. Their indices need
; 13-bit micro-op fields (dst 13 + src 13 + wgt 12 = 38 bits, more than VTA's 32-bit
; micro-op), so this program assembles only in the wide encoding; on configs/default.yaml
; the assembler says `uop dst 5000 does not fit in 11 bits`.
;
; DRAM (byte addresses; LOAD/STORE dram= counts elements of the memory type):
;   0x1000  2 micro-ops           (wide uop elements are 8 B: dram=0x200)
;   0x2000  4 INP rows x 16 int8  (inp elements are 16 B:     dram=0x200)
;   0x3000  one 16x16 WGT block   (wgt elements are 256 B:    dram=0x30)
;   0x4000  4 OUT rows x 16 int8  (out elements are 16 B:     dram=0x400), written by STORE
;
; Tokens as in ../gemm.s. Expected OUT at 0x4000 (int8), ../gemm.s's:
;   row 0: 0 0 0 0 4 0 1 0 20 0 0 0 0 4 0 1
;   row 1: 0 11 0 0 10 14 0 17 0 0 11 0 0 10 14 0
;   row 2: 15 19 23 0 4 0 0 0 0 15 19 23 0 4 0 0
;   row 3: 29 0 0 20 0 11 0 7 0 29 0 0 20 0 11 0

.text
load   mem=uop sram=0 dram=0x200 y=1 x=2 stride=2 deps=none          ; compute module
load   mem=inp sram=6000 dram=0x200 y=1 x=4 stride=4 deps=none       ; load module
load   mem=wgt sram=3000 dram=0x30 y=1 x=1 stride=1 deps=push_next   ; load: l2g
gemm   reset=1 uop=0,2 iter=2,1 dst=2,0 src=2,0 wgt=0,0 deps=none    ; ACC rows 5000..5003 = 0
gemm   reset=0 uop=0,2 iter=2,1 dst=2,0 src=2,0 wgt=0,0 deps=pop_prev ; wait for INP/WGT
alu    op=shr reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=1 deps=none
alu    op=max reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 deps=none
alu    op=min reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=127 deps=push_next
store  mem=out sram=5000 dram=0x400 y=1 x=4 stride=4 deps=pop_prev,push_prev
finish deps=pop_next

; The kernel: uop k covers ACC row 5000+k, INP row 6000+k and WGT block 3000; the outer loop
; (iter_out 2, factors 2) moves it to the next two rows. The ALU instructions reuse uop 0
; with an inner loop over ACC rows 5000..5003 (its src is not read: use_imm).
.uops 0x1000
uop dst=5000 src=6000 wgt=3000
uop dst=5001 src=6001 wgt=3000

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
