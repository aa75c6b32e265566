// Signed saturating adder: the target module of the fixture's tests.
module ct_alu_sat (
  input  [`CT_MSB:0] x,
  input  [`CT_MSB:0] y,
  output [`CT_MSB:0] z,
  output             ovf
);
  wire [`CT_MSB:0] s;
  wire             unused_cout;

  ct_alu_add u_add (.a(x), .b(y), .sum(s), .cout(unused_cout));

  // overflow when both operands have the same sign and the sum's sign differs
  assign ovf = (x[`CT_MSB] == y[`CT_MSB]) && (s[`CT_MSB] != x[`CT_MSB]);
  assign z = !ovf ? s : x[`CT_MSB] ? ~`CT_SAT_MAX : `CT_SAT_MAX;
endmodule
