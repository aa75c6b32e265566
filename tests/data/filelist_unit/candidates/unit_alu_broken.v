// Broken rewrite: rotates the wrong way.
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
  assign y = `UNIT_MIX({a[0], a[`UNIT_W-1:1]}, b);
`else
  assign y = a - b;
`endif
endmodule
