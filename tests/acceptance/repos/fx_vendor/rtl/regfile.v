// a register file with a vendor-RAM branch that the default parameters turn off
module regfile #(parameter USE_VENDOR = 0) (
    input clk,
    input we,
    input [3:0] wa,
    input [3:0] ra,
    input [7:0] wd,
    output [7:0] rd
);
generate
if (USE_VENDOR) begin : g_vendor
    xil_2r1w u_xil (.clk(clk), .we(we), .wa(wa), .ra(ra), .wd(wd), .rd(rd));
end else begin : g_rtl
    reg [7:0] mem [0:15];
    reg [7:0] q;
    always @(posedge clk) begin
        if (we) mem[wa] <= wd;
        q <= mem[ra];
    end
    assign rd = q;
end
endgenerate
endmodule
