// Derived from lowRISC/ibex rtl/ibex_counter.sv at 8b8ee086aef7 (Apache-2.0, see ibex/LICENSE).
//   Copyright lowRISC contributors.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// ibex_counter, rewritten: the load/increment/hold mux is a priority ternary on named write
// enables, the register renamed, the increment commuted; the FPGA_XILINX DSP variant (an
// ifdef for Xilinx flops) is left out, so the register always has the asynchronous reset.
module ibex_counter #(
  parameter int CounterWidth = 32,
  parameter bit ProvideValUpd = 0
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  input  logic        counter_inc_i,
  input  logic        counterh_we_i,
  input  logic        counter_we_i,
  input  logic [31:0] counter_val_i,
  output logic [63:0] counter_val_o,
  output logic [63:0] counter_val_upd_o
);

  logic [CounterWidth-1:0] cnt_q;
  logic [63:0]             cnt_full;
  logic [CounterWidth-1:0] cnt_plus1;
  logic [63:0]             wr_val;
  logic [CounterWidth-1:0] cnt_next;

  assign cnt_plus1 = {{CounterWidth - 1{1'b0}}, 1'b1} + cnt_full[CounterWidth-1:0];

  // a write to the high half keeps the low half and vice versa
  assign wr_val = counterh_we_i ? {counter_val_i, cnt_full[31:0]}
                                : {cnt_full[63:32], counter_val_i};

  assign cnt_next = (counterh_we_i | counter_we_i) ? wr_val[CounterWidth-1:0] :
                    counter_inc_i                  ? cnt_plus1 :
                                                     cnt_full[CounterWidth-1:0];

  always_ff @(negedge rst_ni or posedge clk_i) begin
    if (rst_ni) begin
      cnt_q <= cnt_next;
    end else begin
      cnt_q <= '0;
    end
  end

  if (CounterWidth < 64) begin : g_counter_narrow
    assign cnt_full = {{(64 - CounterWidth){1'b0}}, cnt_q};
    assign counter_val_upd_o = ProvideValUpd ? {{(64 - CounterWidth){1'b0}}, cnt_plus1} : 64'd0;
  end else begin : g_counter_full
    assign cnt_full = cnt_q;
    assign counter_val_upd_o = ProvideValUpd ? cnt_plus1 : 64'd0;
  end

  assign counter_val_o = cnt_full;

endmodule
