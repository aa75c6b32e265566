// Derived from openhwgroup/cv32e40p rtl/cv32e40p_obi_interface.sv at 6033d2b1be32 (Solderpad Hardware License 0.51, see cv32e40p/LICENSE).
//   Copyright 2020 Silicon Labs, Inc.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// cv32e40p_obi_interface, rewritten: the two-state FSM re-encoded as one "pass-through" bit
// (1 in TRANSPARENT, so the reset value is 1), the captured request as one 75-bit register,
// the output mux as one concatenated select.
module cv32e40p_obi_interface #(
    parameter TRANS_STABLE = 0
) (
    input logic clk,
    input logic rst_n,

    input  logic        trans_valid_i,
    output logic        trans_ready_o,
    input  logic [31:0] trans_addr_i,
    input  logic        trans_we_i,
    input  logic [ 3:0] trans_be_i,
    input  logic [31:0] trans_wdata_i,
    input  logic [ 5:0] trans_atop_i,

    output logic        resp_valid_o,
    output logic [31:0] resp_rdata_o,
    output logic        resp_err_o,

    output logic        obi_req_o,
    input  logic        obi_gnt_i,
    output logic [31:0] obi_addr_o,
    output logic        obi_we_o,
    output logic [ 3:0] obi_be_o,
    output logic [31:0] obi_wdata_o,
    output logic [ 5:0] obi_atop_o,
    input  logic [31:0] obi_rdata_i,
    input  logic        obi_rvalid_i,
    input  logic        obi_err_i
);

  assign resp_err_o   = obi_err_i;
  assign resp_rdata_o = obi_rdata_i;
  assign resp_valid_o = obi_rvalid_i;

  wire [74:0] live = {trans_addr_i, trans_we_i, trans_be_i, trans_wdata_i, trans_atop_i};

  if (!TRANS_STABLE) begin : gen_no_trans_stable
    logic        pass_q;  // 1: requests pass through; 0: a stalled request is held
    logic [74:0] held_q;

    wire stall = pass_q & obi_req_o & ~obi_gnt_i;

    assign obi_req_o = ~pass_q | trans_valid_i;
    assign {obi_addr_o, obi_we_o, obi_be_o, obi_wdata_o, obi_atop_o} = pass_q ? live : held_q;
    assign trans_ready_o = pass_q;

    always_ff @(negedge rst_n, posedge clk) begin
      if (!rst_n) begin
        pass_q <= 1'b1;
        held_q <= '0;
      end else begin
        if (stall) held_q <= live;
        pass_q <= pass_q ? ~stall : obi_gnt_i;
      end
    end
  end else begin : gen_trans_stable
    assign trans_ready_o = obi_gnt_i;
    assign obi_req_o = trans_valid_i;
    assign {obi_addr_o, obi_we_o, obi_be_o, obi_wdata_o, obi_atop_o} = live;
  end

endmodule
