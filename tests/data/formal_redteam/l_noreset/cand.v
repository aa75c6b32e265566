module t(input clk, input en, output [1:0] y);
  // f has no reset and never changes: when it powers up 0, y counts DOWN, which no
  // power-up value of the reference's counter produces
  reg [1:0] c;
  reg f;
  always @(posedge clk) if (en) c <= c + 2'd1;
  always @(posedge clk) f <= f;
  assign y = f ? c : ~c;
endmodule
