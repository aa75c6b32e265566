module t(input clk, input rst, input d, output reg q);
  reg en;  // no reset: holds its power-up value
  always @(posedge clk) en <= en;
  always @(posedge clk) if (rst) q <= 1'b0; else if (en) q <= d;
endmodule
