// A C910-style sequential block: every register is clocked through a gated_clk_cell instance
// whose enable says when the registers may change. Target module of the clock-gate tests.
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

reg     [`CT_CNT_WIDTH-1:0]   cnt;
reg     [`CT_DATA_WIDTH-1:0]  data_q;
wire                          cnt_clk;
wire                          cnt_clk_en;
wire                          data_clk;
wire                          data_clk_en;

//==========================================================
//                 counter, gated clock
//==========================================================
assign cnt_clk_en = cnt_clr || cnt_inc;
// &Instance("gated_clk_cell", "x_lsu_cnt_gated_clk"); @20
gated_clk_cell  x_lsu_cnt_gated_clk (
  .clk_in             (forever_cpuclk    ),
  .clk_out            (cnt_clk           ),
  .external_en        (1'b0              ),
  .global_en          (cp0_yy_clk_en     ),
  .local_en           (cnt_clk_en        ),
  .module_en          (1'b0              ),
  .pad_yy_icg_scan_en (pad_yy_icg_scan_en)
);

always @(posedge cnt_clk or negedge cpurst_b)
begin
  if (!cpurst_b)
    cnt[`CT_CNT_WIDTH-1:0] <= {`CT_CNT_WIDTH{1'b0}};
  else if (cnt_clr)
    cnt[`CT_CNT_WIDTH-1:0] <= {`CT_CNT_WIDTH{1'b0}};
  else if (cnt_inc)
    cnt[`CT_CNT_WIDTH-1:0] <= cnt[`CT_CNT_WIDTH-1:0] + 1'b1;
end
assign cnt_val[`CT_CNT_WIDTH-1:0] = cnt[`CT_CNT_WIDTH-1:0];

//==========================================================
//                 data register, gated clock only
//==========================================================
assign data_clk_en = data_vld;
gated_clk_cell  x_lsu_data_gated_clk (
  .clk_in             (forever_cpuclk    ),
  .clk_out            (data_clk          ),
  .external_en        (1'b0              ),
  .global_en          (1'b1              ),
  .local_en           (data_clk_en       ),
  .module_en          (1'b0              ),
  .pad_yy_icg_scan_en (pad_yy_icg_scan_en)
);

// no enable of its own: the gated clock alone decides when it loads
always @(posedge data_clk or negedge cpurst_b)
begin
  if (!cpurst_b)
    data_q[`CT_DATA_WIDTH-1:0] <= {`CT_DATA_WIDTH{1'b0}};
  else
    data_q[`CT_DATA_WIDTH-1:0] <= data_in[`CT_DATA_WIDTH-1:0];
end

endmodule
