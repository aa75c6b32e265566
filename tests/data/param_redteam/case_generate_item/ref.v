module m #(parameter W = 4) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);
  case (W)
    4: begin : g4 assign y = a ^ b; end
    8: begin : g8 assign y = a + b; end
    default: begin : gd assign y = a & b; end
  endcase
endmodule
