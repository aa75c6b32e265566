module top(input [15:0] a, input [15:0] b, output [15:0] y);
  m #(.T(logic [15:0])) u(.a(a), .b(b), .y(y));
endmodule
