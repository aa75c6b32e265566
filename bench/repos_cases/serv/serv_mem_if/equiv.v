// Derived from olofk/serv rtl/serv_mem_if.v at 9baea86ff0e4 (ISC, see serv/LICENSE).
//   SPDX-FileCopyrightText: 2018 Olof Kindgren <olof@award-winning.me>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// serv_mem_if, rewritten: the byte selects come from a decoded lsb, dat_valid is reordered,
// the sign register is renamed and the misalign term factored.
`default_nettype none
module serv_mem_if
  #(
    parameter [0:0] WITH_CSR = 1,
    parameter       W = 1,
    parameter       B = W-1
  )
  (
   input wire        i_clk,
   input wire [1:0]  i_bytecnt,
   input wire [1:0]  i_lsb,
   output wire       o_misalign,
   input wire        i_signed,
   input wire        i_word,
   input wire        i_half,
   input wire        i_mdu_op,
   input wire [B:0]  i_bufreg2_q,
   output wire [B:0] o_rd,
   output wire [3:0] o_wb_sel);

   reg sign_q;

   wire [3:0] at = 4'b0001 << i_lsb;

   wire valid = ~|i_bytecnt | i_word | i_mdu_op | (~i_bytecnt[1] & i_half);

   always @(posedge i_clk)
     if (valid)
       sign_q <= i_bufreg2_q[B];

   assign o_rd = valid ? i_bufreg2_q : {W{sign_q & i_signed}};

   assign o_wb_sel = {at[3] | i_word | (i_lsb[1] & i_half),
                      at[2] | i_word,
                      at[1] | i_word | (~i_lsb[1] & i_half),
                      at[0]};

   assign o_misalign = WITH_CSR & ((i_word & (i_lsb[1] | i_lsb[0])) | (i_half & i_lsb[0]));

endmodule
