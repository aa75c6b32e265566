// Project macros defined in a Verilog source (not a header), listed first in the filelist.
// Tools read the list as one compilation unit, so later files use these without `include.
`ifndef UNIT_DEFS_V
`define UNIT_DEFS_V

`define UNIT_W 4
`define UNIT_MIX(a, b) \
  ((a) ^ (b))
`define UNIT_OLD

// a module of its own, unrelated to the target
module unit_defs_id (input [3:0] i, output [3:0] o);
  assign o = i;
endmodule

`endif
