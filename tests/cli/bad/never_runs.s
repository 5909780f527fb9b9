; never_runs.s - a LOAD that waits for a g2l token no instruction sends, and a LOAD
; queued behind it: FINISH ends the run while they wait, so neither ever executes. The
; stream checks warn (an error with --strict); the run itself is correct and ends at FINISH.
.text
load   mem=inp sram=0 dram=0x200 y=1 x=1 stride=1 deps=pop_next
load   mem=inp sram=1 dram=0x200 y=1 x=1 stride=1 deps=none
finish deps=none
