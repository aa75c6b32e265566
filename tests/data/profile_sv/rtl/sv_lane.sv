// One lane: a small registered ALU on typed ports (off every long path).
module sv_lane import soc_pkg::*; (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  op_e        op_i,
  input  logic [7:0] a_i,
  input  logic [7:0] b_i,
  output beat_t      beat_o
);
  beat_t beat_q, beat_d;

  always_comb begin
    unique case (op_i)
      OpAdd:   beat_d.data = a_i + b_i;
      OpSub:   beat_d.data = a_i - b_i;
      OpXor:   beat_d.data = a_i ^ b_i;
      default: beat_d.data = a_i;
    endcase
    beat_d.valid = op_i != OpPass;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) beat_q <= '0;
    else beat_q <= beat_d;
  end

  assign beat_o = beat_q;
endmodule
