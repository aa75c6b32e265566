module t(input clk, input rst, input en, output [7:0] y);
  reg [8:0] c;
  always @(posedge clk) if (rst) c <= 0; else if (en) c <= (c == 9'd255) ? 9'd1 : c + 1'b1;
  assign y = c[7:0];
endmodule
