module t(input clka, input clkb, input rst, input d, output y);
  reg qa, qb;
  always @(posedge clkb) if (rst) qa <= 1'b0; else qa <= d;
  always @(posedge clka) if (rst) qb <= 1'b0; else qb <= qa;
  assign y = qb;
endmodule
