// Derived from YosysHQ/picorv32 picosoc/simpleuart.v at 87c89acc1899 (ISC, see picorv32/COPYING).
//   Copyright (C) 2017  Claire Xenia Wolf <claire@yosyshq.com>
// Modified for rtlopt's benchmark (an equivalent rewrite); see bench/repos_cases/README.md.
// simpleuart, rewritten: receiver FSM re-encoded (phase + bit counter), registers renamed,
// constants spelled out, increments commuted, branches reordered.
module simpleuart #(parameter integer DEFAULT_DIV = 1) (
	input clk,
	input resetn,

	output ser_tx,
	input  ser_rx,

	input   [3:0] reg_div_we,
	input  [31:0] reg_div_di,
	output [31:0] reg_div_do,

	input         reg_dat_we,
	input         reg_dat_re,
	input  [31:0] reg_dat_di,
	output [31:0] reg_dat_do,
	output        reg_dat_wait
);
	// Receiver re-encoded: a phase (idle, start bit, data bits, stop bit) and a 3-bit data bit
	// counter instead of one 4-bit state 0..10.
	localparam [1:0] RX_IDLE = 2'd0, RX_START = 2'd1, RX_DATA = 2'd2, RX_STOP = 2'd3;

	reg [31:0] div_q;

	reg [1:0]  rx_phase;
	reg [2:0]  rx_bit;
	reg [31:0] rx_cnt;
	reg [7:0]  rx_shift;
	reg [7:0]  rx_data;
	reg        rx_full;

	reg [9:0]  tx_shift;
	reg [3:0]  tx_left;
	reg [31:0] tx_cnt;
	reg        tx_pending;

	wire rx_tick = rx_cnt > div_q;
	wire tx_busy = |tx_left;

	assign ser_tx = tx_shift[0];
	assign reg_div_do = div_q;
	assign reg_dat_do = rx_full ? {24'd0, rx_data} : 32'hffff_ffff;
	assign reg_dat_wait = reg_dat_we && (tx_pending || tx_busy);

	always @(posedge clk) begin
		if (resetn) begin
			if (reg_div_we[3]) div_q[31:24] <= reg_div_di[31:24];
			if (reg_div_we[2]) div_q[23:16] <= reg_div_di[23:16];
			if (reg_div_we[1]) div_q[15: 8] <= reg_div_di[15: 8];
			if (reg_div_we[0]) div_q[ 7: 0] <= reg_div_di[ 7: 0];
		end else begin
			div_q <= DEFAULT_DIV;
		end
	end

	always @(posedge clk) begin
		if (!resetn) begin
			rx_phase <= RX_IDLE;
			rx_bit <= 0;
			rx_cnt <= 0;
			rx_shift <= 0;
			rx_data <= 0;
			rx_full <= 0;
		end else begin
			if (reg_dat_re)
				rx_full <= 0;
			rx_cnt <= 1 + rx_cnt;
			case (rx_phase)
				RX_IDLE: begin
					rx_cnt <= 0;
					if (!ser_rx)
						rx_phase <= RX_START;
				end
				RX_START: begin
					if ({rx_cnt[30:0], 1'b0} > div_q) begin
						rx_cnt <= 0;
						rx_bit <= 0;
						rx_phase <= RX_DATA;
					end
				end
				RX_DATA: begin
					if (rx_tick) begin
						rx_cnt <= 0;
						rx_shift <= {ser_rx, rx_shift[7:1]};
						rx_bit <= rx_bit + 1;
						if (rx_bit == 3'd7)
							rx_phase <= RX_STOP;
					end
				end
				default: begin
					if (rx_tick) begin
						rx_phase <= RX_IDLE;
						rx_full <= 1;
						rx_data <= rx_shift;
					end
				end
			endcase
		end
	end

	always @(posedge clk) begin
		tx_cnt <= tx_cnt + 1;
		if (|reg_div_we)
			tx_pending <= 1;
		if (!resetn) begin
			tx_pending <= 1;
			tx_cnt <= 0;
			tx_left <= 0;
			tx_shift <= 10'h3ff;
		end else if (!tx_busy && tx_pending) begin
			tx_pending <= 0;
			tx_cnt <= 0;
			tx_left <= 15;
			tx_shift <= 10'h3ff;
		end else if (!tx_busy && reg_dat_we) begin
			tx_cnt <= 0;
			tx_left <= 10;
			tx_shift <= {1'b1, reg_dat_di[7:0], 1'b0};
		end else if (tx_busy && tx_cnt > div_q) begin
			tx_cnt <= 0;
			tx_left <= tx_left - 1;
			tx_shift <= {1'b1, tx_shift[9:1]};
		end
	end
endmodule
