// Listed second: redefines UNIT_W, drops UNIT_OLD and selects the rotate mode, for every file
// listed after it.
`undef UNIT_W
`define UNIT_W 8
`undef UNIT_OLD
`ifdef SYNTHESIS
`define UNIT_MODE_ROT
`endif

module unit_mid (input a, output y);
  assign y = ~a;
endmodule
