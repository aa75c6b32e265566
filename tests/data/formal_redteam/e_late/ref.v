module t(input clk, input rst, output y);
  reg [9:0] c;
  always @(posedge clk) if (rst) c <= 0; else if (c != 10'd1000) c <= c + 1'b1;
  assign y = (c == 10'd1000);
endmodule
