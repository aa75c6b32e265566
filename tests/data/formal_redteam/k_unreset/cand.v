module t(input clk, input rst, input d, output y);
  // a and b have no reset and the same next-state function: equal forever only if they
  // power up equal (zero-initialized latches would make them so)
  reg q, a, b;
  always @(posedge clk) if (rst) q <= 1'b0; else q <= q ^ d;
  always @(posedge clk) a <= a ^ d;
  always @(posedge clk) b <= b ^ d;
  assign y = q ^ a ^ b;
endmodule
