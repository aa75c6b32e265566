module m(input a, output y);
  wire w = a & 1'b1;
  sub4 s(.io(w), .o(y));
endmodule
