module t(input clk, input rst, input d, output y);
  reg [3:0] sr;
  always @(posedge clk) if (rst) sr <= 4'b0000; else sr <= {sr[2:0], d};
  assign y = sr[3];
endmodule
