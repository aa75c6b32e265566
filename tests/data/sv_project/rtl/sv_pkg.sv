// A package used through `import sv_pkg::*` in module headers: an enum, a packed struct, a
// constant and a function (none of which Yosys 0.23 or iverilog 11 can take from a package).
package sv_pkg;
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

  localparam int unsigned Lanes = 2;

  function automatic logic [7:0] swap_nibbles(logic [7:0] x);
    return {x[3:0], x[7:4]};
  endfunction
endpackage
