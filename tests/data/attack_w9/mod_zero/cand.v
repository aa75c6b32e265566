module m(input [7:0] a, input [3:0] b, output [7:0] r);
  assign r = (b == 4'd0) ? 8'd0 : a % b;
endmodule
