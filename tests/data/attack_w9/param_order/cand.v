module m #(parameter B = 1, parameter A = 4) (input [A-1:0] x, output [A-1:0] y);
  assign y = x >> B;
endmodule
