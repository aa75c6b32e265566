// Equivalent rewrite of ct_lsu_cnt without clock gates: every register on the free-running
// clock, the gate's enable moved into the registers (what the clock gate means per cycle).
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
wire cnt_en  = (cp0_yy_clk_en && (cnt_clr || cnt_inc)) || pad_yy_icg_scan_en;
wire data_en = data_vld || pad_yy_icg_scan_en;

always @(posedge forever_cpuclk or negedge cpurst_b)
  if (!cpurst_b) begin
    cnt    <= 0;
    data_q <= 0;
  end else begin
    if (cnt_en) begin
      if (cnt_clr)      cnt <= 0;
      else if (cnt_inc) cnt <= cnt + 1'b1;
    end
    if (data_en) data_q <= data_in;
  end

assign cnt_val = cnt;
endmodule
