module top(input clk, output y);
  reg a = 1'b1;
  always @(posedge clk) a <= ~a;
  m u(.a(a), .y(y));
endmodule
