module m(input a, output y);
  wire w = a & 1'b1;
  sub2 s(.i(w), .o(y));
endmodule
