module m #(parameter W = 4) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);
  function [W-1:0] f(input [W-1:0] x);
    f = (W > 6) ? x ^ 1 : ~x;
  endfunction
  assign y = f(a) ^ b;
endmodule
