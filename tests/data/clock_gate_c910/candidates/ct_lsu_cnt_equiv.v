// Equivalent rewrite of ct_lsu_cnt: signals renamed, statements reordered, `cnt + 1` written
// `1 + cnt`, the clock-gate instances kept (their ports in another order).
module ct_lsu_cnt(
  cp0_yy_clk_en,
  cpurst_b,
  forever_cpuclk,
  pad_yy_icg_scan_en,
  cnt_clr,
  cnt_inc,
  data_vld,
  data_in,
  cnt_val,
  data_q
);
input                         cp0_yy_clk_en;
input                         cpurst_b;
input                         forever_cpuclk;
input                         pad_yy_icg_scan_en;
input                         cnt_clr;
input                         cnt_inc;
input                         data_vld;
input   [`CT_DATA_WIDTH-1:0]  data_in;
output  [`CT_CNT_WIDTH-1:0]   cnt_val;
output  [`CT_DATA_WIDTH-1:0]  data_q;

reg     [`CT_DATA_WIDTH-1:0]  data_q;
reg     [`CT_CNT_WIDTH-1:0]   count_r;
wire                          gclk_data;
wire                          gclk_count;

gated_clk_cell  u_data_icg (
  .pad_yy_icg_scan_en (pad_yy_icg_scan_en),
  .local_en           (data_vld          ),
  .global_en          (1'b1              ),
  .module_en          (1'b0              ),
  .external_en        (1'b0              ),
  .clk_in             (forever_cpuclk    ),
  .clk_out            (gclk_data         )
);

always @(posedge gclk_data or negedge cpurst_b)
  if (~cpurst_b) data_q <= 0;
  else           data_q <= data_in;

gated_clk_cell  u_count_icg (
  .pad_yy_icg_scan_en (pad_yy_icg_scan_en),
  .local_en           (cnt_inc | cnt_clr ),
  .global_en          (cp0_yy_clk_en     ),
  .module_en          (1'b0              ),
  .external_en        (1'b0              ),
  .clk_in             (forever_cpuclk    ),
  .clk_out            (gclk_count        )
);

always @(posedge gclk_count or negedge cpurst_b)
  if (~cpurst_b)     count_r <= 0;
  else if (cnt_clr)  count_r <= 0;
  else if (cnt_inc)  count_r <= 1'b1 + count_r;

assign cnt_val = count_r;
endmodule
