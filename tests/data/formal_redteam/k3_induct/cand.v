module t(input clk, input rst, input d, output reg y);
  // a and b have no reset and the same next-state function: a ^ b keeps its power-up
  // value forever. When they power up different, y is ~q at every cycle.
  reg q, a, b;
  always @(posedge clk) if (rst) q <= 1'b0; else q <= q ^ d;
  always @(posedge clk) a <= a ^ d;
  always @(posedge clk) b <= b ^ d;
  always @* if (a ^ b) y = ~q; else y = q;
endmodule
