module s(input clk, input rst, input [3:0] x, output [3:0] y, output z);
  reg [4:0] l;
  always @(posedge clk) l <= {l[3:0], l[4] ^ l[2]};
  assign z = l[4];
  reg [3:0] d;
  always @(posedge clk) if (rst) d <= 4'd0; else d <= x;
  assign y = d;
endmodule
