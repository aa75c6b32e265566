// ALU operation codes, shared by the units of the fixture (an include folder, as a user's
// build passes with +incdir+)
`ifndef ALU_DEFS_VH
`define ALU_DEFS_VH
`define ALU_ADD 3'd0
`define ALU_SUB 3'd1
`define ALU_AND 3'd2
`define ALU_OR  3'd3
`define ALU_XOR 3'd4
`define ALU_SLL 3'd5
`define ALU_SRL 3'd6
`define ALU_SLT 3'd7
`define XLEN 16
`endif
