"""Red team w36, end to end:

- F14: the reference's delay (``assign #5``, a ``specify`` path delay) dropped by the
  candidate was accepted on the Verilog path (the proofs and rtlopt's simulation read no
  delay; a 2-unit pulse reached the candidate's output and not the reference's), while the
  view path left such a reference unchecked. Both paths share the rule now
  (``harness/_dropped.py``), and strengths (``(weak0, weak1)``) are the same kind.
- F16: the repository leaves an input of the target unconnected (z, read as x), or connects
  it to a net nothing drives (``wire w; m u(.b(w));``), and the
  candidate turns ``if (b) y = a; else y = 0;`` into ``y = b ? a : 0`` (x merged, not the
  ``else`` branch): the 0/1 proofs drive 0/1 only. Where an instance feeds the target x or z
  (``frontend/_open_inputs.py``), the candidate must also be proven x-faithful
  (``formal/xfaith.py``): this one is refuted with ``b`` x, the instance, port, file and line
  named; a rewrite that reads x as the reference does is proven."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult
from tests.integration.test_redteam_w21 import _evaluate

pytestmark = pytest.mark.tools

ADD = "module m(input [7:0] a, output [7:0] y);\n  {body}\nendmodule\n"
PLAIN = ADD.format(body="assign y = a + 8'd1;")


@pytest.mark.parametrize(
    ("body", "what"),
    [
        ("assign #5 y = a + 8'd1;", "line 2: a timing control"),
        ("assign y = a + 8'd1;\n  specify\n    (a *> y) = 5;\n  endspecify", "line 4: a timing"),
        ("assign (weak0, weak1) y = a + 8'd1;", "line 2: a drive, pull or charge strength"),
    ],
)
def test_a_reference_delay_or_strength_dropped_is_unchecked(
    tmp_path: Path, body: str, what: str
) -> None:
    res = _evaluate(tmp_path, {"m.v": ADD.format(body=body)}, "m.v", PLAIN)
    assert not res.accepted and res.stage.value == "screen", res.reason
    assert f"unchecked: the reference module, {what}" in res.reason, res.reason


def test_a_rewrite_of_a_reference_without_delays_is_still_proven(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, {"m.v": PLAIN}, "m.v", PLAIN.replace("a + 8'd1", "8'd1 + a"))
    assert res.accepted, res.reason


MUX = (
    "module m(input [7:0] a, input b, output reg [7:0] y);\n"
    "  always @* begin\n    if (b) y = a;\n    else y = 8'd0;\n  end\nendmodule\n"
)
MUX_CAND = "module m(input [7:0] a, input b, output reg [7:0] y);\n  always @* y = b ? a : 8'd0;\nendmodule\n"


def _top(conn: str) -> str:
    return f"module top(input [7:0] a, input b, output [7:0] y);\n  m u({conn});\nendmodule\n"


@pytest.mark.parametrize(
    ("conn", "what"),
    [
        (".a(a), .b(), .y(y)", "leaves input 'b' unconnected"),
        (".a(a), .y(y)", "leaves input 'b' unconnected"),
        ("a, , y", "leaves input 'b' unconnected"),
        (".a(a), .b(1'bx), .y(y)", "ties input 'b' to 1'bx"),
    ],
)
def test_an_input_the_repository_leaves_x_is_proven_x_faithful_or_refuted(
    tmp_path: Path, conn: str, what: str
) -> None:
    """The ``if`` of the reference takes ``else`` on x, the candidate's ``?:`` merges: refuted
    by the x-faithfulness proof with ``b`` x (``formal/xfaith.py``)."""
    res = _evaluate(tmp_path, {"m.v": MUX, "top.v": _top(conn)}, "m.v", MUX_CAND, module="m")
    _x_refuted(res, "the repository's instance top.u of m (top.v, line 2)", what)


def _x_refuted(res: EvalResult, *parts: str) -> None:
    assert not res.accepted and res.stage.value == "formal", res.reason
    assert "not where the repository feeds x into b" in res.reason, res.reason
    assert "b=x" in res.reason, res.reason
    for part in parts:
        assert part in res.reason, res.reason


def test_a_rewrite_that_reads_x_as_the_reference_is_proven_with_b_unconnected(
    tmp_path: Path,
) -> None:
    faithful = MUX.replace(
        "    if (b) y = a;\n    else y = 8'd0;\n", "    y = 8'd0;\n    if (b) y = a;\n"
    )
    assert faithful != MUX
    top = _top(".a(a), .y(y)")
    res = _evaluate(tmp_path, {"m.v": MUX, "top.v": top}, "m.v", faithful, module="m")
    assert res.accepted, res.reason
    assert res.formal is not None and res.formal.x_inputs, res.formal


def test_the_same_rewrite_is_proven_when_every_input_is_connected(tmp_path: Path) -> None:
    top = _top(".a(a), .b(b), .y(y)")
    res = _evaluate(tmp_path, {"m.v": MUX, "top.v": top}, "m.v", MUX_CAND, module="m")
    assert res.accepted, res.reason


def _view_evaluate(tmp: Path, files: dict[str, str], candidate: str) -> EvalResult:
    """:func:`_evaluate` with every tool reading the slang view (the SystemVerilog path)."""
    repo = tmp / "repo"
    repo.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (repo / name).write_text(text)
    base = Config()
    cfg = dataclasses.replace(
        base,
        harness=dataclasses.replace(base.harness, random_vectors=100, initial_values="ignore"),
        flow=dataclasses.replace(base.flow, systemverilog="slang"),
    )
    design = load_design(repo / "m.v", "m", cfg.project)
    with Evaluator(design, cfg, tmp / "scratch", None) as ev:
        return ev.evaluate(candidate)


def test_both_rules_hold_on_the_view_path(tmp_path: Path) -> None:
    res = _view_evaluate(tmp_path / "x", {"m.v": MUX, "top.v": _top(".a(a), .y(y)")}, MUX_CAND)
    # the views do not keep how the text reads x: the x-faithfulness proof does not run there
    assert not res.accepted and "leaves input 'b' unconnected" in res.reason, res.reason
    assert "read through the SystemVerilog view" in res.reason, res.reason
    strong = ADD.format(body="assign (strong0, pull1) y = a + 8'd1;")
    res = _view_evaluate(tmp_path / "s", {"m.v": strong}, PLAIN)
    assert not res.accepted and "unchecked: the reference module, line 2: a drive" in res.reason


#: ``r`` powers up x; the candidate takes the other branch for it (equal on 0/1).
REG_IF = (
    "module m(input clk, input [7:0] a, input b, output reg [7:0] y);\n  reg r;\n"
    "  always @(posedge clk) r <= b;\n  always @* begin\n    if (r) y = a;\n"
    "    else y = 8'd0;\n  end\nendmodule\n"
)


def test_x_the_target_makes_itself_is_unchecked_on_the_view_path(tmp_path: Path) -> None:
    """The x-exact proof on the view path reads the procedural views (``if`` kept as the text
    reads x, not slang's ``?:``): the candidate that takes the other branch for an x ``r``
    is found to differ there, and stays unchecked."""
    cand = REG_IF.replace("if (r) y = a;\n    else y = 8'd0;", "if (!r) y = 8'd0;\n    else y = a;")
    res = _view_evaluate(tmp_path / "r", {"m.v": REG_IF}, cand)
    assert not res.accepted and "the target makes x itself" in res.reason, res.reason
    assert "procedural SystemVerilog views found a difference" in res.reason, res.reason
    same = _view_evaluate(tmp_path / "p", {"m.v": PLAIN}, PLAIN.replace("8'd1", "8'h01"))
    assert same.accepted, same.reason  # no x source: the 0/1 verdict stands


def test_an_input_connected_to_a_net_nothing_drives_is_judged_with_b_x(
    tmp_path: Path,
) -> None:
    top = "module top(input [7:0] a, output [7:0] y);\n  wire w;\n  m u(.a(a), .b(w), .y(y));\nendmodule\n"
    res = _evaluate(tmp_path, {"m.v": MUX, "top.v": top}, "m.v", MUX_CAND, module="m")
    _x_refuted(
        res,
        "the repository's instance top.u of m (top.v, line 3)",
        "connects input 'b' to 'w' (top.v, line 2), which nothing drives",
    )


MUX_IO = MUX.replace("input b,", "input b, inout io,")
UNDR = "module nodrv(output o);\nendmodule\n"


@pytest.mark.parametrize(
    ("m", "decls", "conn", "what"),
    [
        (MUX, "  wire [7:0] w;\n  assign w[3:0] = a[3:0];\n", ".b(w[4])", "bit 4 of which"),
        (MUX, "  wire w;\n  nodrv s0(.o(w));\n", ".b(w)", "which nothing drives"),
        (MUX_IO, "  wire w;\n", ".b(w), .io(w)", "which nothing drives"),
    ],
)
def test_a_net_partly_driven_or_driven_by_an_empty_output_or_own_inout_is_judged_with_b_x(
    tmp_path: Path, m: str, decls: str, conn: str, what: str
) -> None:
    top = f"module top(input [7:0] a, output [7:0] y);\n{decls}  m u(.a(a), {conn}, .y(y));\nendmodule\n"
    cand = MUX_CAND if m is MUX else MUX_CAND.replace("input b,", "input b, inout io,")
    files = {"m.v": m, "top.v": top, "nodrv.v": UNDR}
    res = _evaluate(tmp_path, files, "m.v", cand, module="m")
    _x_refuted(
        res,
        "the repository's instance top.u of m",
        f"connects input 'b' to 'w' (top.v, line 2), {what}",
    )
