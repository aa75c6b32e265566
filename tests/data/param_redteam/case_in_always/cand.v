module m #(parameter W = 4) (input [W-1:0] a, input [W-1:0] b, output reg [W-1:0] y);
  always @* begin
    case (W)
      4: y = a ^ b;
      8: y = a - b;
      default: y = a & b;
    endcase
  end
endmodule
