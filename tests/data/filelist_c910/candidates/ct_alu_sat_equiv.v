// Equivalent rewrite of ct_alu_sat: the sum computed in place, overflow from the sign bits as
// an xor form; it uses the project's macros (CT_MSB, CT_SAT_MAX) as the original does.
module ct_alu_sat (
  input  [`CT_MSB:0] x,
  input  [`CT_MSB:0] y,
  output [`CT_MSB:0] z,
  output             ovf
);
  wire [`CT_MSB:0] s = y + x;

  assign ovf = ~(x[`CT_MSB] ^ y[`CT_MSB]) & (s[`CT_MSB] ^ x[`CT_MSB]);
  assign z = ovf ? (x[`CT_MSB] ? ~`CT_SAT_MAX : `CT_SAT_MAX) : s;
endmodule
