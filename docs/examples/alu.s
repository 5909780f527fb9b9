; alu.s - the ALU on accumulator data: MIN, MAX, ADD, SHR (both directions) and MUL.
;
; Two 4-row ACC tensors A (rows 0..3) and B (rows 4..7) of 16 int32 lanes come from .data
; segments. A is transformed in place, lane by lane:
;   A = min(A, B); A = max(A, -60); A = A + B; A = A >> 2; A = A << 1 (SHR by -1);
;   A = A * 3; A = A * B; A = A >> 8; A = clip(A, -128, 127)
; and the result is stored as int8. MUL needs alu.mul (on in the default config).
;
; DRAM (byte addresses; dram= counts elements: uop 4 B, acc 64 B, out 16 B):
;   0x1000  1 micro-op      (dram=0x400)
;   0x2000  A, 4 ACC rows   (dram=0x80)
;   0x2100  B, 4 ACC rows   (dram=0x84)
;   0x4000  4 OUT rows      (dram=0x400), written by STORE
;
; Everything but the STORE runs on the compute module (LOAD UOP and LOAD ACC included), so
; the only tokens are g2s (last ALU -> STORE) and s2g (STORE -> FINISH).
;
; Expected OUT at 0x4000 (int8):
;   row 0: 93 29 -2 6 79 15 3 57 63 12 -6 17 50 2 17 99
;   row 1: 36 1 -4 91 24 0 42 75 13 -5 5 60 6 8 68 48
;   row 2: 1 -5 17 36 0 19 87 22 1 0 73 17 -1 36 58 5
;   row 3: 12 11 45 4 2 56 31 0 34 85 24 -4 10 70 10 5

.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none
load   mem=acc sram=0 dram=0x80 y=1 x=4 stride=4 deps=none    ; A -> ACC rows 0..3
load   mem=acc sram=4 dram=0x84 y=1 x=4 stride=4 deps=none    ; B -> ACC rows 4..7
; one uop (dst 0, src 4) and an inner loop over 4 rows: dst rows 0..3, src rows 4..7
alu    op=min reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=0 imm=0 deps=none
alu    op=max reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=-60 deps=none
alu    op=add reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=0 imm=0 deps=none
alu    op=shr reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=2 deps=none
alu    op=shr reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=-1 deps=none
alu    op=mul reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=3 deps=none
alu    op=mul reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=0 imm=0 deps=none
alu    op=shr reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=8 deps=none
alu    op=min reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=127 deps=none
alu    op=max reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=-128 deps=push_next
store  mem=out sram=0 dram=0x400 y=1 x=4 stride=4 deps=pop_prev,push_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=4 wgt=0

; A: 4 rows x 16 int32 lanes
.data 0x2000
.word -150, -113, -76, -39, -2, 35, 72, 109
.word 146, -118, -81, -44, -7, 30, 67, 104
.word 141, -123, -86, -49, -12, 25, 62, 99
.word 136, -128, -91, -54, -17, 20, 57, 94
.word 131, -133, -96, -59, -22, 15, 52, 89
.word 126, -138, -101, -64, -27, 10, 47, 84
.word 121, -143, -106, -69, -32, 5, 42, 79
.word 116, -148, -111, -74, -37, 0, 37, 74

; B: 4 rows x 16 int32 lanes
.data 0x2100
.word -100, -47, 6, 59, -89, -36, 17, 70
.word -78, -25, 28, 81, -67, -14, 39, 92
.word -56, -3, 50, -98, -45, 8, 61, -87
.word -34, 19, 72, -76, -23, 30, 83, -65
.word -12, 41, 94, -54, -1, 52, -96, -43
.word 10, 63, -85, -32, 21, 74, -74, -21
.word 32, 85, -63, -10, 43, 96, -52, 1
.word 54, -94, -41, 12, 65, -83, -30, 23
