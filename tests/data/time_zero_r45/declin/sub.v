module sub2(input i, output reg o);
  always @(i) o = ~i;
endmodule
