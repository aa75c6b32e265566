module m #(parameter A = 4, parameter B = 1) (input [A-1:0] x, output [A-1:0] y);
  assign y = x >> B;
endmodule
