// Rewrite of ct_lsu_cnt's data register with a clock gate without its latch (clk & en): a
// glitching clock, not a clock gate. Must not be proven.
module ct_lsu_cnt(
  input                         cp0_yy_clk_en,
  input                         cpurst_b,
  input                         forever_cpuclk,
  input                         pad_yy_icg_scan_en,
  input                         cnt_clr,
  input                         cnt_inc,
  input                         data_vld,
  input   [`CT_DATA_WIDTH-1:0]  data_in,
  output  [`CT_CNT_WIDTH-1:0]   cnt_val,
  output reg [`CT_DATA_WIDTH-1:0] data_q
);
reg [`CT_CNT_WIDTH-1:0] cnt;
wire cnt_clk;
wire data_clk = forever_cpuclk & (data_vld | pad_yy_icg_scan_en);

gated_clk_cell x_cnt_gate (
  .clk_in(forever_cpuclk), .global_en(cp0_yy_clk_en), .module_en(1'b0),
  .local_en(cnt_clr | cnt_inc), .external_en(1'b0), .pad_yy_icg_scan_en(pad_yy_icg_scan_en),
  .clk_out(cnt_clk)
);

always @(posedge cnt_clk or negedge cpurst_b)
  if (!cpurst_b)    cnt <= 0;
  else if (cnt_clr) cnt <= 0;
  else if (cnt_inc) cnt <= cnt + 1'b1;

always @(posedge data_clk or negedge cpurst_b)
  if (!cpurst_b) data_q <= 0;
  else           data_q <= data_in;

assign cnt_val = cnt;
endmodule
