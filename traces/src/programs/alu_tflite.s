; alu_tflite.s - the TFLite requantization ops on the accelerator's ALU: SRDHM and RSHR (the
; alu.tflite_ext extension), with tensor and immediate operands, plus ACC_8BIT loads, a GEMM
; reset, MUL with immediates and ADD of two tensors.
;
; Four int8 rows X come in through LOAD ACC_8BIT (sign-extended into ACC rows 0..3); a LOAD
; ACC brings a row of 32-bit multipliers M (ACC row 4) and a row of shift amounts E (row 5),
; as TFLite's per-channel MultiplyByQuantizedMultiplier uses them.
;   rows 0..3: A = clip(RSHR(SRDHM(X * 40, M), E) - 5, -128, 127)   (tensor operands)
;   rows 6..9: B = clip(RSHR(SRDHM(X * 32767 * 300, -23170), 7), -128, 127)  (immediates)
; Rows 6..9 are first zeroed by a GEMM reset (an ALU ignores its reset bit) and filled with
; ADD of rows 0..3. The lanes of E
; include 40 and -3 (RSHR clamps the exponent to 0..31) and M includes INT32_MIN and a
; negative multiplier. Needs alu.mul and alu.tflite_ext (both on in the default config).
; Each result's last ALU pushes g2s and its STORE pops it: the store module runs concurrently
; with compute, so a STORE without that token would race the ALU writing OUT.
;
; DRAM (byte addresses; dram= counts elements: uop 4 B, acc8/out 16 B, acc 64 B):
;   0x1000  4 micro-ops         (dram=0x400)
;   0x2000  X, 4 ACC_8BIT rows  (dram=0x200)
;   0x3000  M and E, 2 ACC rows (dram=0xc0)
;   0x4000  A, 4 OUT rows       (dram=0x400), written by STORE
;   0x4040  B, 4 OUT rows       (dram=0x404), written by STORE
; The expected bytes come from the reference executor (traces/regen.sh).

.text
load   mem=uop sram=0 dram=0x400 y=1 x=4 stride=4 deps=none
load   mem=acc8 sram=0 dram=0x200 y=1 x=4 stride=4 deps=none    ; X -> ACC rows 0..3
load   mem=acc sram=4 dram=0xc0 y=1 x=2 stride=2 deps=none      ; M, E -> ACC rows 4, 5
; B: rows 6..9 (uop 3: dst 6, src 0) = 0, then += X
gemm   reset=1 uop=3,4 iter=1,4 dst=0,1 src=0,1 wgt=0,0 deps=none
alu    op=add reset=0 uop=3,4 iter=1,4 dst=0,1 src=0,1 use_imm=0 deps=none
; A on rows 0..3
alu    op=mul reset=0 uop=1,2 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=40 deps=none
alu    op=srdhm reset=0 uop=0,1 iter=1,4 dst=0,1 src=0,0 use_imm=0 deps=none   ; by M (row 4)
alu    op=rshr reset=0 uop=2,3 iter=1,4 dst=0,1 src=0,0 use_imm=0 deps=none    ; by E (row 5)
alu    op=add reset=0 uop=1,2 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=-5 deps=none
alu    op=max reset=0 uop=1,2 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=-128 deps=none
alu    op=min reset=0 uop=1,2 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=127 deps=push_next
; B on rows 6..9 (uop 3 again; its src is not read with an immediate)
alu    op=mul reset=0 uop=3,4 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=32767 deps=none
alu    op=mul reset=0 uop=3,4 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=300 deps=none
alu    op=srdhm reset=0 uop=3,4 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=-23170 deps=none
alu    op=rshr reset=0 uop=3,4 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=7 deps=none
alu    op=max reset=0 uop=3,4 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=-128 deps=none
alu    op=min reset=0 uop=3,4 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=127 deps=push_next
store  mem=out sram=0 dram=0x400 y=1 x=4 stride=4 deps=pop_prev
store  mem=out sram=6 dram=0x404 y=1 x=4 stride=4 deps=pop_prev,push_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=4 wgt=0    ; 0: SRDHM source row M
uop dst=0 src=0 wgt=0    ; 1: rows 0..3 with immediates
uop dst=0 src=5 wgt=0    ; 2: RSHR source row E
uop dst=6 src=0 wgt=0    ; 3: rows 6..9, source rows 0..3

; X: 4 rows of 16 int8 lanes
.data 0x2000
.byte -128, 127, 74, -104, -91, -80, 59, -99, -19, -109, -84, 94, 86, -93, -5, -82
.byte 89, -98, -65, -14, -97, 75, -103, -15, -105, -60, 20, 86, -55, -68, 29, -36
.byte -76, -32, 62, -79, -96, -98, -23, 126, 90, 32, 110, 104, 57, 25, -1, -36
.byte -4, -87, 25, 125, 47, 101, 19, -91, -68, 86, -44, 47, -51, 122, 87, -108

; M (16 int32 multipliers) then E (16 int32 shift amounts)
.data 0x3000
.word 1240430531, 1747509478, 1804149025, -1825744189, 2140342821, 2053435317, 1221409128, 1274737691
.word 1653432000, -2147483648, 1213328217, 1204028421, 1738618597, 2030748088, 1684906071, 1902222631
.word 6, 9, 7, 9, 9, 40, -3, 0
.word 31, 7, 4, 4, 9, 7, 6, 8
