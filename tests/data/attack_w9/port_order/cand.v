module m(input [3:0] b, input [3:0] a, output [3:0] y);
  assign y = a - b;
endmodule
