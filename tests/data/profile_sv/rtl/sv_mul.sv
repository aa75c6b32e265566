// A registered 16x16 multiplier: the design's only long path.
module sv_mul #(
  parameter int unsigned W = 16
) (
  input  logic             clk_i,
  input  logic [W-1:0]     x_i,
  input  logic [W-1:0]     y_i,
  output logic [2*W-1:0]   prod_o
);
  logic [2*W-1:0] prod_q;

  always_ff @(posedge clk_i) prod_q <= x_i * y_i;

  assign prod_o = prod_q;
endmodule
