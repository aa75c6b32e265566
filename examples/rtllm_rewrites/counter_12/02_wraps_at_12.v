`timescale 1ns/1ps
// Hand-written rewrite that is NOT equivalent: counts 0..12 (wraps one state late).
module verified_counter_12 (
  input rst_n,
  input clk,
  input valid_count,
  output reg [3:0] out
);
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n)
      out <= 4'b0000;
    else if (valid_count)
      out <= (out == 4'd12) ? 4'b0000 : out + 4'd1;
  end
endmodule
