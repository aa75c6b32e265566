// The branch UNIT_OLD selects: not the design once unit_mid.v has undefined UNIT_OLD.
module unit_alu (
  input  [`UNIT_W-1:0] a,
  input  [`UNIT_W-1:0] b,
  output [`UNIT_W-1:0] y
);
  assign y = a + b;
endmodule
