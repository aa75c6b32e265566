// Derived from olofk/serv rtl/serv_alu.v at 9baea86ff0e4 (ISC, see serv/LICENSE).
//   SPDX-FileCopyrightText: 2018 Olof Kindgren <olof@award-winning.me>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// serv_alu, rewritten: internal signals renamed, sum operands and o_rd terms reordered,
// the boolean unit and the less-than bit restructured.
`default_nettype none
module serv_alu
  #(
   parameter W = 1,
   parameter B = W-1
  )
  (
   input wire        clk,
   input wire        i_en,
   input wire        i_cnt0,
   output wire       o_cmp,
   input wire        i_sub,
   input wire [1:0]  i_bool_op,
   input wire        i_cmp_eq,
   input wire        i_cmp_sig,
   input wire [2:0]  i_rd_sel,
   input wire [B:0]  i_rs1,
   input wire [B:0]  i_op_b,
   input wire [B:0]  i_buf,
   output wire [B:0] o_rd);

   reg  [B:0] carry_q;
   reg        cmp_q;
   wire       carry_out;
   wire [B:0] sum;
   wire [B:0] slt_bits;
   wire [B:0] logic_res;

   wire [B:0] opb_inv = {W{i_sub}} ^ i_op_b;
   assign {carry_out, sum} = carry_q + opb_inv + i_rs1;

   // one-bit sum of the sign bits and the carry: the sign of rs1 - op_b
   wire lt = ~(i_op_b[B] & i_cmp_sig) ^ (i_rs1[B] & i_cmp_sig) ^ carry_out;
   wire eq = (i_cnt0 | cmp_q) & ~|sum;

   assign o_cmp = !i_cmp_eq ? lt : eq;

   assign logic_res = (i_op_b & i_rs1 & {W{i_bool_op[1]}}) |
                      ({W{~i_bool_op[0]}} & (i_op_b ^ i_rs1));

   assign slt_bits[0] = i_cnt0 & cmp_q;
   generate
      if (W > 1) begin : gen_slt_hi
         assign slt_bits[B:1] = {B{1'b0}};
      end
   endgenerate

   assign o_rd = ({W{i_rd_sel[2]}} & logic_res) |
                 ({W{i_rd_sel[0]}} & sum) |
                 i_buf |
                 ({W{i_rd_sel[1]}} & slt_bits);

   always @(posedge clk) begin
      if (i_en)
        cmp_q <= o_cmp;
      carry_q    <= {W{1'b0}};
      carry_q[0] <= i_en ? carry_out : i_sub;
   end

endmodule
