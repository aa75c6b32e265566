// Clock-gate cell, C910 style: the enable is latched while the clock is low and ANDed with the
// clock. A vendor integrated clock-gating cell replaces the latch and AND when the library
// provides one (CT_VENDOR_ICG, not defined in this project).
module gated_clk_cell(
  clk_in,
  global_en,
  module_en,
  local_en,
  external_en,
  pad_yy_icg_scan_en,
  clk_out
);
input  clk_in;
input  global_en;
input  module_en;
input  local_en;
input  external_en;
input  pad_yy_icg_scan_en;
output clk_out;

wire   clk_en_bf_latch;
wire   SE;

assign clk_en_bf_latch = (global_en && (module_en || local_en)) || external_en;
assign SE              = pad_yy_icg_scan_en;

`ifdef CT_VENDOR_ICG
VENDOR_ICG_X1 x_icg (
  .CK  (clk_in),
  .E   (clk_en_bf_latch),
  .SE  (SE),
  .ECK (clk_out)
);
`else
reg clk_en_af_latch;
always @(clk_in or clk_en_bf_latch or SE)
begin
  if (!clk_in)
    clk_en_af_latch <= clk_en_bf_latch || SE;
end
assign clk_out = clk_in && clk_en_af_latch;
`endif

endmodule
