module t(input clk, input rst, input [1:0] d, output reg [1:0] q);
  initial q = 2'b00;
  always @(posedge clk) q <= q ^ d;
endmodule
