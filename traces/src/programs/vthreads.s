; vthreads.s - two virtual threads on the default config: double-buffered INP/WGT/ACC slots
; whose hand-over is carried by all four token queues, and NOP instructions (x_size 0) on each
; of the three modules to carry tokens where no data moves.
;
; Four tiles T0..T3 (2 INP rows each) are multiplied by their own weight blocks W0..W3:
; OUT_k = clip(X_k W_k^T >> 3, -128, 127). Thread 0 runs tiles 0 and 2 in INP rows 0..1, WGT
; block 0 and ACC rows 0..1; thread 1 runs tiles 1 and 3 in INP rows 2..3, WGT block 1 and
; ACC rows 2..3. So the load module fills thread 1's slot while compute works on thread 0's.
;
; Tokens (every push is popped by the end):
;   l2g  load -> compute  after each tile's weights (RAW on INP/WGT)
;   g2l  compute -> load  after the GEMM of tiles 0 and 1 (WAR: the slot may be refilled)
;   g2s  compute -> store after each tile's last ALU (RAW on OUT)
;   s2g  store -> compute after each STORE (WAR: tile k+2 may overwrite OUT rows)
; The drain at the end uses a load NOP, two compute NOPs (LOAD UOP and LOAD ACC with x 0) and
; a store NOP before FINISH.
;
; DRAM (byte addresses; dram= counts elements: uop 4 B, inp/out 16 B, wgt 256 B):
;   0x1000  6 micro-ops          (dram=0x400)
;   0x2000  T0..T3, 2 rows each  (dram=0x200, 0x202, 0x204, 0x206)
;   0x3000  W0..W3               (dram=0x30, 0x31, 0x32, 0x33)
;   0x5000  OUT_0..OUT_3         (dram=0x500, 0x502, 0x504, 0x506), written by STORE
; The expected bytes come from the reference executor (traces/regen.sh).

.text
load   mem=uop sram=0 dram=0x400 y=1 x=6 stride=6 deps=none
; prologue: the load module fills both threads' slots
load   mem=inp sram=0 dram=0x200 y=1 x=2 stride=2 deps=none
load   mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 deps=push_next
load   mem=inp sram=2 dram=0x202 y=1 x=2 stride=2 deps=none
load   mem=wgt sram=1 dram=0x31 y=1 x=1 stride=1 deps=push_next
; tile 0, thread 0
gemm   reset=1 uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=none
gemm   reset=0 uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev,push_prev
alu    op=shr reset=0 uop=4,5 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=3 deps=none
alu    op=max reset=0 uop=4,5 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=-128 deps=none
alu    op=min reset=0 uop=4,5 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=127 deps=push_next
store  mem=out sram=0 dram=0x500 y=1 x=2 stride=2 deps=pop_prev,push_prev
; tile 1, thread 1
gemm   reset=1 uop=2,4 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=none
gemm   reset=0 uop=2,4 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev,push_prev
alu    op=shr reset=0 uop=5,6 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=3 deps=none
alu    op=max reset=0 uop=5,6 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=-128 deps=none
alu    op=min reset=0 uop=5,6 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=127 deps=push_next
store  mem=out sram=2 dram=0x502 y=1 x=2 stride=2 deps=pop_prev,push_prev
; refill: each slot is reloaded once compute released it (g2l)
load   mem=inp sram=0 dram=0x204 y=1 x=2 stride=2 deps=pop_next
load   mem=wgt sram=0 dram=0x32 y=1 x=1 stride=1 deps=push_next
load   mem=inp sram=2 dram=0x206 y=1 x=2 stride=2 deps=pop_next
load   mem=wgt sram=1 dram=0x33 y=1 x=1 stride=1 deps=push_next
; tile 2, thread 0: waits until OUT rows 0..1 of tile 0 are stored (s2g)
gemm   reset=1 uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_next
gemm   reset=0 uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev
alu    op=shr reset=0 uop=4,5 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=3 deps=none
alu    op=max reset=0 uop=4,5 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=-128 deps=none
alu    op=min reset=0 uop=4,5 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=127 deps=push_next
store  mem=out sram=0 dram=0x504 y=1 x=2 stride=2 deps=pop_prev,push_prev
; tile 3, thread 1
gemm   reset=1 uop=2,4 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_next
gemm   reset=0 uop=2,4 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev
alu    op=shr reset=0 uop=5,6 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=3 deps=none
alu    op=max reset=0 uop=5,6 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=-128 deps=none
alu    op=min reset=0 uop=5,6 iter=1,2 dst=0,1 src=0,1 use_imm=1 imm=127 deps=push_next
store  mem=out sram=2 dram=0x506 y=1 x=2 stride=2 deps=pop_prev,push_prev
; drain with NOPs: load -> compute (l2g), the last two s2g tokens, compute -> store -> FINISH
load   mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next
load   mem=uop sram=0 dram=0 y=0 x=0 stride=0 deps=pop_prev,pop_next
load   mem=acc sram=0 dram=0 y=0 x=0 stride=0 deps=pop_next,push_next
store  mem=out sram=0 dram=0 y=0 x=0 stride=0 deps=pop_prev,push_prev
finish deps=pop_next

