// Broken rewrite: rotates the wrong way.
module unit_alu (
  input  [`UNIT_W-1:0] a,
  input  [`UNIT_W-1:0] b,
  output [`UNIT_W-1:0] y
);
  assign y = `UNIT_MIX({a[0], a[`UNIT_W-1:1]}, b);
endmodule
