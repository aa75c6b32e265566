// Equivalent: the asynchronous reset branch written second (`if (rst_ni) <load> else <reset>`
// under `negedge rst_ni`), legal SystemVerilog that read_slang refuses as it is.
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
  logic [8:0] held;
  logic [7:0] res;

  always_comb begin
    case (op_i)
      OpAdd:   res = b_i + a_i[0];
      OpSub:   res = a_i[0] - b_i;
      OpXor:   res = b_i ^ a_i[1];
      default: res = swap_nibbles(a_i[1]);
    endcase
  end

  always_ff @(negedge rst_ni or posedge clk_i)
    if (rst_ni == 1'b1) held <= {op_i != OpPass, res};
    else held <= '0;

  assign beat_o = held;
  assign sum_o[0] = a_i[0] + b_i;
  assign sum_o[1] = a_i[1] + b_i;
endmodule
