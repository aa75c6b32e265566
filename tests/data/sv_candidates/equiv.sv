// Equivalent: muxes instead of the case, subtraction as addition of the complement, the
// struct assembled by concatenation, the lanes written out.
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
  logic [8:0] state_q;
  logic [7:0] arith, logic_res;

  assign arith     = a_i[0] + (op_i[0] ? (~b_i + 8'd1) : b_i);
  assign logic_res = op_i[0] ? {a_i[1][3:0], a_i[1][7:4]} : (b_i ^ a_i[1]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) state_q <= 9'd0;
    else state_q <= {~(op_i[1] & op_i[0]), op_i[1] ? logic_res : arith};
  end

  assign beat_o   = state_q;
  assign sum_o[1] = b_i + a_i[1];
  assign sum_o[0] = b_i + a_i[0];
endmodule
