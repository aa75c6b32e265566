// Derived from lowRISC/ibex rtl/ibex_csr.sv at 8b8ee086aef7 (Apache-2.0, see ibex/LICENSE).
//   Copyright lowRISC contributors.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// ibex_csr, rewritten: the register renamed, the reset branch inverted, the shadow check as an
// xor reduction. It keeps the repository's ASSERT_KNOWN macro (from prim_assert.sv) without the
// `include: a candidate may use the project's macros.
module ibex_csr #(
  parameter int unsigned    Width      = 32,
  parameter bit             ShadowCopy = 1'b0,
  parameter bit [Width-1:0] ResetValue = '0
 ) (
  input  logic             clk_i,
  input  logic             rst_ni,

  input  logic [Width-1:0] wr_data_i,
  input  logic             wr_en_i,
  output logic [Width-1:0] rd_data_o,

  output logic             rd_error_o
);

  logic [Width-1:0] value_q;

  assign rd_data_o = value_q;

  always_ff @(negedge rst_ni or posedge clk_i) begin
    if (rst_ni) begin
      if (wr_en_i) value_q <= wr_data_i;
    end else begin
      value_q <= ResetValue;
    end
  end

  if (!ShadowCopy) begin : gen_no_shadow
    assign rd_error_o = 1'b0;
  end else begin : gen_shadow
    logic [Width-1:0] inv_q;

    always_ff @(negedge rst_ni or posedge clk_i) begin
      if (!rst_ni)      inv_q <= ~ResetValue;
      else if (wr_en_i) inv_q <= ~wr_data_i;
    end

    // the shadow holds the complement: every bit of value ^ shadow must be 1
    assign rd_error_o = ~&(value_q ^ inv_q);
  end

  `ASSERT_KNOWN(IbexCSREnValid, wr_en_i)

endmodule
