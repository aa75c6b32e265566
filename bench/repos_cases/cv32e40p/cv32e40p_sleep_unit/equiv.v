// Derived from openhwgroup/cv32e40p rtl/cv32e40p_sleep_unit.sv at 6033d2b1be32 (Solderpad Hardware License 0.51, see cv32e40p/LICENSE).
//   Copyright 2020 Silicon Labs, Inc.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// cv32e40p_sleep_unit, rewritten: the sticky fetch enable as an or, registers renamed, the
// non-cluster branch first, reset branch inverted; the clock gate instance is kept (its cell
// lives in bhv/); the ASSERT_ON properties are left out.
module cv32e40p_sleep_unit #(
    parameter COREV_CLUSTER = 0
) (
    input  logic clk_ungated_i,
    input  logic rst_n,
    output logic clk_gated_o,
    input  logic scan_cg_en_i,

    output logic core_sleep_o,

    input  logic fetch_enable_i,
    output logic fetch_enable_o,

    input logic if_busy_i,
    input logic ctrl_busy_i,
    input logic lsu_busy_i,
    input logic apu_busy_i,

    input logic pulp_clock_en_i,
    input logic p_elw_start_i,
    input logic p_elw_finish_i,
    input logic debug_p_elw_no_sleep_i,

    input logic wake_from_sleep_i
);

  logic fe_q, busy_q, elw_q;
  logic busy_d, elw_d, gate_en;

  if (!COREV_CLUSTER) begin : g_no_pulp_sleep
    assign busy_d       = apu_busy_i | lsu_busy_i | ctrl_busy_i | if_busy_i;
    assign gate_en      = (busy_q | wake_from_sleep_i) & fe_q;
    assign core_sleep_o = ~gate_en & fe_q;
    assign elw_d        = 1'b0;
  end else begin : g_pulp_sleep
    assign elw_d        = p_elw_start_i | (~p_elw_finish_i & elw_q);
    assign busy_d       = ~elw_d | if_busy_i | apu_busy_i;
    assign gate_en      = (pulp_clock_en_i | busy_q) & fe_q;
    assign core_sleep_o = ~debug_p_elw_no_sleep_i & ~busy_q & elw_d;
  end

  always_ff @(negedge rst_n, posedge clk_ungated_i) begin
    if (rst_n) begin
      fe_q   <= fe_q | fetch_enable_i;
      busy_q <= busy_d;
      elw_q  <= elw_d;
    end else begin
      fe_q   <= 1'b0;
      busy_q <= 1'b0;
      elw_q  <= 1'b0;
    end
  end

  assign fetch_enable_o = fe_q;

  cv32e40p_clock_gate core_clock_gate_i (
      .clk_i       (clk_ungated_i),
      .en_i        (gate_en),
      .scan_cg_en_i(scan_cg_en_i),
      .clk_o       (clk_gated_o)
  );

endmodule
