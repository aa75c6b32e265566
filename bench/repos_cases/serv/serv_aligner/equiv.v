// Derived from olofk/serv rtl/serv_aligner.v at 9baea86ff0e4 (ISC, see serv/LICENSE).
//   SPDX-FileCopyrightText: 2022 Olof Kindgren <olof@award-winning.me>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// serv_aligner, rewritten: the misalignment flag is called half_q, the saved half-word hold_q,
// the +4 is written 4 + adr, the muxes use inverted selects, blocks reordered.
module serv_aligner
   (
    input wire clk,
    input wire rst,
    input  wire [31:0]  i_ibus_adr,
    input  wire         i_ibus_cyc,
    output wire [31:0]  o_ibus_rdt,
    output wire         o_ibus_ack,
    output wire [31:0]  o_wb_ibus_adr,
    output wire         o_wb_ibus_cyc,
    input  wire [31:0]  i_wb_ibus_rdt,
    input  wire         i_wb_ibus_ack);

    reg         half_q;
    reg  [15:0] hold_q;

    always @(posedge clk) begin
        if (rst)
            half_q <= 1'b0;
        else if (i_ibus_adr[1] & i_wb_ibus_ack)
            half_q <= ~half_q;
        if (i_wb_ibus_ack)
            hold_q <= i_wb_ibus_rdt[31:16];
    end

    assign o_wb_ibus_cyc = i_ibus_cyc;
    assign o_wb_ibus_adr = !half_q ? i_ibus_adr : 32'd4 + i_ibus_adr;
    assign o_ibus_rdt    = !half_q ? i_wb_ibus_rdt : {i_wb_ibus_rdt[15:0], hold_q};
    assign o_ibus_ack    = i_wb_ibus_ack & (half_q | ~i_ibus_adr[1]);

endmodule
