module s(input clk, input rst, input [3:0] x, output [3:0] y, output z);
  reg [3:0] c;
  always @(posedge clk) c <= c + 4'd1;
  assign z = c[1];
  reg [3:0] d;
  always @(posedge clk) if (rst) d <= 4'd0; else d <= x;
  assign y = d;
endmodule
