// Equivalent rewrite: the rotate written as a concatenation of slices, the mix macro used with
// its operands swapped; uses the unit's macros as the original does.
module unit_alu (
  input  [`UNIT_W-1:0] a,
  input  [`UNIT_W-1:0] b,
  output [`UNIT_W-1:0] y
);
  wire [`UNIT_W-1:0] rot = {a[`UNIT_W-2:0], a[`UNIT_W-1]};
  assign y = `UNIT_MIX(b, rot);
endmodule
