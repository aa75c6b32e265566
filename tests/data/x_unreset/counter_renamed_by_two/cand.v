module s(input clk, input rst, input [3:0] x, output [3:0] y, output z);
  reg [3:0] tick;
  always @(posedge clk) tick <= tick + 4'd2;
  assign z = tick[1];
  reg [3:0] d;
  always @(posedge clk) if (rst) d <= 4'd0; else d <= x;
  assign y = d;
endmodule
