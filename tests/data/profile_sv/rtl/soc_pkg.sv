// A package imported in module headers: an enum, a packed struct and a constant (Yosys 0.23
// cannot take any of them from a package, so `rtlopt profile` reads this design through slang).
package soc_pkg;
  typedef enum logic [1:0] {
    OpAdd  = 2'd0,
    OpSub  = 2'd1,
    OpXor  = 2'd2,
    OpPass = 2'd3
  } op_e;

  typedef struct packed {
    logic       valid;
    logic [7:0] data;
  } beat_t;

  localparam int unsigned Lanes = 3;
endpackage
