// nothing instantiates m: a library module, whose parameters are its interface
module top(input a, output y);
  assign y = a;
endmodule
