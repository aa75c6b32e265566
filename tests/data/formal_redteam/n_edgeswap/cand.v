module t(input clk, input rst, input d, output y);
  reg qa, qb;
  always @(negedge clk) if (rst) qa <= 1'b0; else qa <= d;
  always @(posedge clk) if (rst) qb <= 1'b0; else qb <= qa;
  assign y = qb;
endmodule
