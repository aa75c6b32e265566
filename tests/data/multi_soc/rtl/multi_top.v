// Two rewritable blocks: scale's gain is on an output the top leaves unconnected, mulsel's
// on one it uses.
module multi_top (
    input  wire [3:0] a,
    input  wire [3:0] b,
    input  wire [3:0] c,
    input  wire       s,
    output wire [4:0] sum,
    output wire [7:0] prod
);
    scale u_scale (.a(a), .b(c), .s(s), .y(sum), .dbg());
    mulsel u_mulsel (.a(a), .b(b), .s(s), .p(prod));
endmodule
