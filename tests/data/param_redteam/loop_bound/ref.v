module m #(parameter W = 4) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);
  genvar i;
  for (i = 0; i < W; i = i + 1) begin : g_bit
    assign y[i] = a[i] ^ b[i];
  end
endmodule
