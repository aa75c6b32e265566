module m(input [1:0] i, input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = (i === 2'd3) ? a + b : a - b;
endmodule
