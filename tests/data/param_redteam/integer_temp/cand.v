module m #(parameter W = 4) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);
  integer r;
  always @* r = a ^ b;
  assign y = r;
endmodule
