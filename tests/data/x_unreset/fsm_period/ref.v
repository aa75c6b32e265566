module s(input clk, input rst, input [3:0] x, output [3:0] y, output z);
  reg [1:0] s;
  always @(posedge clk) s <= (s == 2'd2) ? 2'd0 : s + 2'd1;
  assign z = s == 2'd0;
  reg [3:0] d;
  always @(posedge clk) if (rst) d <= 4'd0; else d <= x;
  assign y = d;
endmodule
