// Derived from openhwgroup/cv32e40p rtl/cv32e40p_int_controller.sv at 6033d2b1be32 (Solderpad Hardware License 0.51, see cv32e40p/LICENSE).
//   Copyright 2018 ETH Zurich and University of Bologna.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// cv32e40p_int_controller, rewritten: the 32-way priority if-chain becomes "lowest priority
// first, later matches win" with a loop over the custom and reserved lines 12..31; registers
// renamed, expressions reordered.
module cv32e40p_int_controller
  import cv32e40p_pkg::*;
#(
    parameter PULP_SECURE = 0
) (
    input logic clk,
    input logic rst_n,

    input logic [31:0] irq_i,
    input logic        irq_sec_i,

    output logic       irq_req_ctrl_o,
    output logic       irq_sec_ctrl_o,
    output logic [4:0] irq_id_ctrl_o,
    output logic       irq_wu_ctrl_o,

    input  logic     [31:0] mie_bypass_i,
    output logic     [31:0] mip_o,
    input  logic            m_ie_i,
    input  logic            u_ie_i,
    input  PrivLvl_t        current_priv_lvl_i
);

  logic [31:0] pending_q;
  logic        sec_q;
  logic [31:0] enabled;
  logic        irq_on;

  always_ff @(negedge rst_n, posedge clk) begin
    if (!rst_n) begin
      sec_q     <= 1'b0;
      pending_q <= 32'd0;
    end else begin
      sec_q     <= irq_sec_i;
      pending_q <= IRQ_MASK & irq_i;
    end
  end

  assign enabled = mie_bypass_i & pending_q;

  generate
    if (!PULP_SECURE) begin : gen_no_pulp_secure
      assign irq_on = m_ie_i;
    end else begin : gen_pulp_secure
      assign irq_on = (current_priv_lvl_i == PRIV_LVL_M && m_ie_i) ||
                      (current_priv_lvl_i == PRIV_LVL_U && (irq_sec_i || u_ie_i));
    end
  endgenerate

  always_comb begin
    irq_id_ctrl_o = CSR_MTIX_BIT;  // nothing pending: value not relevant
    if (enabled[4])  irq_id_ctrl_o = 5'd4;
    if (enabled[0])  irq_id_ctrl_o = 5'd0;
    if (enabled[8])  irq_id_ctrl_o = 5'd8;
    if (enabled[5])  irq_id_ctrl_o = 5'd5;
    if (enabled[1])  irq_id_ctrl_o = 5'd1;
    if (enabled[9])  irq_id_ctrl_o = 5'd9;
    if (enabled[6])  irq_id_ctrl_o = 5'd6;
    if (enabled[2])  irq_id_ctrl_o = 5'd2;
    if (enabled[10]) irq_id_ctrl_o = 5'd10;
    if (enabled[7])  irq_id_ctrl_o = 5'd7;   // MTI
    if (enabled[3])  irq_id_ctrl_o = 5'd3;   // MSI
    if (enabled[11]) irq_id_ctrl_o = 5'd11;  // MEI
    for (int i = 12; i < 32; i++) begin
      if (enabled[i]) irq_id_ctrl_o = i[4:0];
    end
  end

  assign irq_req_ctrl_o = irq_on && (enabled != 32'd0);
  assign irq_wu_ctrl_o  = |(mie_bypass_i & irq_i);
  assign irq_sec_ctrl_o = sec_q;
  assign mip_o          = pending_q;

endmodule
