module m(input a, input [1:0] c, input d, output reg y);
  function f(input i); f = 1'bx; endfunction
  wire wd = f(d);
  always @(wd or a) y = ~a;
endmodule
