// The equivalent rewrite with the branches this unit switches off dropped: another build (one
// that defines UNIT_OLD) would get another module, so it is not accepted.
module unit_alu (
  input  [`UNIT_W-1:0] a,
  input  [`UNIT_W-1:0] b,
  output [`UNIT_W-1:0] y
);
  wire [`UNIT_W-1:0] rot = {a[`UNIT_W-2:0], a[`UNIT_W-1]};
  assign y = `UNIT_MIX(b, rot);
endmodule
