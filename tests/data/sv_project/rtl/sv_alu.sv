// The target: package import in the module header, an enum input, a packed 2-D array port, a
// type parameter, a packed struct register with an asynchronous reset, a generate loop.
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
      default: result = swap_nibbles(a_i[1]);
    endcase
    beat_d.valid = op_i != OpPass;
    beat_d.data  = result;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      beat_q <= '0;
    end else begin
      beat_q <= beat_d;
    end
  end

  assign beat_o = beat_q;

  for (genvar i = 0; i < Lanes; i++) begin : g_lane
    assign sum_o[i] = a_i[i] + b_i;
  end
endmodule
