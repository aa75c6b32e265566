module t(input clk, input rst, input d, output y);
  reg q;
  always @(posedge clk) if (rst) q <= 1'b0; else q <= q ^ d;
  assign y = q;
endmodule
