// opcode macros, included inside the module body (biriscv's style)
`define OP_LOAD   7'b0000011
`define OP_STORE  7'b0100011
`define OP_BRANCH 7'b1100011
`define OP_IMM    7'b0010011
`define OP_REG    7'b0110011
`define OP_LUI    7'b0110111
`define OP_JAL    7'b1101111
