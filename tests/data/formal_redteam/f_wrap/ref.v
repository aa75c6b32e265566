module t(input clk, input rst, input en, output [7:0] y);
  reg [7:0] c;
  always @(posedge clk) if (rst) c <= 0; else if (en) c <= c + 1'b1;
  assign y = c;
endmodule
