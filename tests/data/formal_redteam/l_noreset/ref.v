module t(input clk, input en, output [1:0] y);
  reg [1:0] c;  // no reset: counts up from its power-up value
  always @(posedge clk) if (en) c <= c + 2'd1;
  assign y = c;
endmodule
