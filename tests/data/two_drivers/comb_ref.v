module m(input [11:0] a, input [11:0] b, output [11:0] y);
  assign y = (a + b) - b;
endmodule
