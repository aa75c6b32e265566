// A coprocessor started by one instruction: opcode 7'b0001011 with funct7 7'b0100000 (a
// 14-bit match, 2^-14 for a random word) and funct3 choosing the operation, then a 6-cycle
// FSM that aborts when the instruction goes away. rtlopt's stimulus tests use it.
module copro_dec (input [2:0] f3, output sub);
  assign sub = (f3 == 3'b101);
endmodule

module copro (
  input             clk,
  input             rst,
  input             valid,
  input      [31:0] insn,
  input      [15:0] a,
  input      [15:0] b,
  output reg        ready,
  output reg [15:0] y
);
  localparam IDLE = 2'd0, RUN = 2'd1, DONE = 2'd2;
  wire [6:0] opcode = insn[6:0];
  wire [9:0] funct;
  assign funct = {insn[31:25], insn[14:12]};
  wire is_sub;
  copro_dec u_dec (.f3(insn[14:12]), .sub(is_sub));
  wire hit = valid && opcode == 7'b0001011 && funct[9:3] == 7'b0100000;
  reg [1:0] state;
  reg [2:0] cnt;
  reg [15:0] acc;
  reg sub_q;
  always @(posedge clk) begin
    if (rst) begin
      state <= IDLE;
      cnt <= 3'd0;
      acc <= 16'd0;
      sub_q <= 1'b0;
      ready <= 1'b0;
      y <= 16'd0;
    end else begin
      ready <= 1'b0;
      case (state)
        IDLE: if (hit) begin
          state <= RUN;
          cnt <= 3'd0;
          sub_q <= is_sub;
          acc <= a;
        end
        RUN: if (!hit) state <= IDLE;
        else begin
          acc <= sub_q ? acc - b : acc + b;
          cnt <= cnt + 3'd1;
          if (cnt == 3'd5) state <= DONE;
        end
        default: begin
          state <= IDLE;
          ready <= 1'b1;
          y <= acc;
        end
      endcase
    end
  end
endmodule
