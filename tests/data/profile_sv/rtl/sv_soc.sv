// The top: typed ports (a packed array of enums, of structs), Lanes sv_lane instances from a
// generate loop and one multiplier, no logic of its own.
module sv_soc import soc_pkg::*; (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  op_e   [Lanes-1:0]     op_i,
  input  logic  [Lanes-1:0][7:0] a_i,
  input  logic  [7:0]           b_i,
  input  logic  [15:0]          x_i,
  input  logic  [15:0]          y_i,
  output beat_t [Lanes-1:0]     beat_o,
  output logic  [31:0]          prod_o
);
  for (genvar g = 0; g < Lanes; g++) begin : g_lane
    sv_lane u_lane (
      .clk_i,
      .rst_ni,
      .op_i  (op_i[g]),
      .a_i   (a_i[g]),
      .b_i,
      .beat_o(beat_o[g])
    );
  end

  sv_mul #(.W(16)) u_mul (.clk_i, .x_i, .y_i, .prod_o);
endmodule