.uops 0x1000
uop dst=0 src=0 wgt=0    ; 0, 1: thread 0 GEMM (INP rows 0..1, WGT block 0)
uop dst=1 src=1 wgt=0
uop dst=2 src=2 wgt=1    ; 2, 3: thread 1 GEMM (INP rows 2..3, WGT block 1)
uop dst=3 src=3 wgt=1
uop dst=0 src=0 wgt=0    ; 4: thread 0 ALU (ACC rows 0..1 with iter_in 2)
uop dst=2 src=2 wgt=0    ; 5: thread 1 ALU (ACC rows 2..3)

; T0..T3: 8 INP rows of 16 int8 lanes
.data 0x2000
.byte 4, 4, 7, -6, -3, 6, 4, 0, -4, 5, 0, 5, 3, 4, -1, -4
.byte -6, -3, -4, -1, -1, -8, 7, -3, 0, 1, -8, -4, 5, 3, 2, -4
.byte 8, -7, 6, 4, 4, 4, 4, -5, 7, 4, -7, -2, -6, -2, 6, -3
.byte -5, 2, -7, -5, -8, -4, -5, 3, -8, -6, -2, 4, -4, 0, 3, 3
.byte 7, -5, -5, 7, 6, 7, 7, 1, -6, -4, -5, 2, 0, 7, -3, 8
.byte -8, -2, 8, 3, -4, -8, 8, 1, -6, 0, 8, 3, -3, 3, -1, 8
.byte 2, -1, -2, -1, 4, -1, -2, 8, 7, 3, -8, -8, 0, 7, 0, -2
.byte 3, 6, 3, 3, -6, -1, -5, -1, 7, -2, 2, -2, 7, -8, 7, 3

