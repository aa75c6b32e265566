module t(input clk, input rst, input [1:0] d, output [1:0] y);
  reg [1:0] q; reg [1:0] acc; reg seen;
  always @(posedge clk) if (rst) seen <= 1'b1; else seen <= seen;
  always @(posedge clk) if (rst) q <= 0; else q <= d;
  // second reset keeps acc
  always @(posedge clk) if (rst) acc <= (seen === 1'b1) ? acc : 2'd0; else acc <= acc + q;
  assign y = acc;
endmodule
