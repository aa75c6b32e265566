module t(input clk, input rst, input [1:0] d, output [1:0] y);
  reg [1:0] q; reg [1:0] acc;
  always @(posedge clk) if (rst) q <= 0; else q <= d;
  always @(posedge clk) if (rst) acc <= 2'd0; else acc <= acc + q;
  assign y = acc;
endmodule
