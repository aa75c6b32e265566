module sub3(input i, input j, output reg o);
  always @(i or j) o = ~j;
endmodule
