module t(input clk, input rst, input [1:0] d, output reg [1:0] q);
  always @(posedge clk) if (!rst) q <= 2'b01; else q <= q + d;
endmodule
