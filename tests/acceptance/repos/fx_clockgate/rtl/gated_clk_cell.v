// a latch-based integrated clock gate (the style of C910's gated_clk_cell)
module gated_clk_cell (
    input  clk_in,
    input  global_en,
    input  module_en,
    input  local_en,
    input  external_en,
    input  pad_yy_icg_scan_en,
    output clk_out
);
    wire clk_en_bf_latch = (global_en && (module_en || local_en)) || external_en;
    wire SE = pad_yy_icg_scan_en;
    reg  clk_en_af_latch;
    always @(clk_in or clk_en_bf_latch or SE)
        if (!clk_in) clk_en_af_latch <= clk_en_bf_latch || SE;
    assign clk_out = clk_in & clk_en_af_latch;
endmodule
