// A vendor cell (VENDOR_INV, defined nowhere) in a generate branch its parameter turns off.
module sv_inv #(
  parameter bit UseVendorCell = 1'b0
) (
  input  logic [3:0] a_i,
  output logic [3:0] y_o
);
  if (UseVendorCell) begin : g_vendor
    for (genvar i = 0; i < 4; i++) begin : g_bit
      VENDOR_INV u_inv (.A(a_i[i]), .Y(y_o[i]));
    end
  end else begin : g_generic
    assign y_o = ~a_i;
  end
endmodule
