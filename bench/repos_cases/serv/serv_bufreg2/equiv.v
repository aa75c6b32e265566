// Derived from olofk/serv rtl/serv_bufreg2.v at 9baea86ff0e4 (ISC, see serv/LICENSE).
//   SPDX-FileCopyrightText: 2022 Olof Kindgren <olof@award-winning.me>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// serv_bufreg2, rewritten: the data word is one 32-bit register split by slices, byte_valid is
// written as "lsb + bytecnt < 4", the o_q mux is a case statement, statements reordered.
module serv_bufreg2
  #(parameter W = 1,
    parameter B=W-1)
  (
   input wire         i_clk,
   input wire         i_en,
   input wire         i_init,
   input wire         i_cnt7,
   input wire         i_cnt_done,
   input wire         i_sh_right,
   input wire [1:0]   i_lsb,
   input wire [1:0]   i_bytecnt,
   output wire        o_sh_done,
   input wire         i_op_b_sel,
   input wire         i_shift_op,
   input wire [B:0]   i_rs2,
   input wire [B:0]   i_imm,
   output wire [B:0]  o_op_b,
   output reg  [B:0]  o_q,
   output wire [31:0] o_dat,
   input wire         i_load,
   input wire [31:0]  i_dat);

   reg [31:0] word;

   // the byte is still in range when lsb + bytecnt < 4
   wire [2:0] pos = {1'b0, i_bytecnt} + {1'b0, i_lsb};
   wire in_range = ~pos[2];

   wire down_cnt = i_shift_op & (~i_init | (i_sh_right & i_cnt_done));
   wire shift_en = i_shift_op ? (i_init & i_en & ~|i_bytecnt) : (in_range & i_en);

   assign o_op_b = i_op_b_sel ? i_rs2 : i_imm;
   assign o_dat  = word;

   wire [7:0] next_cnt;
   generate
      if (W == 1) begin : gen_cnt_w_eq_1
         assign next_cnt = {o_op_b, word[31], word[29:24] - 6'd1};
      end else if (W == 4) begin : gen_cnt_w_eq_4
         assign next_cnt = {o_op_b[3:2], word[29:24] - 6'd4};
      end
   endgenerate

   wire [7:0] hi_next = down_cnt ? next_cnt : {o_op_b, word[31:24+W]};

   assign o_sh_done = hi_next[5];

   always @(*) begin
      case (i_lsb)
        2'd0: o_q = word[W-1:0];
        2'd1: o_q = word[W+7:8];
        2'd2: o_q = word[W+15:16];
        default: o_q = word[W+23:24];
      endcase
   end

   always @(posedge i_clk) begin
      if (i_load | shift_en)
        word[23:0] <= i_load ? i_dat[23:0] : {word[24+B:24], word[23:W]};
      if (i_load | down_cnt | shift_en)
        word[31:24] <= i_load ? i_dat[31:24]
                              : {hi_next[7:6], hi_next[5] & ~(i_cnt7 & i_shift_op & ~down_cnt),
                                 hi_next[4:0]};
   end

endmodule
