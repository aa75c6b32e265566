// Derived from openhwgroup/cv32e40p rtl/cv32e40p_ff_one.sv at 6033d2b1be32 (Solderpad Hardware License 0.51, see cv32e40p/LICENSE).
//   Copyright 2018 ETH Zurich and University of Bologna.
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// cv32e40p_ff_one, rewritten: the selection tree becomes a priority loop from the top bit down,
// so the lowest set bit wins; with no bit set the index is LEN-1, as the tree's right-hand
// path gives (for LEN a power of two, as the default 32).
module cv32e40p_ff_one #(
    parameter LEN = 32
) (
    input  logic [LEN-1:0]         in_i,
    output logic [$clog2(LEN)-1:0] first_one_o,
    output logic                   no_ones_o
);

  always_comb begin
    first_one_o = LEN - 1;  // truncated to the port width
    for (int i = LEN - 1; i >= 0; i--) begin
      if (in_i[i]) first_one_o = i;
    end
  end

  assign no_ones_o = in_i == '0;

endmodule
