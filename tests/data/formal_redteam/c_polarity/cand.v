module t(input clk, input rst, input [1:0] d, output reg [1:0] q);
  always @(posedge clk) if (!rst) q <= q + d; else q <= 2'b01;
  // same; the broken one is cand2
endmodule
