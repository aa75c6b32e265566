// Does not elaborate: OpMul is not a member of sv_pkg::op_e.
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
  beat_t beat_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) beat_q <= '0;
    else beat_q <= {op_i == OpMul, a_i[0]};
  end
  assign beat_o = beat_q;
  assign sum_o = a_i;
endmodule
