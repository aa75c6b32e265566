module top(input [3:0] a, input [3:0] b, output [3:0] y);
  m #(.W(4)) u(.a(a), .b(b), .y(y));
endmodule
