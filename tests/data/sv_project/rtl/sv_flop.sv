// Not needed by sv_alu: a type-parameterized flop (a `parameter type` anywhere in the tree once
// crashed the frontend for every module).
module sv_flop #(
  parameter type T = logic [3:0],
  parameter T ResetValue = '0
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  T     d_i,
  output T     q_o
);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q_o <= ResetValue;
    else q_o <= d_i;
  end
endmodule
