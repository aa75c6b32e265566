// Derived from openhwgroup/cv32e40p rtl/cv32e40p_hwloop_regs.sv at 6033d2b1be32 (Solderpad Hardware License 0.51, see cv32e40p/LICENSE).
//   Copyright 2018 ETH Zurich and University of Bologna.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// cv32e40p_hwloop_regs, rewritten: one generate block per register set instead of indexed
// writes, registers renamed, the decrement as an addition of all ones; the ASSERT_ON property
// left out.
module cv32e40p_hwloop_regs #(
    parameter N_REGS     = 2,
    parameter N_REG_BITS = $clog2(N_REGS)
) (
    input logic clk,
    input logic rst_n,

    input logic [          31:0] hwlp_start_data_i,
    input logic [          31:0] hwlp_end_data_i,
    input logic [          31:0] hwlp_cnt_data_i,
    input logic [           2:0] hwlp_we_i,
    input logic [N_REG_BITS-1:0] hwlp_regid_i,
    input logic valid_i,
    input logic [N_REGS-1:0] hwlp_dec_cnt_i,

    output logic [N_REGS-1:0][31:0] hwlp_start_addr_o,
    output logic [N_REGS-1:0][31:0] hwlp_end_addr_o,
    output logic [N_REGS-1:0][31:0] hwlp_counter_o
);

  for (genvar r = 0; r < N_REGS; r++) begin : g_set
    logic [31:0] start_r, end_r, count_r;
    wire sel = hwlp_regid_i == r;

    always_ff @(negedge rst_n, posedge clk) begin
      if (!rst_n) begin
        count_r <= 32'd0;
        end_r   <= 32'd0;
        start_r <= 32'd0;
      end else begin
        if (sel && hwlp_we_i[2]) count_r <= hwlp_cnt_data_i;
        else if (valid_i && hwlp_dec_cnt_i[r]) count_r <= count_r + 32'hffff_ffff;
        if (sel && hwlp_we_i[1]) end_r <= {hwlp_end_data_i[31:2], 2'b00};
        if (sel && hwlp_we_i[0]) start_r <= {hwlp_start_data_i[31:2], 2'b00};
      end
    end

    assign hwlp_counter_o[r]    = count_r;
    assign hwlp_end_addr_o[r]   = end_r;
    assign hwlp_start_addr_o[r] = start_r;
  end

endmodule
