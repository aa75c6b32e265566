module s(input clk, input rst, input [3:0] x, output [3:0] y, output z);
  reg [3:0] r;
  always @(posedge clk) r <= {r[2:0], ~r[3]};
  assign z = r[3];
  reg [3:0] d;
  always @(posedge clk) if (rst) d <= 4'd0; else d <= x;
  assign y = d;
endmodule
