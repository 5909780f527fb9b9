// vta_gemm_core.v - the GEMM core for one batch row: BLOCK_OUT vta_gemm_dot lanes side by side,
// one GEMM micro-op's matrix-vector product per cycle (VTA's gemm() inner body for BATCH = 1).
//
//   acc_out[o] = acc_in[o] + sum_k x[k] * w[o][k],   out8[o] = acc_out[o][7:0]
//
// Packing: x[k] at bits [8k+7:8k]; weight row o is w[8*BLOCK_IN*o +: 8*BLOCK_IN] with its
// element k at [8k+7:8k] inside it (the WGT SRAM block in memory order); acc lane o at
// [32o+31:32o]; out8 lane o at [8o+7:8o]. A batch of rows streams through at one row per cycle.
//
// Timing: that of vta_gemm_dot, latency 2 cycles, initiation interval 1.
`default_nettype none

module vta_gemm_core #(
    parameter integer BLOCK_IN  = 16,
    parameter integer BLOCK_OUT = 16
) (
    input  wire                            clk,
    input  wire                            rst,
    input  wire                            in_valid,
    input  wire [8*BLOCK_IN-1:0]           x,
    input  wire [8*BLOCK_IN*BLOCK_OUT-1:0] w,
    input  wire [32*BLOCK_OUT-1:0]         acc_in,
    output wire                            out_valid,
    output wire [32*BLOCK_OUT-1:0]         acc_out,
    output wire [8*BLOCK_OUT-1:0]          out8
);
    wire [BLOCK_OUT-1:0] lane_valid;

    genvar o;
    generate
        for (o = 0; o < BLOCK_OUT; o = o + 1) begin : lane
            vta_gemm_dot #(.BLOCK_IN(BLOCK_IN)) u_dot (
                .clk      (clk),
                .rst      (rst),
                .in_valid (in_valid),
                .x        (x),
                .w        (w[8*BLOCK_IN*o +: 8*BLOCK_IN]),
                .acc_in   (acc_in[32*o +: 32]),
                .out_valid(lane_valid[o]),
                .acc_out  (acc_out[32*o +: 32]),
                .out8     (out8[8*o +: 8])
            );
        end
    endgenerate

    // The lanes run in lock step; all their valid bits are equal.
    assign out_valid = &lane_valid;
endmodule

`default_nettype wire
