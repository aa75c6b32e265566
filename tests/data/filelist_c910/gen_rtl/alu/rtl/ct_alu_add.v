// Adder of the fixture: CT_WIDTH comes from cpu_cfig.h (no `include here), CT_CARRY_IN from
// ct_common.vh through ct_alu_cfg.vh, CT_ALU_FAST from the filelist's +define+.
`include "ct_alu_cfg.vh"

module ct_alu_add (
  input  [`CT_MSB:0] a,
  input  [`CT_MSB:0] b,
  output [`CT_MSB:0] sum,
  output             cout
);
`ifdef CT_ALU_FAST
  assign {cout, sum} = a + b + `CT_CARRY_IN;
`else
  // ripple form, used when CT_ALU_FAST is not defined
  wire [`CT_WIDTH:0] c;
  assign c[0] = `CT_CARRY_IN;
  genvar i;
  generate
    for (i = 0; i < `CT_WIDTH; i = i + 1) begin : g_bit
      assign sum[i] = a[i] ^ b[i] ^ c[i];
      assign c[i+1] = (a[i] & b[i]) | (c[i] & (a[i] ^ b[i]));
    end
  endgenerate
  assign cout = c[`CT_WIDTH];
`endif
endmodule
