`timescale 1ns/1ps
// Hand-written rewrite: wrap when out[3] & out[1] & out[0] (4'b1x11). From reset the counter
// never reaches 12..15, so 4'b1011 (11) is the only reachable state matching the pattern.
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
      out <= (out[3] & out[1] & out[0]) ? 4'b0000 : out + 4'd1;
  end
endmodule
