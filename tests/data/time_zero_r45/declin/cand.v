module m(input a, output y);
  wire w = a;
  sub2 s(.i(w), .o(y));
endmodule
