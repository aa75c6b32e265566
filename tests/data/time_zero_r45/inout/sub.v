module sub4(inout io, output reg o);
  always @(io) o = ~io;
endmodule
