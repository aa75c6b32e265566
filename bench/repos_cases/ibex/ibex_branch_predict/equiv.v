// Derived from lowRISC/ibex rtl/ibex_branch_predict.sv at 8b8ee086aef7 (Apache-2.0, see ibex/LICENSE).
//   Copyright lowRISC contributors.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// ibex_branch_predict, rewritten: immediates named per use, the one-hot select as a ternary
// chain in another order (the four kinds exclude each other), the target sum commuted and
// the opcode compares written as literals; the assertion is left out.
module ibex_branch_predict (
  input  logic clk_i,
  input  logic rst_ni,

  input  logic [31:0] fetch_rdata_i,
  input  logic [31:0] fetch_pc_i,
  input  logic        fetch_valid_i,

  output logic        predict_branch_taken_o,
  output logic [31:0] predict_branch_pc_o
);
  import ibex_pkg::*;

  logic [31:0] off_jal, off_br, off_cj, off_cb, offset;
  logic is_jal, is_br, is_cj, is_cb;

  assign off_cb  = { {23{fetch_rdata_i[12]}}, fetch_rdata_i[12], fetch_rdata_i[6:5],
                     fetch_rdata_i[2], fetch_rdata_i[11:10], fetch_rdata_i[4:3], 1'b0 };
  assign off_cj  = { {20{fetch_rdata_i[12]}}, fetch_rdata_i[12], fetch_rdata_i[8],
                     fetch_rdata_i[10:9], fetch_rdata_i[6], fetch_rdata_i[7], fetch_rdata_i[2],
                     fetch_rdata_i[11], fetch_rdata_i[5:3], 1'b0 };
  assign off_br  = { {20{fetch_rdata_i[31]}}, fetch_rdata_i[7], fetch_rdata_i[30:25],
                     fetch_rdata_i[11:8], 1'b0 };
  assign off_jal = { {12{fetch_rdata_i[31]}}, fetch_rdata_i[19:12], fetch_rdata_i[20],
                     fetch_rdata_i[30:21], 1'b0 };

  wire c1 = fetch_rdata_i[1:0] == 2'b01;
  assign is_cb  = c1 & (fetch_rdata_i[15:14] == 2'b11);
  assign is_cj  = c1 & (fetch_rdata_i[14:13] == 2'b01);
  assign is_br  = fetch_rdata_i[6:0] == 7'h63;
  assign is_jal = fetch_rdata_i[6:0] == 7'h6f;

  assign offset = is_cb  ? off_cb  :
                  is_cj  ? off_cj  :
                  is_jal ? off_jal : off_br;

  assign predict_branch_pc_o = offset + fetch_pc_i;
  assign predict_branch_taken_o = fetch_valid_i &
      (is_jal | is_cj | (is_br & fetch_rdata_i[31]) | (is_cb & fetch_rdata_i[12]));
endmodule
