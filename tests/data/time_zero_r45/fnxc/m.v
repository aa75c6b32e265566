module m(input a, input [1:0] c, input d, output y);
  assign y = ~a;
endmodule
