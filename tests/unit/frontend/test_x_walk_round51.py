"""Rounds 51, 53 and 54: x sources the walk of ``frontend/_open_inputs.py`` took for defined drivers.

- ``**`` whose exponent may be negative, a constant one too (``en ** -1``: 0 ** -1 is x);
- a function's or task's local declared in a block nested in its body (``begin : blk reg s;
  ... end``, ``begin logic s; ... end``) read before any write;
- a function's result (an output argument) read before its first write (``f = f & d;``);
- a local's initializer: what it reads counts as read by the function (a local never written,
  a module's name), and a static local's initializer runs once at time 0 (x when it reads a
  name);
- a ``case`` without ``default`` whose items name every value but whose selector may be x at
  run time (``case (en / en)``, an out-of-range select): no item matches, what it writes is
  left unwritten on that path, in a combinational block, an ``initial`` or a function.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.frontend._open_inputs import open_inputs, open_inputs_reason
from tests.unit.frontend.test_run_x import _design

FN_HEAD = "  function automatic logic f(input logic d);\n"
STATIC_HEAD = "  function logic f(input logic d);\n"
CALL = "  endfunction\n  wire w = f(s[0]);\n"
REG = "  reg r;\n  always @(posedge s[2]) r <= s[0];\n"
FULL = "1'b0: w = 1'b0; 1'b1: w = 1'b1; endcase\n"
OUT_HEAD = "  logic w;\n  function automatic void f(input logic e, output logic o);\n"
OUT_CALL = "  endfunction\n  always_comb f(s[0], w);\n"
FN_FULL = "1'b0: f = 1'b0; 1'b1: f = 1'b1; endcase\n"

FOUND = {
    # a negative exponent, constant or not, with a base that may be 0
    "power_constant": ("  wire w = s[0] ** -1;\n", "run"),
    "power_parameter": ("  localparam signed E = -1;\n  wire w = s[0] ** E;\n", "run"),
    "power_sized": ("  wire w = s[0] ** -2'sd1;\n", "run"),
    "power_wide_base": ("  wire [7:0] p = a ** -1;\n  wire w = p[0];\n", "run"),
    "power_procedural": ("  reg w;\n  always @* w = s[1] ** -1;\n", "run"),
    "power_in_function": (f"{FN_HEAD}    f = d ** -1;\n{CALL}", "run"),
    # a local of a nested block, read before any write
    "named_block_local": (
        "  function f(input d);\n    begin : blk reg t; f = d & t; end\n" + CALL,
        "unassigned",
    ),
    "unnamed_block_local": (f"{FN_HEAD}    begin logic t; f = d & t; end\n{CALL}", "unassigned"),
    "nested_blocks_local": (
        f"{FN_HEAD}    begin : o begin : i logic t; if (d) t = 1'b1; f = t; end end\n{CALL}",
        "unassigned",
    ),
    "loop_body_local": (
        f"{FN_HEAD}    f = d;\n    for (int i = 0; i < 2; i++) begin logic t; f = f ^ t; end\n"
        + CALL,
        "unassigned",
    ),
    "output_block_local": (
        f"{OUT_HEAD}    begin : b logic l; if (e) l = 1'b1; o = l; end\n{OUT_CALL}",
        "unassigned",
    ),
    # the result (an output argument) read before its first write
    "result_read_first": (f"{FN_HEAD}    f = f & d;\n{CALL}", "unassigned"),
    "result_static": ("  function f(input d);\n    f = f | d;\n" + CALL, "unassigned"),
    "result_bit": (
        "  function automatic logic [1:0] f(input logic d);\n"
        "    f[0] = d; f[1] = f[1] ^ d;\n  endfunction\n"
        "  wire [1:0] fw = f(s[0]);\n  wire w = fw[1];\n",
        "unassigned",
    ),
    "output_read_first": (f"{OUT_HEAD}    o = o ^ e;\n{OUT_CALL}", "unassigned"),
    # what an initializer reads: a local never written, a module's name; a static one at 0
    "static_init_local": (
        f"{STATIC_HEAD}    logic t; static logic u = t;\n    f = d & u;\n{CALL}",
        "unassigned",
    ),
    "automatic_init_local": (
        f"{FN_HEAD}    logic t; logic u = t;\n    f = d & u;\n{CALL}",
        "unassigned",
    ),
    "nested_init_local": (
        f"{FN_HEAD}    logic t;\n    begin logic u = t; f = d & u; end\n{CALL}",
        "unassigned",
    ),
    "static_init_register": (
        f"{REG}{STATIC_HEAD}    static logic t = r;\n    f = d & t;\n{CALL}",
        "unassigned",
    ),
    "static_init_net": (
        f"  wire q = s[1];\n{STATIC_HEAD}    static logic t = q;\n    f = d & t;\n{CALL}",
        "unassigned",
    ),
    "automatic_init_register": (
        f"{REG}{FN_HEAD}    logic t = r;\n    f = d & t;\n{CALL}",
        "powerup",
    ),
    # a full case without default whose selector may be x at run time
    "case_divide": (f"  reg w;\n  always @* case (s[0] / s[0]) {FULL}", "latch"),
    "case_unique": (f"  reg w;\n  always_comb unique case (s[0] / s[0]) {FULL}", "latch"),
    "case_select": (
        f"  wire [2:0] v = {{s[0], s[1], s[0]}};\n  reg w;\n"
        f"  always @* case (v[{{s[0], s[1]}}]) {FULL}",
        "latch",
    ),
    "case_call": (
        "  function automatic logic g(input logic d);\n    if (d) g = 1'b1;\n  endfunction\n"
        f"  reg w;\n  always @* case (g(s[0])) {FULL}",
        "latch",
    ),
    "case_initial": (f"  reg w;\n  initial case (s[0] / s[0]) {FULL}", "initial"),
    "case_function_select": (
        f"{FN_HEAD}    logic [2:0] v; v = {{d, d, d}};\n    case (v[{{d, d}}]) {FN_FULL}{CALL}",
        "unassigned",
    ),
    "case_function_divide": (f"{FN_HEAD}    case (d / d) {FN_FULL}{CALL}", "unassigned"),
    "case_function_two_bits": (
        f"{FN_HEAD}    case ({{d, d}} / {{1'b0, d}})\n"
        "      2'd0: f = 1'b0; 2'd1: f = 1'b1; 2'd2: f = 1'b0; 2'd3: f = 1'b1;\n"
        f"    endcase\n{CALL}",
        "unassigned",
    ),
    "case_output": (
        f"{OUT_HEAD}    case (e / e) 1'b0: o = 1'b0; 1'b1: o = 1'b1; endcase\n{OUT_CALL}",
        "unassigned",
    ),
    # round 53: what a return reads, and what a loop body other than a for loop's reads
    "return_local": (
        f"{FN_HEAD}    logic t;\n    if (d) t = 1'b1;\n    return t;\n{CALL}",
        "unassigned",
    ),
    "return_result": (f"{FN_HEAD}    if (d) f = 1'b1;\n    return f;\n{CALL}", "unassigned"),
    "repeat_body": (
        f"{FN_HEAD}    logic t;\n    f = 1'b0;\n    repeat (1) f = d & t;\n    t = 1'b0;\n{CALL}",
        "unassigned",
    ),
    # round 54: what a return gives, a case selector's x constant, a wildcard's left side
    "return_x": (f"{FN_HEAD}    if (d) return 1'b1;\n    return 1'bx;\n{CALL}", "run"),
    "return_divide": (f"{FN_HEAD}    return d / d;\n{CALL}", "run"),
    "case_x_constant": (f"  reg w;\n  always @* case (s[0] ^ 1'bx) {FULL}", "latch"),
    "case_x_in_function": (f"{FN_HEAD}    case (d ^ 1'bx) {FN_FULL}{CALL}", "unassigned"),
    "wildcard_left_select": (
        "  wire [1:0] v = 2'b01;\n  wire w = v[{s[0], s[0]}] ==? 1'b1;\n",
        "run",
    ),
    "wildcard_left_constant": ("  wire w = (s[0] ^ 1'bx) !=? 1'b1;\n", "x"),
    "while_body": (
        f"{FN_HEAD}    logic t;\n    integer i;\n    f = 1'b0;\n    i = 0;\n"
        f"    while (i < 1) begin f = d & t; i = i + 1; end\n    t = 1'b0;\n{CALL}",
        "unassigned",
    ),
}


@pytest.mark.parametrize("form", list(FOUND))
def test_round_51_x_sources_are_found(tmp_path: Path, form: str) -> None:
    decls, kind = FOUND[form]
    found = open_inputs(_design(tmp_path, decls, "w"))  # type: ignore[arg-type]
    assert [(o.instance, o.port, o.kind) for o in found] == [("top.u", "b", kind)]


@pytest.mark.parametrize(
    "decls",
    [
        # a full case on a defined selector (a loop's index within range too)
        f"  reg w;\n  always @* case (s[0]) {FULL}",
        f"  reg w;\n  always_comb unique case (s[0]) {FULL}",
        "  reg w;\n  always @* case (s[1:0])\n"
        "    2'd0: w = 1'b0; 2'd1: w = 1'b1; 2'd2: w = 1'b1; 2'd3: w = 1'b0;\n  endcase\n",
        "  reg [1:0] v;\n  integer i;\n  always @* for (i = 0; i < 2; i = i + 1)\n"
        "    case (s[i]) 1'b0: v[i] = 1'b0; 1'b1: v[i] = 1'b1; endcase\n  wire w = v[0];\n",
        f"{FN_HEAD}    case (d) {FN_FULL}{CALL}",
        # locals (nested ones too) and the result assigned before they are read
        f"{FN_HEAD}    begin logic t; t = d; f = t; end\n{CALL}",
        "  function f(input d);\n    begin : blk reg t; t = d; f = t; end\n" + CALL,
        f"{FN_HEAD}    logic t = d;\n    f = t;\n{CALL}",
        f"{FN_HEAD}    logic t = d;\n    begin logic u = t; f = u; end\n{CALL}",
        f"{STATIC_HEAD}    static logic t = 1'b0;\n    f = d | t;\n{CALL}",
        f"{FN_HEAD}    f = d;\n    f = f & 1'b1;\n{CALL}",
        f"{FN_HEAD}    logic t;\n    t = d;\n    return t;\n{CALL}",
        f"{FN_HEAD}    logic t;\n    t = d;\n    f = 1'b0;\n    repeat (2) f = f ^ t;\n{CALL}",
        f"{FN_HEAD}    f = 1'b0;\n    for (int i = 0; i < 2; i++) f = f ^ d;\n"
        f"    for (int i = 0; i < 2; i++) f = f ^ d;\n{CALL}",
        # a two-state local reads 0 unwritten
        f"{FN_HEAD}    bit t;\n    f = d & t;\n{CALL}",
        f"{OUT_HEAD}    o = e;\n    o = o ^ e;\n{OUT_CALL}",
        # x or z on a wildcard operator's right side is a wildcard
        "  wire w = s[0] ==? 1'bx;\n",
        "  wire w = s[1:0] !=? 2'b1z;\n",
        # a power whose exponent is never negative, or whose base is never 0
        "  wire w = s[0] ** 2;\n",
        "  wire [7:0] p = 2 ** s;\n  wire w = p[0];\n",
        "  wire [7:0] p = a ** s;\n  wire w = p[0];\n",
    ],
)
def test_round_51_defined_forms_are_not_found(tmp_path: Path, decls: str) -> None:
    assert open_inputs(_design(tmp_path, decls, "w")) == []  # type: ignore[arg-type]


def test_round_51_reasons_name_the_source(tmp_path: Path) -> None:
    def reason(name: str, decls: str) -> str:
        (tmp_path / name).mkdir()
        return open_inputs_reason(_design(tmp_path / name, decls, "w"))  # type: ignore[arg-type]

    power = reason("p", "  wire w = s[0] ** -1;\n")
    assert "s[0] ** -1 (top.v, line 2) raises to -1, an exponent that may be negative" in power
    result = reason("r", f"{FN_HEAD}    f = f & d;\n{CALL}")
    assert "reads its result 'f' (top.v, line 2) before assigning it (x)" in result, result
    local = reason("l", f"{FN_HEAD}    begin logic t; f = d & t; end\n{CALL}")
    assert "leaves its local 't' (top.v, line 3) unassigned (x)" in local, local
    case = reason("c", f"  reg w;\n  always @* case (s[0] / s[0]) {FULL}")
    assert "'w' (top.v, line 2) is written by a combinational block on some paths only" in case
