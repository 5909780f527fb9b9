# GTKWave script: one GEMM lane and one ALU lane of the RTL COMPUTE arrays, over the span they
# work in (cycles 150 to 330 of the run at the default config's 10 ns period).
#   vtasim exec -c configs/default.yaml --set datapath=rtl --vcd w.vcd docs/examples/gemm.s
#   gtkwave -S docs/gtkwave/rtl_gemm.tcl w.vcd
set sigs [list compute.gemm_b0_o0.clk compute.gemm_b0_o0.in_valid compute.gemm_b0_o0.in_reset \
	compute.gemm_b0_o0.acc_valid compute.gemm_b0_o0.acc_in compute.gemm_b0_o0.acc_out \
	compute.gemm_b0_o0.out_valid compute.gemm_b0_o1.acc_out compute.alu_b0_o0.in_valid \
	compute.alu_b0_o0.op compute.alu_b0_o0.out_valid compute.alu_b0_o0.out_result]
gtkwave::addSignalsFromList $sigs
gtkwave::setZoomRangeTimes 1500000 3300000
