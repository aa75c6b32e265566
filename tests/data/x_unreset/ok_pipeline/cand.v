module s(input clk, input rst, input [3:0] x, output [3:0] y, output z);
  reg [3:0] p1, p2;
  reg v;
  always @(posedge clk) begin
    p1 <= x;
    p2 <= 4'd3 + p1;
  end
  always @(posedge clk) v <= !rst;
  assign y = p2;
  assign z = p2[0] & v;
endmodule
