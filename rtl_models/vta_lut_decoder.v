// vta_lut_decoder.v - a streaming decoder for TFLM LUT-compressed tensors, as a LUT
// decompressor in VTA's LOAD path would be (runtime/lut.h defines the format).
//
// Format, channels, rows, errors, ports and micro-architecture: docs/rtl.md "vta_lut_decoder".
// In short: index i is the `bitwidth`-bit field at bits [i*bw, i*bw + bw) of the index string,
// MSB first; its value is table[table_base + channel(i) * stride + index]. A bit buffer of
// IN_BITS + 7 * INDICES_PER_CYCLE bits, whose end is always on a byte of the string, emits up
// to INDICES_PER_CYCLE fields per cycle (min(INDICES_PER_CYCLE, IN_BITS / bw) in steady state);
// a word accepted at edge t yields values visible after edge t+1. No backpressure on the output.
`default_nettype none

module vta_lut_decoder #(
    parameter integer IN_BITS           = 64, // a multiple of 8
    parameter integer INDICES_PER_CYCLE = 16,
    parameter integer VALUE_BITS        = 32, // 8 or 32
    parameter integer TABLE_AW          = 12  // value table of 2^TABLE_AW entries
) (
    input  wire                                    clk,
    input  wire                                    rst,        // synchronous
    // job, sampled when start is high (a start aborts a running job)
    input  wire                                    start,
    input  wire [2:0]                              bitwidth,   // 1..7
    input  wire [31:0]                             count,      // indices to decode
    input  wire [7:0]                              stride,     // entries per channel, 1..128
    input  wire [31:0]                             run_len,    // >= 1
    input  wire [31:0]                             channels,   // >= 1
    input  wire [31:0]                             block_len,  // indices per block, 0: one block
    input  wire [31:0]                             row_len,    // indices per padded row, 0: none
    input  wire [2:0]                              skip_bits,
    input  wire [TABLE_AW-1:0]                     table_base,
    // value table write port: max(1, IN_BITS / VALUE_BITS) entries per word
    input  wire                                    tbl_we,
    input  wire [TABLE_AW-$clog2((IN_BITS > VALUE_BITS ? IN_BITS : VALUE_BITS) / VALUE_BITS)-1:0]
                                                   tbl_waddr,
    input  wire [(IN_BITS > VALUE_BITS ? IN_BITS : VALUE_BITS)-1:0]
                                                   tbl_wdata,
    // index string
    input  wire                                    in_valid,
    input  wire [IN_BITS-1:0]                      in_data,
    output wire                                    in_ready,
    // decoded values
    output reg                                     out_valid,
    output reg  [$clog2(INDICES_PER_CYCLE+1)-1:0]  out_count,
    output reg  [VALUE_BITS*INDICES_PER_CYCLE-1:0] out_values,
    output reg                                     busy,       // job accepted, indices left
    output reg                                     err,
    output reg  [31:0]                             err_elem
);
    localparam integer IPC      = INDICES_PER_CYCLE;
    localparam integer VB       = VALUE_BITS;
    localparam integer LANES    = IN_BITS / 8;
    localparam integer TBL_BITS = IN_BITS > VB ? IN_BITS : VB;
    localparam integer TE       = TBL_BITS / VB;    // table entries per port word
    localparam integer TLB      = $clog2(TE);
    localparam integer DEPTH    = 1 << TABLE_AW;
    localparam integer BUF_BITS = IN_BITS + 7 * IPC;
    localparam integer EXT_BITS = BUF_BITS + 7;     // the buffer plus zero bits below it
    localparam integer CW       = $clog2(BUF_BITS + 1);
    localparam integer NW       = $clog2(IPC + 1);

    reg [VB-1:0] table_mem [0:DEPTH-1];

    // job registers
    reg [2:0]          bw_r;
    reg [7:0]          stride_r;
    reg [31:0]         run_r;
    reg [31:0]         chans_r;
    reg [31:0]         row_r;
    reg [31:0]         blk_r;       // indices per channel block (0: the job is one block)
    reg [TABLE_AW-1:0] bstep_r;     // channels * stride: the next block's tables
    reg [2:0]          skip_r;      // bits still to drop from the next word

    // stream state
    reg [BUF_BITS-1:0] buf_r;       // valid bits at the top; the last one ends a string byte
    reg [CW-1:0]       cnt_r;       // number of valid bits
    reg [31:0]         left_r;      // indices still to emit
    reg [31:0]         elem_r;      // number of the next index
    reg [31:0]         pos_r;       // position inside the current channel run
    reg [31:0]         chan_r;      // current channel
    reg [TABLE_AW-1:0] base_r;      // bbase_r + chan_r * stride
    reg [31:0]         bpos_r;      // position inside the current block
    reg [TABLE_AW-1:0] bbase_r;     // first table of the current block
    reg [31:0]         rpos_r;      // position inside the current row

    // ---- this cycle's fields, lookups and next state ----
    wire [EXT_BITS-1:0] ext = {buf_r, 7'd0};
    wire [CW-1:0]       bw_c = {{(CW-3){1'b0}}, bw_r};

    reg                    go;          // every lane so far had its field
    reg [NW-1:0]           n;           // fields emitted this cycle
    reg [CW-1:0]           off;         // bit offset of the next field (pads included)
    reg [CW-1:0]           fend;        // end of this lane's field
    reg [VB*IPC-1:0]       vals;
    reg                    bad_any;
    reg [NW-1:0]           bad_lane;
    reg [31:0]             p_nx, c_nx, r_nx, q_nx;
    reg [TABLE_AW-1:0]     b_nx, bb_nx;
    reg [6:0]              field, idx;
    reg [TABLE_AW-1:0]     addr;
    integer                j;

    always @* begin
        go       = busy;
        n        = {NW{1'b0}};
        off      = {CW{1'b0}};
        vals     = {(VB*IPC){1'b0}};
        bad_any  = 1'b0;
        bad_lane = {NW{1'b0}};
        p_nx     = pos_r;
        c_nx     = chan_r;
        b_nx     = base_r;
        r_nx     = rpos_r;
        q_nx     = bpos_r;
        bb_nx    = bbase_r;
        for (j = 0; j < IPC; j = j + 1) begin
            // Lane j takes the next field if it is in the buffer and the job wants it.
            fend  = off + bw_c;
            field = ext[EXT_BITS - 1 - {{(32-CW){1'b0}}, off} -: 7];
            idx   = field >> (3'd7 - bw_r);
            addr  = b_nx + {{(TABLE_AW-7){1'b0}}, idx};
            if (!(fend <= cnt_r && {{(32-NW){1'b0}}, n} < left_r))
                go = 1'b0;
            if (go) begin
                vals[VB*j +: VB] = table_mem[addr];
                n = n + 1'b1;
                if ({1'b0, idx} >= stride_r && !bad_any) begin
                    bad_any  = 1'b1;
                    bad_lane = j[NW-1:0];
                end
                // Channel bookkeeping.
                if (p_nx + 32'd1 == run_r) begin
                    p_nx = 32'd0;
                    if (c_nx + 32'd1 == chans_r) begin
                        c_nx = 32'd0;
                        b_nx = bb_nx;
                    end else begin
                        c_nx = c_nx + 32'd1;
                        b_nx = b_nx + {{(TABLE_AW-8){1'b0}}, stride_r};
                    end
                end else begin
                    p_nx = p_nx + 32'd1;
                end
                // Block bookkeeping: a block's last index moves to the next block's tables.
                if (blk_r != 32'd0) begin
                    if (q_nx + 32'd1 == blk_r) begin
                        q_nx  = 32'd0;
                        p_nx  = 32'd0;
                        c_nx  = 32'd0;
                        bb_nx = bb_nx + bstep_r;
                        b_nx  = bb_nx;
                    end else begin
                        q_nx = q_nx + 32'd1;
                    end
                end
                // Row bookkeeping: a row's last field is followed by its pad to the byte.
                // The buffer ends on a byte, so the pad is (cnt_r - fend) mod 8 bits, and
                // it is in the buffer whenever the field is.
                off = fend;
                if (row_r != 32'd0) begin
                    if (r_nx + 32'd1 == row_r) begin
                        r_nx = 32'd0;
                        off  = fend + {{(CW-3){1'b0}}, cnt_r[2:0] - fend[2:0]};
                    end else begin
                        r_nx = r_nx + 32'd1;
                    end
                end
            end
        end
    end

    // ---- the word path ----
    wire [CW-1:0] cnt_after = cnt_r - off;
    assign in_ready = busy && ({{(32-CW){1'b0}}, cnt_after} <= BUF_BITS - IN_BITS);
    wire take = in_valid && in_ready;

    // The bus word in string order: byte 0 on top.
    reg [IN_BITS-1:0] word_msb;
    integer i;
    always @* begin
        for (i = 0; i < LANES; i = i + 1)
            word_msb[IN_BITS - 1 - 8*i -: 8] = in_data[8*i +: 8];
    end

    wire [IN_BITS-1:0]  word_kept = word_msb << skip_r;
    wire [BUF_BITS-1:0] word_wide = {word_kept, {(BUF_BITS-IN_BITS){1'b0}}};
    wire [BUF_BITS-1:0] buf_keep  = buf_r << off;
    wire [BUF_BITS-1:0] buf_next  = take ? (buf_keep | (word_wide >> cnt_after)) : buf_keep;
    wire [CW-1:0]       cnt_next  = take ? cnt_after + IN_BITS[CW-1:0] - {{(CW-3){1'b0}}, skip_r}
                                         : cnt_after;

    // ---- the table port ----
    generate
        if (TLB == 0) begin : g_tbl_one
            always @(posedge clk)
                if (tbl_we)
                    table_mem[tbl_waddr] <= tbl_wdata;
        end else begin : g_tbl_many
            integer t;
            always @(posedge clk)
                if (tbl_we)
                    for (t = 0; t < TE; t = t + 1)
                        table_mem[{tbl_waddr, t[TLB-1:0]}] <= tbl_wdata[VB*t +: VB];
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            busy      <= 1'b0;
            out_valid <= 1'b0;
            out_count <= {NW{1'b0}};
            cnt_r     <= {CW{1'b0}};
            err       <= 1'b0;
            err_elem  <= 32'd0;
        end else if (start) begin
            busy      <= count != 32'd0;
            out_valid <= 1'b0;
            out_count <= {NW{1'b0}};
            bw_r      <= bitwidth;
            stride_r  <= stride;
            run_r     <= run_len;
            chans_r   <= channels;
            row_r     <= row_len;
            blk_r     <= block_len;
            bstep_r   <= channels[TABLE_AW-1:0] * {{(TABLE_AW-8){1'b0}}, stride};
            bpos_r    <= 32'd0;
            bbase_r   <= table_base;
            skip_r    <= skip_bits;
            buf_r     <= {BUF_BITS{1'b0}};
            cnt_r     <= {CW{1'b0}};
            left_r    <= count;
            elem_r    <= 32'd0;
            pos_r     <= 32'd0;
            chan_r    <= 32'd0;
            base_r    <= table_base;
            rpos_r    <= 32'd0;
            err       <= 1'b0;
            err_elem  <= 32'd0;
        end else begin
            out_valid  <= n != {NW{1'b0}};
            out_count  <= n;
            out_values <= vals;
            if (busy) begin
                buf_r  <= buf_next;
                cnt_r  <= cnt_next;
                left_r <= left_r - {{(32-NW){1'b0}}, n};
                elem_r <= elem_r + {{(32-NW){1'b0}}, n};
                pos_r  <= p_nx;
                chan_r <= c_nx;
                base_r <= b_nx;
                rpos_r <= r_nx;
                bpos_r <= q_nx;
                bbase_r <= bb_nx;
                if (take)
                    skip_r <= 3'd0;
                if (left_r == {{(32-NW){1'b0}}, n})
                    busy <= 1'b0;
                if (bad_any && !err) begin
                    err      <= 1'b1;
                    err_elem <= elem_r + {{(32-NW){1'b0}}, bad_lane};
                end
            end
        end
    end
endmodule

`default_nettype wire
