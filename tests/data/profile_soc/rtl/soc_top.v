// A small system for the profile tests: a long multiply-accumulate path (mac), a small
// status block off any long path (flags, instantiated twice), an adder with a debug output
// the top leaves unconnected (scale) and a wrapper with no logic.
module soc_top (
    input  wire        clk,
    input  wire        rst,
    input  wire [7:0]  a,
    input  wire [7:0]  b,
    input  wire [3:0]  sel,
    input  wire [3:0]  c,
    output wire [15:0] acc,
    output wire [1:0]  hot,
    output wire [4:0]  sum
);
    mac u_mac (.clk(clk), .rst(rst), .a(a), .b(b), .acc(acc));
    flags u_flags0 (.clk(clk), .rst(rst), .sel(sel[1:0]), .hot(hot[0]));
    flags u_flags1 (.clk(clk), .rst(rst), .sel(sel[3:2]), .hot(hot[1]));
    scale u_scale (.a(a[3:0]), .b(c), .s(sel[0]), .y(sum), .dbg());
endmodule
