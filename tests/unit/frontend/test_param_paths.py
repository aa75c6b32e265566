"""Where a parameter's value goes that the target's own text does not show (round 103): every
branch and case item of a generate construct for the split, a parameter assignment of an
instance whose module uses it as a value, a net's width that no parameter moves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.frontend import load_design
from rtlopt.frontend._param_passed import passed_on
from rtlopt.frontend._param_special import reach_numbers
from rtlopt.frontend._param_split import split_values

HEAD = "module m #(parameter W = 8) (input [W-1:0] a, output y, output z, output [W-1:0] q);\n"


@pytest.mark.parametrize(
    ("body", "uses"),
    [
        (
            "if (W <= 1) assign y = a[0]; else begin : g\n wire [31:0] n = W; assign y = n == 3;\nend\n",
            1,
        ),
        ("if (W > 2) assign y = W; else assign y = 0;\n", 1),  # a branch without begin
        ("case (W) 1: assign z = W; default: begin assign z = W + 1; end endcase\n", 2),
        ("for (genvar i = 0; i < W; i = i + 1) begin : l assign q[i] = W; end\n", 1),
    ],
    ids=["else-branch", "branch-without-begin", "case-items", "loop-body"],
)
def test_the_split_reads_every_branch_of_a_generate_construct_not_its_header(
    body: str, uses: int
) -> None:
    out = split_values(HEAD + body + "endmodule\n", "m", ["W"])
    assert out is not None
    text, found = out
    assert found == uses, text
    # the condition, the case's labels and the loop header stay constants
    assert "W__s <=" not in text and "case (W__s)" not in text and "i < W__s" not in text


def _source(text: str) -> object:
    def source(name: str) -> str | None:
        m = re.search(rf"module {name}\b.*?endmodule", text, re.S)
        return m.group(0) if m else None

    return source


@pytest.mark.parametrize(
    ("sub", "passed"),
    [
        ("assign hit = b && (K * K == 10000);", True),  # a constant comparison: a guard
        # a value use: split there (test_a_split_reads_an_instances_value_uses_from_an_input)
        ("assign hit = (b + K) > 9;", False),
        ("inner #(.J(K)) v (.b(b), .hit(hit));", True),  # passed on, to a guard below
        ("wire [K-1:0] w = {K{b}}; assign hit = ^w;", False),  # widths only: the probes'
        # a generate condition singles out a value as a value use does
        ("if (K == 99) begin : g assign hit = b; end else begin : e assign hit = 1'b0; end", True),
    ],
    ids=["value-guard", "value", "passed-on", "widths-only", "a-guard"],
)
def test_a_parameter_assigned_to_an_instance_is_found_where_its_module_guards_on_it(
    sub: str, passed: bool
) -> None:
    text = (
        "module m #(parameter W = 8) (input [W-1:0] a, output y);\n"
        "  localparam integer W2 = W;\n  h #(.K(W2)) u (.b(a[0]), .hit(y));\nendmodule\n"
        f"module h #(parameter K = 1) (input b, output hit);\n  {sub}\nendmodule\n"
        "module inner #(parameter J = 1) (input b, output hit);\n  assign hit = b ^ (J == 7);\nendmodule\n"
    )
    found = passed_on(text, "m", ["W"], _source(text))  # type: ignore[arg-type]
    assert bool(found) is passed, found
    if passed:
        assert found.startswith("u.") and "(module " in found, found


def test_a_split_reads_an_instances_value_uses_from_an_input() -> None:
    """Held-out trial 51: a wrapper hands DATA_WIDTH to its receiver, which counts to it."""
    from rtlopt.frontend._param_split import split_values

    text = (
        "module m #(parameter W = 8) (input [W-1:0] a, output y);\n"
        "  localparam integer W2 = W;\n  h #(.K(W2)) u (.b(a[0]), .hit(y));\nendmodule\n"
        "module h #(parameter K = 1) (input b, output hit);\n"
        "  g #(.J(K + 1)) v (.b(b), .hit(hit));\nendmodule\n"
        "module g #(parameter J = 1) (input b, output hit);\n"
        "  assign hit = (b + J) > 9;\nendmodule\n"
    )
    found = split_values(text.split("module h")[0], "m", ["W"], sources=_source(text), tag="r")  # type: ignore[arg-type]
    assert found is not None
    out, uses = found
    assert uses == 1, out  # J's one value use, two levels down
    assert "h__splitr_K #(.K(W2)) u (.b(a[0]), .hit(y), .K__v(W2__s))" in out, out
    assert "g__splitr_J #(.J(K + 1)) v (.b(b), .hit(hit), .J__v(K__s + 1))" in out, out
    assert "module g__splitr_J" in out and "(b + J__s) > 9" in out, out
    # a module that names the value only in widths is left as it is
    plain = text.replace("assign hit = (b + J) > 9;", "wire [J-1:0] w = {J{b}}; assign hit = ^w;")
    found = split_values(plain.split("module h")[0], "m", ["W"], sources=_source(plain), tag="r")  # type: ignore[arg-type]
    assert found is not None and found[1] == 0 and "__split" not in found[0], found


def test_a_recursive_module_passing_its_own_parameter_is_no_new_use() -> None:
    text = (
        "module m #(parameter W = 8) (input [W-1:0] a, output y);\n"
        "  if (W <= 1) begin : leaf assign y = a[0]; end else begin : node\n"
        "    wire l, r;\n    m #(.W(W/2)) ul (.a(a[W/2-1:0]), .y(l));\n"
        "    m #(.W(W-W/2)) ur (.a(a[W-1:W/2]), .y(r));\n    assign y = l ^ r;\n  end\nendmodule\n"
    )
    assert passed_on(text, "m", ["W"], _source(text)) == ""  # type: ignore[arg-type]
    # a module rtlopt has no text of takes it: read as passed on
    other = text.replace("m #(.W(W/2)) ul", "lib #(.W(W/2)) ul")
    assert "(module lib)" in passed_on(other, "m", ["W"], _source(other))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("decl", "width"),
    [
        ("localparam integer C = 27 * 27;\n  wire [C-1:0] t = a + b;", 729),
        ("function integer f(input integer n); f = n * 3; endfunction\n"
         "  localparam integer C = f(100);\n  wire [C-1:0] t = a + b;", 300),
        ("wire [W+299:0] t = a + b;", None),  # moves with W: no fixed width
    ],
    ids=["product", "constant-function", "moves-with-W"],
)  # fmt: skip
def test_a_width_no_parameter_moves_is_a_reached_number(
    tmp_path: Path, decl: str, width: int | None
) -> None:
    ref = "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n  assign y = a + b;\nendmodule\n"
    (tmp_path / "m.v").write_text(ref)
    design = load_design(tmp_path / "m.v", "m", Config().project)
    cand = ref.replace("  assign y = a + b;", f"  {decl}\n  assign y = t;")
    got = reach_numbers(cand, "m", design)
    if width is None:
        assert 308 not in got and not any(n > 258 for n in got), got
    else:
        assert width in got, got


LOOP = (
    "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  wire [W-1:0] h;\n"
    "  for (genvar g = 0; g < W; g = g + 1) begin : gl\n{body}  end\n  assign y = h;\nendmodule\n"
)


def test_a_loop_variable_bounded_by_a_parameter_is_read_as_its_value() -> None:
    from rtlopt.frontend._param_guards import new_guards

    ref = LOOP.format(body="    assign h[g] = a[g];\n")
    # a guard on the variable is a guard on W; its own bound and a bit's position are not
    assert new_guards(ref, LOOP.format(body="    assign h[g] = (g * g == 9801);\n"), "m")
    assert new_guards(ref, LOOP.format(body="    assign h[g] = ~a[W - 1 - g];\n"), "m") == []
    # through a signal: the split reads it shifted by the split value's distance from W
    out = split_values(
        LOOP.format(body="    wire [31:0] n = g;\n    assign h[g] = n == 99;\n"), "m", ["W"]
    )
    assert out is not None and out[1] == 1, out
    assert "n = (g + (W__s - W));" in out[0] and "assign h[g]" in out[0], out[0]


def test_w_wide_data_in_a_fixed_width_net_of_a_helper_is_a_leak(tmp_path: Path) -> None:
    from rtlopt.frontend._param_leaks import width_leaks

    ref = "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  assign y = a;\nendmodule\n"
    (tmp_path / "m.v").write_text(ref)
    design = load_design(tmp_path / "m.v", "m", Config().project)
    assert width_leaks(ref, "m", design) == []
    own = ref.replace("  assign y = a;", "  wire [255:0] x = {W{1'b1}};\n  assign y = a ^ x[0];")
    assert width_leaks(own, "m", design) == ["x"]
    helper = ref.replace("  assign y = a;", "  h #(.K(W)) u (.a(a), .y(y));") + (
        "module h #(parameter K = 8) (input [K-1:0] a, output [K-1:0] y);\n"
        "  wire [255:0] t = a;\n  assign y = a ^ t[0];\nendmodule\n"
    )
    assert width_leaks(helper, "m", design) == ["t"]
    sized = ref.replace("  assign y = a;", "  wire [W-1:0] x = {W{1'b1}};\n  assign y = a ^ x;")
    assert width_leaks(sized, "m", design) == []  # sized by the parameter: no leak


def test_a_renamed_carry_is_no_new_leak(tmp_path: Path) -> None:
    from rtlopt.frontend._param_leaks import new_width_leaks, width_leaks

    ref = (
        "module m #(parameter W = 8) (input [W-1:0] a, b, input [W-1:0] s, output [W:0] y);\n"
        "  wire [W-1:0] sum;\n  wire [1:0] cy;\n  assign {cy, sum} = a + b;\n"
        "  assign y = {cy[0], sum};\nendmodule\n"
    )
    (tmp_path / "m.v").write_text(ref)
    design = load_design(tmp_path / "m.v", "m", Config().project)
    assert width_leaks(ref, "m", design) == ["cy"]
    renamed = ref.replace("cy", "carry").replace("sum", "total")
    assert new_width_leaks(ref, renamed, "m", design) == []
    # the same net written from another shape is a new leak
    other = renamed.replace("= a + b;", "= a + b + {W{1'b1}};")
    assert new_width_leaks(ref, other, "m", design) == ["carry"]
    # a one-bit net is one too: a comparison in it can single out a width (round 107)
    flag = ref.replace("  assign y =", "  wire f = s == 3;\n  assign y = f ? 0 :")
    assert "f" in width_leaks(flag, "m", design)
    # a replication inside a concatenation counts (`{1'b0, {W{1'b1}}}`)
    ones = ref.replace("  assign y =", "  wire [63:0] o = {1'b0, {W{1'b1}}};\n  assign y =")
    assert "o" in width_leaks(ones, "m", design)
