module m #(parameter W = 4) (input [W-1:0] a, input [W-1:0] b, output reg [W-1:0] y);
  always @* begin
    if (W > 4) y = a - b;
    else y = a ^ b;
  end
endmodule
