; a store that pushes a token to a stage after it, which the store module does not have
.text
store mem=out sram=0 dram=0x400 y=1 x=1 stride=1 deps=push_next
finish
