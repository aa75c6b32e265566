module m #(parameter W = 4) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);
  wire [7:0] t = a + b;
  assign y = t;
endmodule
