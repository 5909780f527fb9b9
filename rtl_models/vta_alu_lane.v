// vta_alu_lane.v - one 32-bit lane of the COMPUTE module's ALU (docs/isa.md, "ALU operations").
//
// result = op(a, b) on int32 a (the destination lane) and b (the immediate or the source lane):
//   0 MIN    min(a, b), signed
//   1 MAX    max(a, b), signed
//   2 ADD    a + b, wrapping to 32 bits
//   3 SHR    b >= 0: a >>> min(b, 31); b < 0: a << min(-b, 31), low 32 bits
//   4 MUL    low 32 bits of a * b
//   5 SRDHM  gemmlowp SaturatingRoundingDoublingHighMul: (a*b + nudge) / 2^31 in 64 bits,
//            truncating; nudge = 2^30 for a*b >= 0, 1 - 2^30 otherwise; a = b = INT32_MIN
//            saturates to INT32_MAX
//   6 RSHR   gemmlowp RoundingDivideByPOT(a, e), e = b clamped to 0..31
//   7        undefined: passes a through (the decoder refuses op 7 before it gets here)
// The same definitions as vtasim_alu_lane() in sim/datapath.cc; tests/rtl holds them equal.
//
// Timing: the result is registered. A vector presented with in_valid before a rising edge
// appears on out_result with out_valid after that edge: latency 1 cycle, one vector per cycle.
`default_nettype none

module vta_alu_lane (
    input  wire               clk,
    input  wire               rst,        // synchronous, clears out_valid
    input  wire               in_valid,
    input  wire        [2:0]  op,
    input  wire signed [31:0] a,
    input  wire signed [31:0] b,
    output reg                out_valid,
    output reg  signed [31:0] out_result
);
    localparam [2:0] OP_MIN = 3'd0, OP_MAX = 3'd1, OP_ADD = 3'd2, OP_SHR = 3'd3,
                     OP_MUL = 3'd4, OP_SRDHM = 3'd5, OP_RSHR = 3'd6;

    // Shift amounts. b >= 0 clamps to 31 when any bit above bit 4 is set; for b < 0 the
    // magnitude -b is formed in 33 bits so that -INT32_MIN does not wrap.
    wire        b_neg   = b[31];
    wire [4:0]  rsh     = (|b[30:5]) ? 5'd31 : b[4:0];
    wire [32:0] b_mag   = 33'd0 - {b[31], b};
    wire [4:0]  lsh     = (|b_mag[32:5]) ? 5'd31 : b_mag[4:0];

    wire signed [31:0] shr_right = a >>> rsh;
    wire signed [31:0] shr_left  = a << lsh;
    wire signed [31:0] shr_res   = b_neg ? shr_left : shr_right;

    // The full 64-bit product, shared by MUL (low half) and SRDHM.
    wire signed [63:0] a64  = {{32{a[31]}}, a};
    wire signed [63:0] b64  = {{32{b[31]}}, b};
    wire signed [63:0] prod = a64 * b64;

    // SRDHM: the division by 2^31 truncates toward zero, i.e. a negative sum is biased by
    // 2^31 - 1 before the arithmetic shift.
    localparam signed [63:0] NUDGE_POS = 64'sd1073741824;          // 2^30
    localparam signed [63:0] NUDGE_NEG = 64'sd1 - 64'sd1073741824; // 1 - 2^30
    wire signed [63:0] nudged   = prod + (prod[63] ? NUDGE_NEG : NUDGE_POS);
    wire signed [63:0] biased   = nudged + (nudged[63] ? 64'sh7fffffff : 64'sh0);
    // Only the low 32 bits of the quotient are kept (they hold every non-saturated result).
    /* verilator lint_off UNUSEDSIGNAL */
    wire signed [63:0] high     = biased >>> 31;
    /* verilator lint_on UNUSEDSIGNAL */
    wire               both_min = (a == 32'sh80000000) && (b == 32'sh80000000);
    wire signed [31:0] srdhm    = both_min ? 32'sh7fffffff : high[31:0];

    // RSHR: exponent clamped to 0..31; round half away from zero through the threshold.
    wire [4:0]  e         = b_neg ? 5'd0 : rsh;
    wire [31:0] mask      = (32'd1 << e) - 32'd1;
    wire [31:0] remainder = a & mask;
    wire [31:0] threshold = (mask >> 1) + {31'd0, a[31]};
    wire signed [31:0] quotient = a >>> e;
    wire signed [31:0] rshr = quotient + {31'd0, remainder > threshold};

    reg signed [31:0] result;
    always @* begin
        case (op)
            OP_MIN:   result = (a < b) ? a : b;
            OP_MAX:   result = (a > b) ? a : b;
            OP_ADD:   result = a + b;
            OP_SHR:   result = shr_res;
            OP_MUL:   result = prod[31:0];
            OP_SRDHM: result = srdhm;
            OP_RSHR:  result = rshr;
            default:  result = a;
        endcase
    end

    always @(posedge clk) begin
        if (rst) begin
            out_valid  <= 1'b0;
            out_result <= 32'sd0;
        end else begin
            out_valid <= in_valid;
            if (in_valid)
                out_result <= result;
        end
    end
endmodule

`default_nettype wire
