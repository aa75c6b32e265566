module m(input clk, input [2:0] sel, output reg [5:0] q);
  always @(posedge clk) q <= 10 + sel * 3;
endmodule
