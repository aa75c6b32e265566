module sub(input i, output o1, output reg o2);
  assign o1 = ~i;
  always @(i) o2 = ~i;
endmodule
