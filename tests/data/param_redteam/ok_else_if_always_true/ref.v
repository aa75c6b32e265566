module m #(parameter W = 4) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);
  generate
    if (W > 4) begin : g_big
      assign y = a + b;
    end else begin : g_small
      assign y = a ^ b;
    end
  endgenerate
endmodule
