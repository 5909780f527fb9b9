// vta_gemm_dot.v - one output lane of the GEMM core: the int8 dot product of an input vector
// and one weight row, added to an int32 accumulator (docs/isa.md, "GEMM and ALU: the loop nest").
//
//   acc_out = acc_in + sum_k x[k] * w[k]     (k < BLOCK_IN; int8 x int8 products; wrapping)
//   out8    = acc_out[7:0]                   (what GEMM writes to the OUT buffer)
//
// Element k of x and w sits at bits [8k+7:8k] (the byte order of an SRAM row in memory).
// The sum of products cannot overflow 32 bits for BLOCK_IN < 2^17, so summing in 32 bits and
// then adding the accumulator with wrap-around equals sim/datapath.h's vtasim_gemm_uop.
//
// Timing: two register stages, one vector per cycle. Stage 1 registers the dot product (the
// multipliers and the adder tree) beside the accumulator operand; stage 2 registers the
// accumulated sum. A vector presented with in_valid before rising edge t appears on acc_out
// with out_valid after edge t+1: latency 2, initiation interval 1, so B vectors in a row take
// B + 1 cycles.
`default_nettype none

module vta_gemm_dot #(
    parameter integer BLOCK_IN = 16
) (
    input  wire                  clk,
    input  wire                  rst,       // synchronous, clears the valid bits
    input  wire                  in_valid,
    input  wire [8*BLOCK_IN-1:0] x,
    input  wire [8*BLOCK_IN-1:0] w,
    input  wire [31:0]           acc_in,
    output reg                   out_valid,
    output reg  [31:0]           acc_out,
    output wire [7:0]            out8
);
    // Combinational dot product: each product sign-extended to 32 bits, summed in 32 bits.
    reg [31:0] dot;
    integer k;
    always @* begin
        dot = 32'd0;
        for (k = 0; k < BLOCK_IN; k = k + 1)
            dot = dot + ({{24{x[8*k+7]}}, x[8*k +: 8]} * {{24{w[8*k+7]}}, w[8*k +: 8]});
    end

    reg        s1_valid;
    reg [31:0] s1_dot;
    reg [31:0] s1_acc;

    always @(posedge clk) begin
        if (rst) begin
            s1_valid  <= 1'b0;
            out_valid <= 1'b0;
            s1_dot    <= 32'd0;
            s1_acc    <= 32'd0;
            acc_out   <= 32'd0;
        end else begin
            s1_valid  <= in_valid;
            out_valid <= s1_valid;
            if (in_valid) begin
                s1_dot <= dot;
                s1_acc <= acc_in;
            end
            if (s1_valid)
                acc_out <= s1_acc + s1_dot;
        end
    end

    assign out8 = acc_out[7:0];
endmodule

`default_nettype wire
