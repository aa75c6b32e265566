module t(input clk, input rst, input d, output reg y);
  // z1, z2: no reset, 0 after two clock edges. If z1 powers up 1, y is ~q in the first
  // cycle after the reset cycle (a power-up glitch); 4-state simulation takes the else branch
  reg q, z1, z2;
  always @(posedge clk) if (rst) q <= 1'b0; else q <= q ^ d;
  always @(posedge clk) z1 <= 1'b0;
  always @(posedge clk) z2 <= z1;
  always @* if (z2) y = ~q; else y = q;
endmodule
