// Plain Verilog-2005: read by every tool as it is (flow.systemverilog = auto keeps it native).
module plain_add (
  input  wire [7:0] a,
  input  wire [7:0] b,
  output wire [8:0] s
);
  assign s = a + b;
endmodule
