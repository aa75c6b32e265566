module m(input [1:0] i, input [3:0] a, input [3:0] b, output [3:0] y);
  wire [11:0] v = {a, a, a};
  wire [3:0] r = v[i * 4 +: 4];
  assign y = (r[0] === 1'bx) ? a + b : a - b;
endmodule
