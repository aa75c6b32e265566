// Equivalent rewrite: the rotate written as a concatenation of slices, the mix macro used with
// its operands swapped; uses the unit's macros as the original does and keeps the branches
// this unit switches off as they are.
module unit_alu (
  input  [`UNIT_W-1:0] a,
  input  [`UNIT_W-1:0] b,
  output [`UNIT_W-1:0] y
);
`ifdef UNIT_LATE
  // defined only by a file listed after this one: never seen here
  assign y = {`UNIT_W{1'b0}};
`elsif UNIT_OLD
  assign y = a + b;
`elsif UNIT_MODE_ROT
  wire [`UNIT_W-1:0] rot = {a[`UNIT_W-2:0], a[`UNIT_W-1]};
  assign y = `UNIT_MIX(b, rot);
`else
  assign y = a - b;
`endif
endmodule
