module t(input clk, input rst, input d, output y);
  // en = 1 gives y = q, en = 0 gives y = 0; this candidate gives q on every other cycle:
  // while q stays 1 it alternates 1, 0, 1, ..., which no power-up value of en produces
  reg q, ph;
  always @(posedge clk) if (rst) q <= 1'b0; else q <= d;
  always @(posedge clk) if (rst) ph <= 1'b0; else ph <= ~ph;
  assign y = q & ph;
endmodule
