module m(input a, input [1:0] c, input d, output y);
  wire [1:0] dv = {d, d};
  sub3 s(.i(dv[c]), .j(a), .o(y));
endmodule
