// Derived from openhwgroup/cv32e40p rtl/cv32e40p_popcnt.sv at 6033d2b1be32 (Solderpad Hardware License 0.51, see cv32e40p/LICENSE).
//   Copyright 2018 ETH Zurich and University of Bologna.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// cv32e40p_popcnt, rewritten: the adder tree becomes a loop that adds the bits one by one.
module cv32e40p_popcnt (
    input  logic [31:0] in_i,
    output logic [ 5:0] result_o
);

  always_comb begin
    result_o = 6'd0;
    for (int b = 31; b >= 0; b--) begin
      result_o = result_o + {5'd0, in_i[b]};
    end
  end

endmodule
