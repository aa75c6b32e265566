module m(input a, input b, output y);
  wire p, q;
  sub s(.i(a), .o1(q), .o2(p));
  assign y = p | (q & b);
endmodule
