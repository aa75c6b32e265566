module m(input [7:0] a, input [3:0] b, output [7:0] r);
  wire [7:0] q = a / b;
  assign r = (b == 4'd0) ? a : a - q * b;
endmodule