; W0..W3: row o of a block holds the 16 weights of output lane o
.data 0x3000
.byte -3, -3, 2, -1, 3, -2, 2, 1, -3, 2, 3, 2, -3, -2, -2, -2
.byte -4, -2, 3, -2, 3, 1, -2, 4, 4, -2, -4, -4, -3, 4, -2, 2
.byte -1, -1, -4, 0, -1, 0, 4, -1, 1, 0, 4, 2, -2, -4, 1, 3
.byte 4, 2, 4, -2, 4, -2, 4, 4, -4, 3, -2, -4, -2, -2, -2, 3
.byte -3, 4, -4, 1, 4, 4, 4, 3, -3, 4, -4, -1, -1, 0, -4, -3
.byte 4, 3, 4, -4, -3, 3, 1, 4, 4, -1, 0, 3, 4, 4, 3, 4
.byte -1, 4, 0, 4, -1, 3, -2, 2, -3, 2, 3, 1, -3, -1, 2, -3
.byte -1, 0, -3, -2, 1, -2, 0, -2, 3, -1, -3, 2, 3, -2, -1, -2
.byte 2, 4, 2, 1, 2, -1, 1, 1, -3, 1, -4, 1, 4, 3, 3, -4
.byte 2, 1, 4, 0, 4, -3, -3, -1, -3, -3, 0, 0, -4, -2, 0, -2
.byte 2, 0, 2, -2, 4, 4, 3, 1, -3, 0, -4, -2, 2, -3, 0, -4
.byte -3, 0, -3, -1, -3, 0, -3, 3, -4, 1, 4, 2, 0, -2, -4, 4
.byte -1, -3, -2, 0, -4, -2, -1, 0, 0, 4, -1, 0, 3, 4, -2, 0
.byte 1, -4, 0, -4, -4, -4, 4, 4, -1, 4, 3, -1, 3, -3, 2, 3
.byte 4, 2, 4, 0, -1, -1, 1, -1, -2, 2, 1, -4, -2, -4, -3, 0
.byte 2, -2, -4, -3, 2, 4, 0, -1, 0, -4, 3, -2, -2, 0, 3, -4
.data 0x3100
.byte 0, 1, 1, 4, 1, -1, -4, 0, -1, 1, -2, -4, 1, 2, -3, 3
.byte 0, 4, -1, -1, 4, -4, -3, 0, -3, -2, 2, -4, 2, -4, 0, 0
.byte -1, -3, 4, -2, 2, 1, 3, -2, 0, -2, -4, 4, 2, 4, -2, 4
.byte 4, -4, -1, -3, -4, -4, -2, 1, -3, 2, 3, 4, -4, -4, 4, -1
.byte 3, 0, -4, 3, -3, 4, 4, -3, 4, -3, 3, 0, -3, 0, -1, -1
.byte -1, 3, 3, 2, -3, 3, 0, -4, -1, -3, -2, 1, 0, 0, -2, -4
.byte 3, -4, 3, 0, -3, -1, 3, 0, 4, 0, 3, 3, 3, -3, 4, -1
.byte 0, -3, 3, -4, 0, 3, -3, 4, 3, 0, 2, -1, -1, -3, -3, -2
.byte 4, 0, 1, -2, 4, 0, -3, 1, -1, 3, 3, 2, -4, -2, -4, 3
.byte 3, 2, 0, -2, 2, 1, 2, 1, -3, 1, -4, 1, 1, 2, -3, -1
.byte -4, 0, 0, 1, -3, 2, 2, -3, 1, 2, 0, -4, 0, -3, -4, 0
.byte -2, -1, 0, 2, 4, 1, -1, 1, 2, -4, 2, 4, 4, -1, -3, -4
.byte 2, 3, -2, 0, 3, -4, 4, -2, -2, 3, 2, 1, 0, 0, 0, 0
.byte 2, -1, 0, 3, 4, 2, -3, -2, -2, -3, -1, 4, 3, 4, -1, 3
.byte 1, 3, 2, -2, 4, -1, -1, -3, -2, 1, 4, -3, 1, -1, 1, 0
.byte -1, -4, 2, 2, 2, 4, -1, 2, 0, 1, -4, 3, 0, 1, -2, 4
.data 0x3200
.byte 4, -1, -3, 0, -1, 2, 2, 3, 2, 0, -4, -2, -4, 2, 3, 3
.byte -4, -3, 2, 4, 3, 3, -1, -3, -1, -2, -2, 4, -3, 3, -3, 4
.byte -4, -4, -2, -1, -4, 0, -2, 0, 4, 2, -3, -3, -3, 0, 4, -1
.byte 2, 0, -1, -4, -4, 4, 0, 3, 0, 1, -1, 3, 4, -1, 4, -1
.byte -4, 2, 0, -4, -4, -1, 3, 2, -3, 0, -1, 2, 1, -1, 3, -4
.byte 1, 2, 1, 2, -1, -4, 0, 4, -3, -1, 3, -1, 0, -1, -1, 3
.byte -1, 0, 0, -3, 3, -2, -1, 3, 2, -4, -2, 2, -4, -1, -4, -2
.byte 2, -4, -4, -2, 2, 3, 1, -3, -3, -2, 1, -1, -2, 4, 3, -4
.byte 0, 2, 1, 1, 3, -2, -3, -4, -3, 0, -3, 1, 2, -3, 4, -1
.byte 2, 1, 0, 2, -3, -4, 3, -1, 1, 4, 3, -1, 1, 1, 3, -4
.byte 2, -1, 2, -4, 2, -4, 3, -3, -4, 0, -1, -3, 1, 1, 0, 1
.byte -4, 0, 1, 0, 0, -4, -3, -4, -1, -3, 3, 3, 2, 0, 2, 3
.byte -2, 3, -2, -4, 0, -2, -1, 1, 1, 3, 1, -3, 4, -1, 2, -2
.byte -1, 2, -3, -4, 3, 4, 4, 1, -2, 2, -3, -3, 0, -3, -1, -3
.byte 2, 3, 3, -2, -1, -2, 2, 3, -1, 4, -3, 0, 0, 0, 0, 1
.byte 0, 0, -1, 3, -1, -2, -1, -1, -2, 0, -1, 1, -3, 2, 0, -1
.data 0x3300
.byte 4, 4, -1, -3, 3, -4, -3, -4, 3, -1, 3, 1, -4, 0, -1, -3
.byte -4, -1, -1, -3, 1, 4, -2, 3, 0, -4, -3, 1, -1, -4, 1, 1
.byte -2, -4, -1, 0, -4, -1, -4, 1, 2, 1, -2, 0, -3, -1, -4, 3
.byte 4, 3, -3, 2, -3, 2, 4, -2, 4, -3, -2, 2, 0, 2, 0, 0
.byte 2, -4, 0, 1, 2, 2, -4, 1, -1, 2, 2, -1, -4, 2, -2, 2
.byte -3, -3, 2, 1, 3, -2, -2, -4, -4, 4, -2, 2, -3, 1, 4, -2
.byte -2, 1, 0, -2, 4, -2, -3, -3, 2, 3, -1, 0, -2, -4, 3, 1
.byte -4, 2, -3, -2, -1, 2, -1, 3, -2, -1, -4, 2, 4, -2, 2, 1
.byte -3, -2, -1, -1, -4, 4, -4, 1, -3, 2, 3, 4, 0, 2, 0, -1
.byte 2, 2, 1, 3, 4, 3, -2, -4, -4, 3, 3, -1, 3, 3, -2, 3
.byte 2, -3, -3, -2, 1, 2, 1, -3, 3, 4, 4, -4, -4, -2, -3, 1
.byte 4, -3, -4, 4, 2, -2, -4, -3, -3, -1, -2, 3, 0, -2, -1, -3
.byte 1, 0, -2, 1, 0, 3, -2, 0, 4, 3, -1, 0, 4, -1, 1, 1
.byte -4, -1, -2, 2, -2, 0, 1, 2, -2, 0, -3, 4, -4, 1, 3, 4
.byte 4, -3, 0, 4, 2, 1, 0, 2, 1, -2, 1, 1, -3, 3, -1, -2
.byte -4, 0, 4, 0, 0, 1, -4, -4, -1, -2, 0, 2, 2, 4, 1, -4
