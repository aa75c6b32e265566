"""A target whose parent passes it a parameter chosen by a macro: the synthesis reading gives
K = 1, another reading (the simulators', another build's) gives K = 200 (red team round 34 F1).
"""

from __future__ import annotations

M = """module m #(parameter [7:0] K = 8'd1) (input [7:0] a, output [7:0] y);
  assign y = a + K;
endmodule
"""
#: Differs from ``M`` only at K = 200.
AT_200 = M.replace("a + K", "a + (((K ^ 8'h55) == 8'h9d) ? 8'd0 : K)")
#: Equivalent to ``M`` at every K.
EQUIVALENT = M.replace("a + K", "K + a")


def _top(decl: str, value: str = "P") -> str:
    return (
        f"module top(input [7:0] a, output [7:0] y);\n{decl}"
        f"  m #(.K({value})) u(.a(a), .y(y));\nendmodule\n"
    )


def _choice(macro: str, there: str, other: str) -> str:
    return (
        f"`ifdef {macro}\n  localparam [7:0] P = 8'd{there};\n`else\n"
        f"  localparam [7:0] P = 8'd{other};\n`endif\n"
    )


#: Each form: the files besides ``m.v``.
FORMS: dict[str, dict[str, str]] = {
    "lp": {"top.v": _top(_choice("SYNTHESIS", "1", "200"))},
    "macro": {
        "top.v": "`ifdef SYNTHESIS\n`define KV 8'd1\n`else\n`define KV 8'd200\n`endif\n"
        + _top("", "`KV")
    },
    "sim": {"top.v": _top(_choice("SIMULATION", "200", "1"))},
    "icarus": {"top.v": _top(_choice("__ICARUS__", "200", "1"))},
    "pkg": {
        "p.sv": "package p;\n`ifdef SYNTHESIS\n  localparam logic [7:0] KP = 8'd1;\n`else\n"
        "  localparam logic [7:0] KP = 8'd200;\n`endif\nendpackage\n",
        "top.sv": _top("", "p::KP"),
    },
}
#: The readings agree (the branches hold no value the target reads).
AGREE = {
    "top.v": "module top(input [7:0] a, output [7:0] y);\n`ifndef SYNTHESIS\n"
    '  initial $display("simulating");\n`endif\n  m #(.K(8\'d5)) u(.a(a), .y(y));\nendmodule\n'
}
