module m #(parameter W = 4, parameter K = 1) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);
  assign y = (W > 4 && K > 1) ? a - b : a + b;
endmodule
