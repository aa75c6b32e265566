// The same two forms of a product as scale's debug output, but on an output the top uses:
// a rewrite with one multiplier is smaller alone and in the top.
module mulsel (
    input  wire [3:0] a,
    input  wire [3:0] b,
    input  wire       s,
    output wire [7:0] p
);
    wire [7:0] bm1 = {4'd0, b} - 8'd1;
    wire [7:0] other = a * bm1 + {4'd0, a};
    assign p = s ? a * b : other;
endmodule
