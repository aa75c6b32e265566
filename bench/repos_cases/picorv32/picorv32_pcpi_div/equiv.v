// Derived from YosysHQ/picorv32 picorv32.v at 87c89acc1899 (ISC, see picorv32/COPYING).
//   Copyright (C) 2015  Claire Xenia Wolf <claire@yosyshq.com>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// picorv32_pcpi_div, rewritten: the decode uses funct3 bits directly, registers renamed, the
// absolute values written as 0 - x, the compare turned around, statements reordered. The
// RISCV_FORMAL_ALTOPS branches (formal-verification stand-ins) are left out.
module picorv32_pcpi_div (
	input clk, resetn,

	input             pcpi_valid,
	input      [31:0] pcpi_insn,
	input      [31:0] pcpi_rs1,
	input      [31:0] pcpi_rs2,
	output reg        pcpi_wr,
	output reg [31:0] pcpi_rd,
	output reg        pcpi_wait,
	output reg        pcpi_ready
);
	reg op_div, op_divu, op_rem, op_remu;
	wire op_any = op_div | op_divu | op_rem | op_remu;
	wire op_signed = op_div | op_rem;

	reg wait_d;
	wire begin_div = pcpi_wait & ~wait_d;

	wire is_muldiv = pcpi_insn[31:25] == 7'b0000001 && pcpi_insn[6:0] == 7'b0110011;

	always @(posedge clk) begin
		wait_d <= resetn && pcpi_wait;
		pcpi_wait <= resetn && op_any;

		op_div <= 0;
		op_divu <= 0;
		op_rem <= 0;
		op_remu <= 0;
		if (is_muldiv && pcpi_valid && !pcpi_ready && resetn && pcpi_insn[14]) begin
			op_div  <= pcpi_insn[13:12] == 2'b00;
			op_divu <= pcpi_insn[13:12] == 2'b01;
			op_rem  <= pcpi_insn[13:12] == 2'b10;
			op_remu <= pcpi_insn[13:12] == 2'b11;
		end
	end

	reg [31:0] rem_q;
	reg [62:0] den_q;
	reg [31:0] quo_q;
	reg [31:0] bit_q;
	reg busy;
	reg neg;

	wire [31:0] abs_a = (op_signed && pcpi_rs1[31]) ? 32'd0 - pcpi_rs1 : pcpi_rs1;
	wire [31:0] abs_b = (op_signed && pcpi_rs2[31]) ? 32'd0 - pcpi_rs2 : pcpi_rs2;

	always @(posedge clk) begin
		pcpi_rd <= 'bx;
		pcpi_wr <= 0;
		pcpi_ready <= 0;

		if (!resetn) begin
			busy <= 0;
		end else if (begin_div) begin
			bit_q <= 32'h8000_0000;
			quo_q <= 0;
			neg <= (op_rem && pcpi_rs1[31]) || (op_div && |pcpi_rs2 && (pcpi_rs1[31] ^ pcpi_rs2[31]));
			den_q <= {abs_b, 31'd0};
			rem_q <= abs_a;
			busy <= 1;
		end else if (busy && bit_q == 0) begin
			pcpi_ready <= 1;
			pcpi_wr <= 1;
			busy <= 0;
			// the flags may have dropped by now: anything but a division returns the remainder
			if (op_div || op_divu)
				pcpi_rd <= neg ? 32'd0 - quo_q : quo_q;
			else
				pcpi_rd <= neg ? 32'd0 - rem_q : rem_q;
		end else begin
			bit_q <= bit_q >> 1;
			den_q <= den_q >> 1;
			if (!(den_q > rem_q)) begin
				quo_q <= bit_q | quo_q;
				rem_q <= rem_q - den_q;
			end
		end
	end
endmodule
