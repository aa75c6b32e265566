module m(input a, input b, output y);
  wire p, q;
  sub s(.i(a), .o1(p), .o2(q));
  assign y = p | (q & b);
endmodule
