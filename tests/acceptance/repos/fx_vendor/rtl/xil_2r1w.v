// vendor distributed RAM cells (RAM16X1D, defined nowhere here: the vendor library)
module xil_2r1w (
    input clk,
    input we,
    input [3:0] wa,
    input [3:0] ra,
    input [7:0] wd,
    output [7:0] rd
);
genvar i;
generate
for (i = 0; i < 8; i = i + 1) begin : g_bit
    RAM16X1D u_ram (.WCLK(clk), .WE(we), .D(wd[i]), .A0(wa[0]), .A1(wa[1]), .A2(wa[2]), .A3(wa[3]),
                    .DPRA0(ra[0]), .DPRA1(ra[1]), .DPRA2(ra[2]), .DPRA3(ra[3]), .DPO(rd[i]), .SPO());
end
endgenerate
endmodule
