// Derived from olofk/serv rtl/serv_bufreg.v at 9baea86ff0e4 (ISC, see serv/LICENSE).
//   SPDX-FileCopyrightText: 2019 Olof Kindgren <olof@award-winning.me>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// serv_bufreg, rewritten: the shift register is called sreg, the carry register cy_q, the
// adder operands are named and added in the other order, statements are reordered.
module serv_bufreg #(
      parameter [0:0] MDU = 0,
      parameter W = 1,
      parameter B = W-1
)(
   input wire         i_clk,
   input wire         i_cnt0,
   input wire         i_cnt1,
   input wire         i_cnt_done,
   input wire         i_en,
   input wire         i_init,
   input wire         i_mdu_op,
   output wire [1:0]  o_lsb,
   input wire         i_rs1_en,
   input wire         i_imm_en,
   input wire         i_clr_lsb,
   input wire         i_shift_op,
   input wire         i_right_shift_op,
   input wire [2:0]   i_shamt,
   input wire         i_sh_signed,
   input wire [B:0]   i_rs1,
   input wire [B:0]   i_imm,
   output wire [B:0]  o_q,
   output wire [31:0] o_dbus_adr,
   output wire [31:0] o_ext_rs1);

   reg [31:0]  sreg;
   reg [B:0]   cy_q;
   wire [B:0]  mask_lsb;
   wire [B:0]  sum;
   wire        cy;

   wire [B:0]  opa = i_rs1 & {W{i_rs1_en}};
   wire [B:0]  opb = ~mask_lsb & {W{i_imm_en}} & i_imm;

   assign mask_lsb[0] = i_clr_lsb & i_cnt0;
   generate
      if (W > 1) begin : gen_mask_hi
         assign mask_lsb[B:1] = {B{1'b0}};
      end
   endgenerate

   assign {cy, sum} = cy_q + {1'b0, opb} + {1'b0, opa};

   assign o_ext_rs1  = sreg;
   assign o_dbus_adr = {sreg[31:2], 2'b00};

   always @(posedge i_clk) begin
      cy_q    <= {W{1'b0}};
      cy_q[0] <= i_en & cy;
   end

   generate
      if (W == 1) begin : gen_w_eq_1
         wire lo_en = i_init ? (i_cnt1 | i_cnt0) : i_en;
         always @(posedge i_clk) begin
            if (lo_en)
              sreg[1:0] <= {i_init ? sum : sreg[2], sreg[1]};
            if (i_en)
              sreg[31:2] <= {i_init ? sum : {W{i_sh_signed & sreg[31]}}, sreg[31:3]};
         end
         assign o_q = {W{i_en}} & sreg[0];
         assign o_lsb = (i_mdu_op & MDU) ? 2'b00 : sreg[1:0];
      end else if (W == 4) begin : gen_lsb_w_4
         reg [1:0]   lsb_q;
         reg [W-2:0] tail_q;

         wire [2:0] sh_amt
           = !i_shift_op ? 3'd3 :
             i_right_shift_op ? ({1'b0,i_shamt[1:0]}+3'd3) :
             ({1'b0,~i_shamt[1:0]});

         always @(posedge i_clk) begin
            if (i_en) begin
               tail_q <= {B{~i_cnt_done}} & sreg[B:1];
               sreg <= {i_init ? sum : {W{sreg[31] & i_sh_signed}}, sreg[31:W]};
               if (i_cnt0) lsb_q <= sum[1:0];
            end
         end

         wire [2*W+B-2:0] window = {sreg[W+B-1:0],tail_q};
         wire [B:0]       picked = window[{1'b0,sh_amt}+:W];

         assign o_lsb = (i_mdu_op & MDU) ? 2'b00 : lsb_q;
         assign o_q = i_en ? picked : {W{1'b0}};
      end
   endgenerate

endmodule
