// an instruction classifier; its opcode macros come from an include inside the module
module dec_unit (
    input             clk,
    input             rst_n,
    input             in_valid,
    input      [31:0] insn,
    output reg        is_mem,
    output reg        is_ctrl,
    output reg        is_alu,
    output reg [4:0]  rd,
    output reg        rd_we
);
`include "dec_ops.vh"
    wire [6:0] opc = insn[6:0];
    wire mem  = opc == `OP_LOAD || opc == `OP_STORE;
    wire ctrl = opc == `OP_BRANCH || opc == `OP_JAL;
    wire alu  = opc == `OP_IMM || opc == `OP_REG || opc == `OP_LUI;
    wire we   = opc == `OP_LOAD || alu || opc == `OP_JAL;
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            is_mem  <= 1'b0;
            is_ctrl <= 1'b0;
            is_alu  <= 1'b0;
            rd      <= 5'd0;
            rd_we   <= 1'b0;
        end else if (in_valid) begin
            is_mem  <= mem;
            is_ctrl <= ctrl;
            is_alu  <= alu;
            rd      <= insn[11:7];
            rd_we   <= we && insn[11:7] != 5'd0;
        end
    end
endmodule
