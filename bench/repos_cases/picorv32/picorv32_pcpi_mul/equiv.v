// Derived from YosysHQ/picorv32 picorv32.v at 87c89acc1899 (ISC, see picorv32/COPYING).
//   Copyright (C) 2015  Claire Xenia Wolf <claire@yosyshq.com>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// picorv32_pcpi_mul, rewritten: the decode is one compare on the opcode/funct7 fields, the
// operand registers and the carry-save accumulator are renamed, the sign extension is a
// replication, additions are commuted and statements reordered.
module picorv32_pcpi_mul #(
	parameter STEPS_AT_ONCE = 1,
	parameter CARRY_CHAIN = 4
) (
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
	reg is_mul, is_mulh, is_mulhsu, is_mulhu;
	wire any_mul  = is_mul | is_mulh | is_mulhsu | is_mulhu;
	wire any_high = is_mulh | is_mulhsu | is_mulhu;
	wire a_signed = is_mulh | is_mulhsu;
	wire b_signed = is_mulh;

	reg wait_d;
	wire go = pcpi_wait & ~wait_d;

	wire m_ext = {pcpi_insn[31:25], pcpi_insn[6:0]} == 14'b0000001_0110011;

	always @(posedge clk) begin
		pcpi_wait <= any_mul;
		wait_d <= pcpi_wait;

		{is_mulhu, is_mulhsu, is_mulh, is_mul} <= 4'b0000;
		if (pcpi_valid && m_ext && resetn) begin
			case (pcpi_insn[14:12])
				3'b011: is_mulhu <= 1;
				3'b010: is_mulhsu <= 1;
				3'b001: is_mulh <= 1;
				3'b000: is_mul <= 1;
			endcase
		end
	end

	reg [63:0] opa, opb, acc, acc_c;
	reg [63:0] opa_n, opb_n, addend;
	reg [63:0] acc_n, acc_c_n, carry_t;
	reg [6:0] steps_left;
	reg idle;
	reg done;
	integer s, k;

	always @* begin
		opa_n = opa;
		opb_n = opb;
		acc_n = acc;
		acc_c_n = acc_c;

		for (s = 0; s < STEPS_AT_ONCE; s = s + 1) begin
			addend = opa_n[0] ? opb_n : 64'd0;
			if (CARRY_CHAIN == 0) begin
				carry_t = addend ^ acc_c_n ^ acc_n;
				acc_c_n = ((addend & acc_c_n) | (addend & acc_n) | (acc_c_n & acc_n)) << 1;
				acc_n = carry_t;
			end else begin
				carry_t = 0;
				for (k = 0; k < 64; k = k + CARRY_CHAIN)
					{carry_t[k+CARRY_CHAIN-1], acc_n[k +: CARRY_CHAIN]} =
							addend[k +: CARRY_CHAIN] + acc_c_n[k +: CARRY_CHAIN] + acc_n[k +: CARRY_CHAIN];
				acc_c_n = carry_t << 1;
			end
			opb_n = opb_n << 1;
			opa_n = opa_n >> 1;
		end
	end

	always @(posedge clk) begin
		done <= 0;
		if (!resetn) begin
			idle <= 1;
		end else if (!idle) begin
			acc_c <= acc_c_n;
			acc <= acc_n;
			opb <= opb_n;
			opa <= opa_n;

			steps_left <= steps_left - STEPS_AT_ONCE;
			if (steps_left[6]) begin
				idle <= 1;
				done <= 1;
			end
		end else begin
			opa <= {{32{a_signed & pcpi_rs1[31]}}, pcpi_rs1};
			opb <= {{32{b_signed & pcpi_rs2[31]}}, pcpi_rs2};
			acc_c <= 0;
			acc <= 0;
			steps_left <= any_high ? 63 - STEPS_AT_ONCE : 31 - STEPS_AT_ONCE;
			idle <= ~go;
		end
	end

	always @(posedge clk) begin
		pcpi_ready <= 0;
		pcpi_wr <= 0;
		if (resetn && done) begin
			pcpi_rd <= any_high ? acc[63:32] : acc[31:0];
			pcpi_ready <= 1;
			pcpi_wr <= 1;
		end
	end
endmodule
