"""The enum-parameter design the enum tests share (``tests/unit/frontend/test_enum_params.py``,
``tests/integration/test_enum_probes.py``): a package with an integer enum, a leaf whose enum
parameter ``MODE`` selects a generate branch, and a top that uses the leaf once with
``MODE = ModeSlow`` and once with its default."""

from __future__ import annotations

PKG = """package mode_pkg;
  typedef enum integer {ModeNone = 0, ModeFast = 2, ModeSlow = 3} mode_e;
endpackage
"""

TOP = """module top import mode_pkg::*; (input [3:0] a, output [3:0] y, output [3:0] z);
  leaf #(.MODE(ModeSlow)) u_slow (.a(a), .y(y));
  leaf u_def (.a(a), .y(z));
endmodule
"""


def leaf(*, width_parameter: bool = False) -> str:
    """The leaf module; ``width_parameter`` adds ``parameter int W = 4`` for the port width."""
    params = "parameter mode_e MODE = ModeFast" + (
        ", parameter int W = 4" if width_parameter else ""
    )
    bus = "[W-1:0]" if width_parameter else "[3:0]"
    return f"""module leaf import mode_pkg::*; #({params})
  (input {bus} a, output {bus} y);
  if (MODE == ModeSlow) begin : g_slow
    assign y = ~a;
  end else begin : g_other
    assign y = a;
  end
endmodule
"""
