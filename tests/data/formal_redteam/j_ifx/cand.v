module t(input clk, input rst, input d, output reg q);
  // sticky: once a 1 was seen, 1 forever (no power-up value of en behaves so)
  always @(posedge clk) if (rst) q <= 1'b0; else q <= q | d;
endmodule
