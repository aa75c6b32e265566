// Shared definitions found through +incdir+ (included by name).
`define CT_CARRY_IN 1'b0
