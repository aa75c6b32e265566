// Does not compile: a missing semicolon.
module prio_enc (
  input  wire [15:0] vec,
  input  wire        en,
  output wire [4:0]  pos,
  output wire        zero
);
  assign zero = ~|(vec & {16{en}})
  assign pos = 5'd0;
endmodule
