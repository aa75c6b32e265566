module m #(parameter A = 4, parameter B = 1, parameter C = 0) (input [A-1:0] x, output [A-1:0] y);
  assign y = {A{1'b0}} | (x >> B);
endmodule
