// Not equivalent: OpPass gives x where the reference gives the swapped nibbles.
module sv_alu import sv_pkg::*; #(
  parameter type data_t = logic [7:0]
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  op_e                   op_i,
  input  logic [Lanes-1:0][7:0] a_i,
  input  data_t                 b_i,
  output beat_t                 beat_o,
  output logic [Lanes-1:0][7:0] sum_o
);
  beat_t beat_q, beat_d;
  data_t result;

  always_comb begin
    case (op_i)
      OpAdd:   result = a_i[0] + b_i;
      OpSub:   result = a_i[0] - b_i;
      OpXor:   result = a_i[1] ^ b_i;
      default: result = 'x;
    endcase
    beat_d.valid = op_i != OpPass;
    beat_d.data  = result;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) beat_q <= '0;
    else beat_q <= beat_d;
  end

  assign beat_o = beat_q;

  for (genvar i = 0; i < Lanes; i++) begin : g_lane
    assign sum_o[i] = a_i[i] + b_i;
  end
endmodule
