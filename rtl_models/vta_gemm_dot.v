// vta_gemm_dot.v - one lane of the GEMM array: the int8 dot product of an input vector and one
// weight row, added to an int32 accumulator (docs/isa.md, "GEMM and ALU: the loop nest").
// The COMPUTE module's GEMM array is BATCH x BLOCK_OUT of these lanes in lock step.
//
//   acc_out = acc_in + sum_k x[k] * w[k]     (k < BLOCK_IN; int8 x int8 products; wrapping)
//   out8    = acc_out[7:0]                   (what GEMM writes to the OUT buffer)
//   in_reset: acc_out = 0, out8 = 0          (the GEMM reset uop; x, w and acc_in unused)
//
// Element order, pipeline (latency L = log2(BLOCK_IN) + 1, initiation interval 1): docs/rtl.md
// "vta_gemm_dot". The accumulator is read late, by the accumulate stage (acc_valid), so a uop
// may accumulate into a row its predecessor just wrote: no read-after-write hazard, no bubbles.
`default_nettype none

module vta_gemm_dot #(
    parameter integer BLOCK_IN = 16
) (
    input  wire                  clk,
    input  wire                  rst,       // synchronous, clears the valid bits
    input  wire                  in_valid,
    input  wire                  in_reset,  // a reset uop: the result is 0
    input  wire [8*BLOCK_IN-1:0] x,
    input  wire [8*BLOCK_IN-1:0] w,
    input  wire [31:0]           acc_in,    // sampled at the accumulate stage
    output wire                  acc_valid, // a vector is at the accumulate stage
    output reg                   out_valid,
    output reg  [31:0]           acc_out,
    output wire [7:0]            out8
);
    localparam integer N = $clog2(BLOCK_IN); // adder-tree levels; stages 1..N carry them

    // The tree's nodes, level by level: level l (1..N) has BLOCK_IN >> l nodes starting at
    // index BLOCK_IN - 2 * (BLOCK_IN >> l); the root is node BLOCK_IN - 2.
    reg [31:0] node [0:BLOCK_IN-2];
    reg [N:1]  valid_p;
    reg [N:1]  reset_p;

    // One product, sign-extended to 32 bits. Called only inside the clocked block, so the
    // verilated model computes products at the clock edge of a valid beat and not at every
    // evaluation (the same hardware: combinational logic feeding stage 1).
    function [31:0] mul8(input [7:0] a, input [7:0] b);
        mul8 = {{24{a[7]}}, a} * {{24{b[7]}}, b};
    endfunction

    integer l, j;
    always @(posedge clk) begin
        if (rst) begin
            valid_p   <= {N{1'b0}};
            out_valid <= 1'b0;
        end else begin
            valid_p[1] <= in_valid;
            for (l = 2; l <= N; l = l + 1)
                valid_p[l] <= valid_p[l-1];
            out_valid <= valid_p[N];
        end
        reset_p[1] <= in_reset;
        for (l = 2; l <= N; l = l + 1)
            reset_p[l] <= reset_p[l-1];
        // Stage 1: the products summed in pairs.
        if (in_valid) begin
            for (j = 0; j < BLOCK_IN / 2; j = j + 1)
                node[j] <= mul8(x[16*j +: 8], w[16*j +: 8]) +
                           mul8(x[16*j+8 +: 8], w[16*j+8 +: 8]);
        end
        // Stages 2..N: one tree level each.
        for (l = 2; l <= N; l = l + 1) begin
            if (valid_p[l-1]) begin
                for (j = 0; j < (BLOCK_IN >> l); j = j + 1)
                    node[BLOCK_IN - 2 * (BLOCK_IN >> l) + j] <=
                        node[BLOCK_IN - 4 * (BLOCK_IN >> l) + 2*j] +
                        node[BLOCK_IN - 4 * (BLOCK_IN >> l) + 2*j + 1];
            end
        end
        // Stage N+1: the accumulate (or the reset).
        if (valid_p[N])
            acc_out <= reset_p[N] ? 32'd0 : acc_in + node[BLOCK_IN-2];
    end

    assign acc_valid = valid_p[N];

    assign out8 = acc_out[7:0];
endmodule

`default_nettype wire
