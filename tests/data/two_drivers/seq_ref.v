module m(input clk, input rst, input [11:0] a, input [11:0] b, output reg [11:0] q);
  always @(posedge clk)
    if (rst) q <= 12'd0;
    else q <= (a + b) - b;
endmodule
