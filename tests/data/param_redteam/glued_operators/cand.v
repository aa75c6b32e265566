module m #(parameter W = 4, parameter K = 1) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);
  assign y = a[K-1:0] & &b[K-1:0];
endmodule
