module m(input a, input [1:0] c, input d, output reg y);
  wire [1:0] dv = {d, d}; wire wd = dv[c];
  always @(wd or a) y = ~a;
endmodule
