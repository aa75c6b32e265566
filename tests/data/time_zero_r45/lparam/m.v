module m(input a, output y);
  localparam P = 0;
  sub #(.K(P)) s(.i(a), .o(y));
endmodule
