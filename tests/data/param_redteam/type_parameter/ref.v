module m #(parameter type T = logic [3:0]) (input T a, input T b, output T y);
  assign y = a + b;
endmodule
