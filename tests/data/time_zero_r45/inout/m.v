module m(input a, output y);
  wire w = a;
  sub4 s(.io(w), .o(y));
endmodule
