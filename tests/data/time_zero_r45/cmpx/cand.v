module m(input a, input [1:0] c, input d, output reg y);
  wire [1:0] dv = {d, d}; wire e = dv[c]; wire wd = (e == d);
  always @(wd or a) y = ~a;
endmodule
