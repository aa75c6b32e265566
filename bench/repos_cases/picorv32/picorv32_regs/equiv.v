// Derived from YosysHQ/picorv32 picorv32.v at 87c89acc1899 (ISC, see picorv32/COPYING).
//   Copyright (C) 2015  Claire Xenia Wolf <claire@yosyshq.com>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// picorv32_regs, rewritten: the register array is renamed and indexed by 31 - addr
// (the same entry as ~addr for a 5-bit address), the read ports are reordered.
module picorv32_regs (
	input clk, wen,
	input [5:0] waddr,
	input [5:0] raddr1,
	input [5:0] raddr2,
	input [31:0] wdata,
	output [31:0] rdata1,
	output [31:0] rdata2
);
	reg [31:0] rf [0:30];

	wire [4:0] widx = 5'd31 - waddr[4:0];
	wire [4:0] ridx1 = 5'd31 - raddr1[4:0];
	wire [4:0] ridx2 = 5'd31 - raddr2[4:0];

	assign rdata2 = rf[ridx2];
	assign rdata1 = rf[ridx1];

	always @(posedge clk) begin
		if (wen)
			rf[widx] <= wdata;
	end
endmodule
