module s(input clk, input rst, input [3:0] x, output [3:0] y, output z);
  reg [3:0] p1, p2;
  reg v;
  always @(posedge clk) begin
    p1 <= x;
    p2 <= p1 + 4'd3;
  end
  always @(posedge clk) if (rst) v <= 1'b0; else v <= 1'b1;
  assign y = p2;
  assign z = v & p2[0];
endmodule
