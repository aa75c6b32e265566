// Derived from YosysHQ/picorv32 picorv32.v at 87c89acc1899 (ISC, see picorv32/COPYING).
//   Copyright (C) 2015  Claire Xenia Wolf <claire@yosyshq.com>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// picorv32_axi_adapter, rewritten: handshake flags renamed, the write test named, assigns
// reordered, the clear written as an if/else around the set conditions.
module picorv32_axi_adapter (
	input clk, resetn,

	// AXI4-lite master memory interface

	output        mem_axi_awvalid,
	input         mem_axi_awready,
	output [31:0] mem_axi_awaddr,
	output [ 2:0] mem_axi_awprot,

	output        mem_axi_wvalid,
	input         mem_axi_wready,
	output [31:0] mem_axi_wdata,
	output [ 3:0] mem_axi_wstrb,

	input         mem_axi_bvalid,
	output        mem_axi_bready,

	output        mem_axi_arvalid,
	input         mem_axi_arready,
	output [31:0] mem_axi_araddr,
	output [ 2:0] mem_axi_arprot,

	input         mem_axi_rvalid,
	output        mem_axi_rready,
	input  [31:0] mem_axi_rdata,

	// Native PicoRV32 memory interface

	input         mem_valid,
	input         mem_instr,
	output        mem_ready,
	input  [31:0] mem_addr,
	input  [31:0] mem_wdata,
	input  [ 3:0] mem_wstrb,
	output [31:0] mem_rdata
);
	reg aw_sent;
	reg ar_sent;
	reg w_sent;
	reg done_q;

	wire is_write = |mem_wstrb;

	assign mem_rdata = mem_axi_rdata;
	assign mem_ready = mem_axi_rvalid || mem_axi_bvalid;

	assign mem_axi_rready = !is_write && mem_valid;
	assign mem_axi_bready = is_write && mem_valid;

	assign mem_axi_wstrb = mem_wstrb;
	assign mem_axi_wdata = mem_wdata;
	assign mem_axi_wvalid = !w_sent && is_write && mem_valid;

	assign mem_axi_arprot = {mem_instr, 2'b00};
	assign mem_axi_araddr = mem_addr;
	assign mem_axi_arvalid = !ar_sent && !is_write && mem_valid;

	assign mem_axi_awprot = 3'b000;
	assign mem_axi_awaddr = mem_addr;
	assign mem_axi_awvalid = !aw_sent && is_write && mem_valid;

	wire clear = !mem_valid || done_q;

	always @(posedge clk) begin
		if (resetn) begin
			done_q <= mem_ready && mem_valid;
			if (clear) begin
				w_sent <= 0;
				ar_sent <= 0;
				aw_sent <= 0;
			end else begin
				if (mem_axi_wvalid && mem_axi_wready)
					w_sent <= 1;
				if (mem_axi_arvalid && mem_axi_arready)
					ar_sent <= 1;
				if (mem_axi_awvalid && mem_axi_awready)
					aw_sent <= 1;
			end
		end else begin
			aw_sent <= 0;
		end
	end
endmodule
