module t(input clk, input rst, input d, output y);
  // a follows q's update from power-up without reset: a == q only if a powers up at 0
  reg q, a;
  always @(posedge clk) if (rst) q <= 1'b0; else q <= q ^ d;
  always @(posedge clk) a <= rst ? a : a ^ d;
  assign y = a;
endmodule
