// Derived from YosysHQ/picorv32 picorv32.v at 87c89acc1899 (ISC, see picorv32/COPYING).
//   Copyright (C) 2015  Claire Xenia Wolf <claire@yosyshq.com>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// picorv32_pcpi_fast_mul, rewritten: the decode is a one-hot vector, operand/product registers
// renamed, the product operands commuted, the high-word select as a slice. The
// RISCV_FORMAL_ALTOPS branch (a formal-verification stand-in) is left out.
module picorv32_pcpi_fast_mul #(
	parameter EXTRA_MUL_FFS = 0,
	parameter EXTRA_INSN_FFS = 0,
	parameter MUL_CLKGATE = 0
) (
	input clk, resetn,

	input             pcpi_valid,
	input      [31:0] pcpi_insn,
	input      [31:0] pcpi_rs1,
	input      [31:0] pcpi_rs2,
	output            pcpi_wr,
	output     [31:0] pcpi_rd,
	output            pcpi_wait,
	output            pcpi_ready
);
	reg [3:0] kind; // {mulhu, mulhsu, mulh, mul}
	wire start_any = |kind;
	wire high_any  = |kind[3:1];
	wire a_sgn     = kind[1] | kind[2];
	wire b_sgn     = kind[1];

	reg hi_sel;
	reg [3:0] stage;
	reg [32:0] a_in, b_in, a_d, b_d;
	reg [63:0] prod, prod_d;

	wire insn_ok = pcpi_insn[31:25] == 7'b0000001 && pcpi_insn[6:0] == 7'b0110011 && pcpi_valid;
	reg insn_ok_d;
	wire decode_en = EXTRA_INSN_FFS ? insn_ok_d : insn_ok;

	always @* begin
		kind = 4'b0000;
		if (decode_en && resetn) begin
			case (pcpi_insn[14:12])
				3'b011: kind = 4'b1000;
				3'b010: kind = 4'b0100;
				3'b001: kind = 4'b0010;
				3'b000: kind = 4'b0001;
				default: kind = 4'b0000;
			endcase
		end
	end

	wire [32:0] mul_a = EXTRA_MUL_FFS ? a_d : a_in;
	wire [32:0] mul_b = EXTRA_MUL_FFS ? b_d : b_in;
	wire [63:0] result = EXTRA_MUL_FFS ? prod_d : prod;

	always @(posedge clk) begin
		if (stage[2] || !MUL_CLKGATE)
			prod_d <= prod;
		if (stage[1] || !MUL_CLKGATE)
			prod <= $signed(mul_b) * $signed(mul_a);
		if (stage[0] || !MUL_CLKGATE) begin
			b_d <= b_in;
			a_d <= a_in;
		end
		insn_ok_d <= insn_ok;
	end

	always @(posedge clk) begin
		hi_sel <= high_any;
		stage[3:1] <= stage[2:0];
		stage[0] <= 0;
		if (start_any && !(EXTRA_MUL_FFS ? stage[3:0] : stage[1:0])) begin
			a_in <= {a_sgn & pcpi_rs1[31], pcpi_rs1};
			b_in <= {b_sgn & pcpi_rs2[31], pcpi_rs2};
			stage[0] <= 1;
		end
		if (!resetn)
			stage <= 0;
	end

	assign pcpi_wait = 1'b0;
	assign pcpi_ready = EXTRA_MUL_FFS ? stage[3] : stage[1];
	assign pcpi_wr = pcpi_ready;
	assign pcpi_rd = hi_sel ? result[63:32] : result[31:0];
endmodule
