// y is what the top uses; dbg is a debug output the top leaves unconnected. The reference
// computes dbg twice and chooses by s (a*(b-1)+a is a*b modulo 2^8, which synthesis does not
// see); a rewrite with one multiplier is smaller alone, and no smaller in the top, where dbg
// is swept away.
module scale (
    input  wire [3:0] a,
    input  wire [3:0] b,
    input  wire       s,
    output wire [4:0] y,
    output wire [7:0] dbg
);
    wire [7:0] bm1 = {4'd0, b} - 8'd1;
    wire [7:0] other = a * bm1 + {4'd0, a};
    assign y = a + b;
    assign dbg = s ? a * b : other;
endmodule
