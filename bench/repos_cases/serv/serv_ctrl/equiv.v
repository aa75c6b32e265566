// Derived from olofk/serv rtl/serv_ctrl.v at 9baea86ff0e4 (ISC, see serv/LICENSE).
//   SPDX-FileCopyrightText: 2018 Olof Kindgren <olof@award-winning.me>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// serv_ctrl, rewritten: the two serial adders with their carries renamed and their operands
// reordered, the next-pc mux nested the other way, the reset mux written as if/else.
// (The simulation-only `initial` for RESET_STRATEGY == "NONE" is left out: candidates may not
// hold initial blocks, and it is inactive at the default RESET_STRATEGY = "MINI".)
`default_nettype none
module serv_ctrl
  #(parameter RESET_STRATEGY = "MINI",
    parameter RESET_PC = 32'd0,
    parameter WITH_CSR = 1,
    parameter W = 1,
    parameter B = W-1
  )
  (
   input wire        clk,
   input wire        i_rst,
   input wire        i_pc_en,
   input wire        i_cnt12to31,
   input wire        i_cnt0,
   input wire        i_cnt1,
   input wire        i_cnt2,
   input wire        i_jump,
   input wire        i_jal_or_jalr,
   input wire        i_utype,
   input wire        i_pc_rel,
   input wire        i_trap,
   input wire        i_iscomp,
   input wire [B:0]  i_imm,
   input wire [B:0]  i_buf,
   input wire [B:0]  i_csr_pc,
   output wire [B:0] o_rd,
   output wire [B:0] o_bad_pc,
   output reg [31:0] o_ibus_adr);

   reg        inc_cy_q;
   reg        tgt_cy_q;
   wire       inc_cy;
   wire       tgt_cy;
   wire [B:0] inc_sum;
   wire [B:0] tgt_sum;
   wire [B:0] tgt_even;
   wire [B:0] step;
   wire [B:0] nxt;
   wire [B:0] cur = o_ibus_adr[B:0];

   wire [B:0] inc_cin = inc_cy_q;  // zero-extended carry
   wire [B:0] tgt_cin = tgt_cy_q;

   generate
      if (W == 1) begin : gen_plus_4_w_eq_1
         assign step = i_iscomp ? i_cnt1 : i_cnt2;
      end else if (W == 4) begin : gen_plus_4_w_eq_4
         assign step = (i_cnt1 | i_cnt0) ? (i_iscomp ? 2 : 4) : 0;
      end
   endgenerate

   assign {inc_cy, inc_sum} = inc_cin + step + cur;

   wire [B:0] opa = i_utype ? ({W{i_cnt12to31}} & i_imm) : i_buf;
   wire [B:0] opb = cur & {W{i_pc_rel}};
   assign {tgt_cy, tgt_sum} = tgt_cin + opb + opa;

   assign tgt_even[0] = ~i_cnt0 & tgt_sum[0];
   generate
      if (W > 1) begin : gen_w_gt_1
         assign tgt_even[B:1] = tgt_sum[B:1];
      end
   endgenerate

   generate
      if (|WITH_CSR) begin : gen_csr
         if (W == 1) begin : gen_new_pc_w_eq_1
            assign nxt = !i_trap ? (i_jump ? tgt_even : inc_sum)
                                 : (i_csr_pc & !(i_cnt1 || i_cnt0));
         end else if (W == 4) begin : gen_new_pc_w_eq_4
            assign nxt = !i_trap ? (i_jump ? tgt_even : inc_sum)
                                 : (i_csr_pc & ((i_cnt1 || i_cnt0) ? 4'b1100 : 4'b1111));
         end
      end else begin : gen_no_csr
         assign nxt = i_jump ? tgt_even : inc_sum;
      end
   endgenerate

   assign o_bad_pc = tgt_even;
   assign o_rd = (inc_sum & {W{i_jal_or_jalr}}) | (tgt_even & {W{i_utype}});

   always @(posedge clk) begin
      tgt_cy_q <= tgt_cy & i_pc_en;
      inc_cy_q <= inc_cy & i_pc_en;
      if (RESET_STRATEGY != "NONE" && i_rst)
        o_ibus_adr <= RESET_PC;
      else if (i_pc_en)
        o_ibus_adr <= {nxt, o_ibus_adr[31:W]};
   end
endmodule
