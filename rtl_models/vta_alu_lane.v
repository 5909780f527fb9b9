// vta_alu_lane.v - one 32-bit lane of the COMPUTE module's ALU (docs/isa.md, "ALU operations").
// The COMPUTE module's ALU array is BATCH x BLOCK_OUT of these lanes in lock step.
//
// result = op(a, b) on int32 a (the destination lane) and b (the immediate or the source lane),
// the same definitions as vtasim_alu_lane() in sim/datapath.cc (tests/rtl holds them equal);
// op 7 passes a through (the decoder refuses op 7 before it gets here). Operand beats (one ACC
// read port: an immediate uop takes one beat, a tensor-tensor uop two) and timing (latency
// DEPTH clocks, set to the GEMM lane's so results reach ACC in issue order): docs/rtl.md
// "vta_alu_lane".
`default_nettype none

module vta_alu_lane #(
    parameter integer DEPTH = 1
) (
    input  wire               clk,
    input  wire               rst,        // synchronous, clears the valid bits
    input  wire               in_valid,   // a beat: in_data is valid
    input  wire        [2:0]  op,         // first beat only
    input  wire               use_imm,    // first beat only
    input  wire signed [31:0] imm,        // first beat only, sign-extended
    input  wire signed [31:0] in_data,    // first beat: a; second beat: b
    output wire               out_valid,
    output wire signed [31:0] out_result,
    output wire        [7:0]  out8
);
    // The operand beats: pend is set between a tensor uop's two beats, holding a and op.
    reg               pend;
    reg signed [31:0] a_r;
    reg        [2:0]  op_r;
    wire              issue = in_valid & (pend | use_imm);
    wire signed [31:0] ia  = pend ? a_r : in_data;
    wire signed [31:0] ib  = pend ? in_data : imm;
    wire       [2:0]   iop = pend ? op_r : op;

    localparam [2:0] OP_MIN = 3'd0, OP_MAX = 3'd1, OP_ADD = 3'd2, OP_SHR = 3'd3,
                     OP_MUL = 3'd4, OP_SRDHM = 3'd5, OP_RSHR = 3'd6;
    localparam signed [63:0] NUDGE_POS = 64'sd1073741824;          // 2^30
    localparam signed [63:0] NUDGE_NEG = 64'sd1 - 64'sd1073741824; // 1 - 2^30

    // op(a, b). A function called only inside the clocked block, so the verilated model
    // evaluates the ALU at the clock edge of an issuing beat and not at every evaluation (the
    // same hardware: combinational logic feeding stage 1).
    function signed [31:0] alu(input [2:0] f, input signed [31:0] a, input signed [31:0] b);
        reg        [4:0]  rsh, lsh, e;
        reg        [32:0] b_mag;
        reg signed [63:0] prod, nudged, biased;
        /* verilator lint_off UNUSEDSIGNAL */
        reg signed [63:0] high;
        /* verilator lint_on UNUSEDSIGNAL */
        reg        [31:0] mask, remainder, threshold;
        reg signed [31:0] quotient; // its own signed variable: >>> stays arithmetic
        begin
            // Shift amounts. b >= 0 clamps to 31 when any bit above bit 4 is set; for b < 0
            // the magnitude -b is formed in 33 bits so that -INT32_MIN does not wrap.
            rsh   = (|b[30:5]) ? 5'd31 : b[4:0];
            b_mag = 33'd0 - {b[31], b};
            lsh   = (|b_mag[32:5]) ? 5'd31 : b_mag[4:0];
            // The full 64-bit product, shared by MUL (low half) and SRDHM.
            prod  = {{32{a[31]}}, a} * {{32{b[31]}}, b};
            // SRDHM: the division by 2^31 truncates toward zero, i.e. a negative sum is
            // biased by 2^31 - 1 before the arithmetic shift. Only the low 32 bits of the
            // quotient are kept (they hold every non-saturated result).
            nudged = prod + (prod[63] ? NUDGE_NEG : NUDGE_POS);
            biased = nudged + (nudged[63] ? 64'sh7fffffff : 64'sh0);
            high   = biased >>> 31;
            // RSHR: exponent clamped to 0..31; round half away from zero through the
            // threshold.
            e         = b[31] ? 5'd0 : rsh;
            mask      = (32'd1 << e) - 32'd1;
            remainder = a & mask;
            threshold = (mask >> 1) + {31'd0, a[31]};
            quotient  = a >>> e;
            case (f)
                OP_MIN:   alu = (a < b) ? a : b;
                OP_MAX:   alu = (a > b) ? a : b;
                OP_ADD:   alu = a + b;
                OP_SHR:   alu = b[31] ? a << lsh : a >>> rsh;
                OP_MUL:   alu = prod[31:0];
                OP_SRDHM: alu = (a == 32'sh80000000 && b == 32'sh80000000) ? 32'sh7fffffff
                                                                           : high[31:0];
                OP_RSHR:  alu = quotient + {31'd0, remainder > threshold};
                default:  alu = a;
            endcase
        end
    endfunction

    always @(posedge clk) begin
        if (rst)
            pend <= 1'b0;
        else if (in_valid)
            pend <= ~pend & ~use_imm;
        if (in_valid & ~pend) begin
            a_r  <= in_data;
            op_r <= op;
        end
    end

    // The result pipeline: stage 1 registers the result, stages 2..DEPTH delay it.
    reg [DEPTH:1]     valid_p;
    reg signed [31:0] res_p [1:DEPTH];
    integer i;
    always @(posedge clk) begin
        if (rst)
            valid_p <= {DEPTH{1'b0}};
        else begin
            valid_p[1] <= issue;
            for (i = 2; i <= DEPTH; i = i + 1)
                valid_p[i] <= valid_p[i-1];
        end
        if (issue)
            res_p[1] <= alu(iop, ia, ib);
        for (i = 2; i <= DEPTH; i = i + 1)
            if (valid_p[i-1])
                res_p[i] <= res_p[i-1];
    end

    assign out_valid  = valid_p[DEPTH];
    assign out_result = res_p[DEPTH];
    assign out8       = res_p[DEPTH][7:0];
endmodule

`default_nettype wire
