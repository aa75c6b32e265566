module top(input clk, output y);
  reg a = 1'b1;
  always @(posedge clk) a <= ~a;
  m u(.a(a), .c(2'd2), .d(1'b1), .y(y));
endmodule
