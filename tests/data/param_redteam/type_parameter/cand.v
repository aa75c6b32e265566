module m #(parameter type T = logic [3:0]) (input T a, input T b, output T y);
  assign y = T'(a[3:0] + b[3:0]);
endmodule
