// a registered ALU whose operation codes and width come from include/alu_defs.vh
`include "alu_defs.vh"

module alu_unit (
    input                  clk,
    input                  rst,
    input                  valid,
    input  [2:0]           op,
    input  [`XLEN-1:0]     a,
    input  [`XLEN-1:0]     b,
    output reg [`XLEN-1:0] y,
    output reg             zero,
    output reg             done
);
    reg [`XLEN-1:0] r;
    always @(*) begin
        case (op)
            `ALU_ADD: r = a + b;
            `ALU_SUB: r = a - b;
            `ALU_AND: r = a & b;
            `ALU_OR:  r = a | b;
            `ALU_XOR: r = a ^ b;
            `ALU_SLL: r = a << b[3:0];
            `ALU_SRL: r = a >> b[3:0];
            default:  r = {{(`XLEN-1){1'b0}}, $signed(a) < $signed(b)};
        endcase
    end
    always @(posedge clk) begin
        if (rst) begin
            y <= 0;
            zero <= 1'b0;
            done <= 1'b0;
        end else begin
            done <= valid;
            if (valid) begin
                y <= r;
                zero <= r == 0;
            end
        end
    end
endmodule
