"""The screen's detectors of constructs Yosys and simulation read differently (no tool runs):
x/z digits outside casez/casex items and values, real numbers outside parameter declarations,
and races between clocked blocks; with the ordinary RTL each must let through."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.harness import screen_candidate, screen_preprocessed
from rtlopt.harness._readings import reading_problems
from rtlopt.verilog import blank_comments


def _found(text: str) -> list[str]:
    return [msg for _, msg in reading_problems(blank_comments(text))]


def _case(kind: str, item: str) -> str:
    return (
        "module m (input [3:0] a, output reg y);\n"
        f"  always @* {kind} (a)\n    {item}: y = 1'b1;\n    default: y = 1'b0;\n  endcase\n"
        "endmodule\n"
    )


@pytest.mark.parametrize(
    ("kind", "item", "rejected"),
    [
        ("case", "4'b10x1", True),
        ("case", "4'b10z1", True),
        ("case", "4'b10?1", True),
        ("case", "4'hx", True),
        ("casez", "4'b10x1", True),
        ("casez", "4'b10?1", False),
        ("casez", "4'b10z1", False),
        ("casez", "{2'b1?, 2'b0z}", False),
        ("casex", "4'b10x1", False),
        ("casex", "4'b1z?x", False),
        ("case", "4'b1001", False),
        ("case", "4'd9", False),
    ],
)
def test_x_and_z_digits_of_case_items(kind: str, item: str, rejected: bool) -> None:
    found = _found(_case(kind, item))
    assert bool(found) == rejected, found
    assert all("x/z digits" in m for m in found)


@pytest.mark.parametrize(
    ("body", "in_case"),
    [
        ("always @* case (4'b10x1) a: y = 1'b1; default: y = 1'b0; endcase", True),
        # through a parameter: the proof reads its value where the parameter is used
        (
            "localparam P = 4'b10x1;\n  always @* case (a) P: y = 1'b1; default: y = 1'b0; endcase",
            True,
        ),
        (
            "localparam P = 4'b10x1;\n  localparam Q = P;\n  always @* casez (a) Q: y = 1; endcase",
            True,
        ),
        # a decision on an x constant elsewhere is x in the proof (the miter refuses a candidate
        # that relies on it), a decision in simulation: judged in a reference only
        ("assign y = (a === 4'b10x1);", False),
        ("assign y = (a == 4'bz001) ? 1'b1 : 1'b0;", False),
        ("always @* if (a != 'x) y = 1'b0; else y = 1'b1;", False),
        ("localparam P = 4'b10x1;\n  assign y = (a == P);", False),
    ],
)
def test_x_digits_in_decisions(body: str, in_case: bool) -> None:
    text = f"module m (input [3:0] a, output reg y);\n  {body}\nendmodule\n"
    strict = [m for _, m in reading_problems(blank_comments(text), strict=True)]
    assert strict and all("x/z digits" in m for m in strict), strict
    assert bool(_found(text)) == in_case


@pytest.mark.parametrize(
    "body",
    [
        "always @* case (a) 4'd1: y = 4'd2; default: y = 4'bx; endcase",
        "assign y = a[0] ? {2{2'bxx}} : (4'hx);",
        "assign y = a[0] ? 'z : a;",
        "localparam [3:0] D = 4'bx;\n  assign y = a[0] ? D : a;",
        "assign y = 4'b1001; // 4'b10x1 in a comment",
        'initial $display("4\'b10x1");\n  assign y = a;',
        "wire [3:0] \\w4'b10x1 = a;\n  assign y = \\w4'b10x1 ;",
    ],
)
def test_x_values_comments_strings_and_names_are_not_rejected(body: str) -> None:
    text = f"module m (input [3:0] a, output reg [3:0] y);\n  {body}\nendmodule\n"
    assert reading_problems(blank_comments(text), strict=True) == ()


@pytest.mark.parametrize(
    "body",
    [
        "assign y = (a[0] ? 0.4 : 0.0) * 3;",
        "assign y = a + 1.5e1;",
        "assign y = a + 2e3;",
        "assign y = a + 1ns;",
        "assign y = $rtoi($itor(a) * 2);",
        "assign y = $realtobits(a);",
        "localparam K = 0.5;\n  assign y = a[0] ? K * 4 : 0;",
        "localparam K = 0.5;\n  localparam J = K;\n  assign y = a + J;",
    ],
)
def test_real_numbers_outside_parameters_are_rejected(body: str) -> None:
    text = f"module m (input [3:0] a, output [7:0] y);\n  {body}\nendmodule\n"
    found = _found(text)
    assert found and all("real" in m for m in found), found


@pytest.mark.parametrize(
    "body",
    [
        "localparam integer N = 2.5 * 4;\n  assign y = a + N;",
        "localparam [7:0] M = 0.5 * 4;\n  assign y = a + M;",
        "localparam W = $clog2(200);\n  assign y = a + W;",
        "assign y = a + 16'h 1e5 + 8'd10;",
        "assign y = a; // 0.4 * 3",
        'wire [23:0] s = "1.5";\n  assign y = a + s[7:0];',
    ],
)
def test_integers_and_constant_reals_are_not_rejected(body: str) -> None:
    text = f"`timescale 1ns / 1ps\nmodule m (input [3:0] a, output [7:0] y);\n  {body}\nendmodule\n"
    assert _found(text) == []


def test_a_real_parameter_override_is_a_constant() -> None:
    text = (
        "module m (input [3:0] a, output [7:0] y);\n  sub #(.K(0.5)) u (.a(a), .y(y));\nendmodule\n"
    )
    assert _found(text) == []


def _clocked(*blocks: str, decls: str = "reg [3:0] t, s, q, p;") -> str:
    body = "\n".join(f"  {b}" for b in blocks)
    return (
        "module m (input clk, input rst, input c, input [3:0] d, output [3:0] o);\n"
        f"  {decls}\n{body}\n  assign o = q ^ p;\nendmodule\n"
    )


@pytest.mark.parametrize(
    "blocks",
    [
        # the red team's form: the writer declared last
        ("always @(posedge clk) q <= t;", "always @(posedge clk) t = d;"),
        ("always @(posedge clk) t = d;", "always @(posedge clk) q <= t;"),
        # a shared edge of two event lists, always_ff, negedge
        (
            "always @(posedge clk or posedge rst) if (rst) t = 0; else t = d;",
            "always @(posedge clk) q <= t;",
        ),
        ("always_ff @(negedge clk) t = d;", "always_ff @(negedge clk) q <= t;"),
        # a read before a conditional write, and a partial write
        ("always @(posedge clk) t = d;", "always @(posedge clk) begin if (c) t = 0; q <= t; end"),
        ("always @(posedge clk) t = d;", "always @(posedge clk) begin t[0] = 1'b0; q <= t; end"),
        # read through combinational logic, and through a function
        ("always @(posedge clk) t = d;", "always @* s = t + 1;", "always @(posedge clk) q <= s;"),
        (
            "always @(posedge clk) t = d;",
            "function [3:0] f(input [3:0] x); f = x ^ t; endfunction",
            "always @(posedge clk) q <= f(d);",
        ),
        # the same instant under another name: an alias of the clock, an inverted one on the
        # other edge, a clock made by other logic (any instant)
        ("wire c2 = clk;", "always @(posedge clk) t = d;", "always @(posedge (c2)) q <= t;"),
        (
            "wire cn;",
            "assign cn = ~clk;",
            "always @(posedge clk) t = d;",
            "always @(negedge cn) q <= t;",
        ),
        ("wire g = clk & c;", "always @(posedge clk) t = d;", "always @(posedge g) q <= t;"),
        # read by a submodule through a port (not analysed: fail closed)
        ("always @(posedge clk) t = d;", "sub u (.clk(clk), .x(t));"),
    ],
)
def test_races_between_clocked_blocks_are_found(blocks: tuple[str, ...]) -> None:
    found = _found(_clocked(*blocks))
    assert found and all("blocking assignment" in m for m in found), found


@pytest.mark.parametrize(
    "blocks",
    [
        # the common loop variable of two clocked for-loops: each block writes i first
        (
            "always @(posedge clk) for (i = 0; i < 4; i = i + 1) q[i] <= d[i];",
            "always @(posedge clk) begin if (rst) p <= 0; else for (i = 0; i < 4; i = i + 1) "
            "p[i] <= q[i]; end",
        ),
        # nonblocking reads
        ("always @(posedge clk) t <= d;", "always @(posedge clk) q <= t;"),
        # a blocking temporary used only in its own block
        ("always @(posedge clk) begin t = d + 1; q <= t; end", "always @(posedge clk) p <= q;"),
        # a variable local to a named block, one of each name per block
        (
            "always @(posedge clk) begin : a reg [3:0] v; v = d; q <= v; end",
            "always @(posedge clk) begin : b reg [3:0] v; v = ~d; p <= v; end",
        ),
        # another edge, another clock, a combinational reader
        ("always @(posedge clk) t = d;", "always @(negedge clk) q <= t;"),
        ("always @(posedge clk) t = d;", "always @(posedge rst) q <= t;"),
        ("wire cn = ~clk;", "always @(posedge clk) t = d;", "always @(posedge cn) q <= t;"),
        ("always @(posedge clk) t = d;", "assign s = t;"),
        # a write before the read in every branch
        (
            "always @(posedge clk) t = d;",
            "always @(posedge clk) begin if (c) t = 0; else t = 1; q <= t; end",
        ),
    ],
)
def test_ordinary_clocked_blocks_are_not_races(blocks: tuple[str, ...]) -> None:
    assert _found(_clocked(*blocks, decls="reg [3:0] t, s, q, p; integer i;")) == []


def test_a_race_in_text_the_parser_rejects_is_not_passed() -> None:
    text = _clocked("always @(posedge clk) t = d;", "always @(posedge clk) q <= t; )")
    found = _found(text)
    assert found and "cannot read" in found[0], found


def _design(tmp_path: Path, text: str) -> Design:
    f = tmp_path / "m.v"
    f.write_text(text)
    start = text.index("module")
    end = text.index("endmodule") + len("endmodule")
    m = Module("m", f, 1, start, end, (Port("a", "input", 4, 3, 0), Port("y", "output", 4, 3, 0)))
    return Design(tmp_path, m, SourceSet(tmp_path, (f,)), {"m": m}, (f,))


X_REF = (
    "module m(input [3:0] a, output reg [3:0] y);\n"
    "  always @* case (a) 4'b10x1: y = 4'd0; default: y = a; endcase\nendmodule\n"
)


@pytest.mark.parametrize(
    "ref",
    [
        X_REF,
        "module m(input [3:0] a, output [3:0] y);\n  assign y = a + 0.5 * 2;\nendmodule\n",
        "module m(input [3:0] a, output [3:0] y);\n  `ifdef NEVER\n  assign y = a + 0.5;\n"
        "  `else\n  assign y = a + 1.5;\n  `endif\nendmodule\n",
    ],
)
def test_a_reference_read_differently_leaves_a_changed_candidate_unchecked(
    tmp_path: Path, ref: str
) -> None:
    design = _design(tmp_path, ref)
    assert screen_candidate(ref, design) == []  # the reference itself: nothing to judge
    found = screen_candidate(ref.replace("  ", "   "), design)
    assert found and "unchecked: the reference module" in found[0], found
    pp = screen_preprocessed("module m; endmodule\n", "x", design, reference=ref)
    assert any("unchecked: the reference" in f for f in pp), pp


def test_a_construct_in_a_branch_the_design_switches_off_is_not_judged(tmp_path: Path) -> None:
    ref = (
        "module m(input [3:0] a, output [3:0] y);\n  `ifdef NEVER\n  assign y = a + 0.5;\n"
        "  `else\n  assign y = a + 4'd1;\n  `endif\nendmodule\n"
    )
    design = _design(tmp_path, ref)
    assert screen_candidate(ref.replace("  ", "   "), design) == []


def test_a_blocking_write_that_reaches_an_output_port_is_a_race_in_a_candidate() -> None:
    """The parent's clocked blocks may read the output on the same edge; a reference's own
    such output is the parent's matter (both proofs and its simulation read the same
    module), so only a candidate is held to it."""
    text = (
        "module m (input clk, input [3:0] d, output reg [3:0] q, output [3:0] o);\n"
        "  reg [3:0] t;\n  always @(posedge clk) begin t = d; q = t + 1; end\n"
        "  assign o = t;\nendmodule\n"
    )
    found = _found(text)
    assert len(found) == 2 and all("output port" in m for m in found), found
    assert reading_problems(blank_comments(text), strict=True) == ()
    nonblocking = text.replace("q = t + 1", "q <= t + 1").replace("assign o = t", "assign o = q")
    assert _found(nonblocking) == []


def test_an_output_the_reference_exposes_the_same_way_is_not_a_new_race(tmp_path: Path) -> None:
    ref = (
        "module m (input clk, input [3:0] a, output reg [3:0] y, output reg [3:0] z);\n"
        "  always @(posedge clk) begin y = a + 4'd1; z <= a; end\nendmodule\n"
    )
    design = _design(tmp_path, ref)
    assert screen_candidate(ref.replace("a + 4'd1", "4'd1 + a"), design) == []
    found = screen_candidate(ref.replace("z <= a", "z = a"), design)
    assert found and "'z'" in found[0] and "output port" in found[0], found


def test_a_text_nested_past_the_parser_is_a_problem_not_a_crash() -> None:
    deep = "module m (input clk, input [3:0] d, output reg [3:0] q);\n  always @(posedge clk) "
    deep += "begin " * 3000 + "q <= d; " + "end " * 3000 + "\nendmodule\n"
    found = _found(deep)
    assert found and "nests deeper" in found[0], found


def test_a_repository_macro_that_holds_an_x_case_item_is_read_expanded(tmp_path: Path) -> None:
    """On the SystemVerilog view path the raw text is screened: a macro from a repository
    header that expands to an x case item (Yosys: a wildcard) must be seen expanded."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "defs.svh").write_text("`define XITEM 4'b10x1\n`define ONE 4'd1\n")
    ref = "module m(input [3:0] a, output reg [3:0] y);\n  always @* y = a;\nendmodule\n"
    design = _design(tmp_path, ref)
    design = Design(
        tmp_path,
        design.target,
        SourceSet(tmp_path, design.sources.files, include_dirs=(tmp_path / "inc",)),
        design.modules,
        design.closure,
    )
    head = '`include "defs.svh"\n'
    cand = (
        head + "module m(input [3:0] a, output reg [3:0] y);\n"
        "  always @* case (a) `XITEM: y = 4'd0; default: y = a; endcase\nendmodule\n"
    )
    found = screen_candidate(cand, design)
    assert any("macros expanded" in f for f in found), found
    # a macro holding a plain constant is read alike: no problem from the expansion
    plain = cand.replace("`XITEM", "`ONE")
    assert not any("macros expanded" in f for f in screen_candidate(plain, design))
