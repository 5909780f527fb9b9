; padding.s - a padded 2D INP load feeding a GEMM, and the padded tile stored back.
;
; DRAM holds a 3x4 image of 16-channel int8 pixels (one INP element per pixel, row-major,
; 4 pixels per image row). The LOAD takes the 3x2 window at columns 1..2 (dram_base one
; element in, x_stride 4) and pads it on the fly: 1 zero row above, 2 below, 1 zero
; column on the left, none on the right. The INP SRAM receives a dense 6x3 tile:
;   rows = y_pad_0 + y_size + y_pad_1 = 1 + 3 + 2 = 6, W = x_pad_0 + x_size + x_pad_1 = 3
; so 18 INP rows at sram 0..17. A GEMM with an identity weight block copies the tile into
; ACC (and its low 8 bits into OUT); a 2D STORE writes the 18 OUT rows to 0x4000.
;
; DRAM (byte addresses; dram= counts elements: uop 4 B, inp/out 16 B, wgt 256 B):
;   0x1000  1 micro-op           (dram=0x400)
;   0x2000  the 3x4 image        (dram=0x200; the window starts at 0x201)
;   0x3000  identity WGT block   (dram=0x30)
;   0x4000  18 OUT rows          (dram=0x400), written by STORE
;
; Pixel (r, c) channel k holds (r*4 + c)*8 + k - 40.
; Expected OUT at 0x4000 (int8; padding is zero):
;   row  0 (y 0, x 0): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row  1 (y 0, x 1): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row  2 (y 0, x 2): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row  3 (y 1, x 0): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row  4 (y 1, x 1): -32 -31 -30 -29 -28 -27 -26 -25 -24 -23 -22 -21 -20 -19 -18 -17
;   row  5 (y 1, x 2): -24 -23 -22 -21 -20 -19 -18 -17 -16 -15 -14 -13 -12 -11 -10 -9
;   row  6 (y 2, x 0): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row  7 (y 2, x 1): 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
;   row  8 (y 2, x 2): 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
;   row  9 (y 3, x 0): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row 10 (y 3, x 1): 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47
;   row 11 (y 3, x 2): 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55
;   row 12 (y 4, x 0): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row 13 (y 4, x 1): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row 14 (y 4, x 2): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row 15 (y 5, x 0): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row 16 (y 5, x 1): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
;   row 17 (y 5, x 2): 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0

.text
load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 deps=none
load   mem=inp sram=0 dram=0x201 y=3 x=2 stride=4 ypad=1,2 xpad=1,0 deps=none
load   mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 deps=push_next
; the 6x3 tile as two loops: iter_out over tile rows (factor 3), iter_in over columns
gemm   reset=1 uop=0,1 iter=6,3 dst=3,1 src=3,1 wgt=0,0 deps=none
gemm   reset=0 uop=0,1 iter=6,3 dst=3,1 src=3,1 wgt=0,0 deps=pop_prev,push_next
store  mem=out sram=0 dram=0x400 y=6 x=3 stride=3 deps=pop_prev,push_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0

; the image: 12 pixels (3 rows x 4 columns) of 16 channels
.data 0x2000
.byte -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25
.byte -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17
.byte -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9
.byte -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1
.byte -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7
.byte 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.byte 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23
.byte 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
.byte 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39
.byte 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47
.byte 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55
.byte 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63

; identity: WGT row o has a 1 in lane o
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
