module m(input a, input [1:0] c, input d, output y);
  sub3 s(.i(d & c[1]), .j(a), .o(y));
endmodule
