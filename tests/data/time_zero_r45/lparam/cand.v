module m(input a, output y);
  localparam P = 1;
  sub #(.K(P)) s(.i(a), .o(y));
endmodule
