// Broken rewrite of ct_alu_sat: negative overflow saturates to the positive maximum.
module ct_alu_sat (
  input  [`CT_MSB:0] x,
  input  [`CT_MSB:0] y,
  output [`CT_MSB:0] z,
  output             ovf
);
  wire [`CT_MSB:0] s = y + x;

  assign ovf = ~(x[`CT_MSB] ^ y[`CT_MSB]) & (s[`CT_MSB] ^ x[`CT_MSB]);
  assign z = ovf ? `CT_SAT_MAX : s;
endmodule
