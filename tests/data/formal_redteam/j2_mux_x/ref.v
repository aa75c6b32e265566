module t(input clk, input rst, input d, output y);
  reg en;  // no reset: holds its power-up value (0 or 1 in hardware) forever
  reg q;
  always @(posedge clk) en <= en;
  always @(posedge clk) if (rst) q <= 1'b0; else q <= d;
  assign y = en ? q : 1'b0;
endmodule
