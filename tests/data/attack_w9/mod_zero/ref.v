module m(input [7:0] a, input [3:0] b, output [7:0] r);
  assign r = a % b;
endmodule
