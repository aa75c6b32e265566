"""Red team round 41 (held out): x and z sources the walk of ``frontend/_open_inputs.py``
missed, so no x-faithfulness proof ran and a candidate that reads x otherwise than the
reference was accepted on the 0/1 proofs alone: a gate with a control (``bufif1``: z while
off), a user-defined primitive (x for an input its table does not list), a delayed
continuous assignment, a variable first written after a delay of an ``initial``, and an x
written through a hierarchical name from a testbench file (``frontend/_x_drivers.py``). And
where such a source may be z, a candidate telling z from x with ``!==`` was proven as though
the input were x only: the z flag comes from every source found.

The reference takes ``else`` on ``b`` = x (``y`` = 0); the candidate ``if (!b) y = 0; else y
= a;`` takes its ``else`` too (``y`` = ``a``): equal on 0/1, not in a simulation of ``top``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo
from test_xfaith import _evaluate as evaluate_in

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
IF_B = "module m(input a, input b, output reg y);\n  always @* if (b) y = a; else y = 1'b0;\nendmodule\n"
NOT_B = "module m(input a, input b, output reg y);\n  always @* if (!b) y = 1'b0; else y = a;\nendmodule\n"
#: b = x: x !== x is 0 (the reference's choice); b = z: (z | 0) is x, x !== z is 1: y = a.
Z_APART = (
    "module m(input a, input b, output reg y);\n"
    "  always @* if ((b | 1'b0) !== b) y = a; else if (b) y = a; else y = 1'b0;\nendmodule\n"
)
UDP = "primitive pass1(o, i);\n  output o;\n  input i;\n  table 1 : 1; endtable\nendprimitive\n"
TB = (
    "`timescale 1ns/1ps\nmodule tb;\n  reg a = 0, en = 0;\n  wire y;\n"
    "  top t(.a(a), .en(en), .y(y));\n{poke}\nendmodule\n"
)


def _top(body: str, before: str = "") -> str:
    return f"{before}module top(input a, input en, output y);\n{body}\nendmodule\n"


FORMS = {
    "bufif1": (_top("  wire w;\n  bufif1 g(w, a, en);\n  m u(.a(a), .b(w), .y(y));"), ""),
    "udp": (_top("  wire w;\n  pass1 g(w, en);\n  m u(.a(a), .b(w), .y(y));", UDP), ""),
    "assign_delay": (_top("  wire w;\n  assign #5 w = en;\n  m u(.a(a), .b(w), .y(y));"), ""),
    "initial_delay": (
        _top("  reg bw;\n  initial #5 bw = 1'b1;\n  m u(.a(a), .b(bw), .y(y));"),
        "",
    ),
    "testbench_writes_x": (
        _top("  reg bw = 1'b1;\n  m u(.a(a), .b(bw), .y(y));"),
        "  initial #0.2 t.bw = 1'bx;",
    ),
}
#: Where each form's x is made, as the rejection names it.
SOURCES = {
    "bufif1": "bufif1 g (top.v, line 3) drives z while its control is off",
    "udp": "pass1 g (top.v, line 8) drives x for the inputs its table does not list",
    "assign_delay": "assign #5 w = en (top.v, line 3) delays the update",
    "initial_delay": "'bw' (top.v, line 2) reads x until its first write",
    "testbench_writes_x": "the assignment of 1'bx (tb.v, line 6) writes a value with x/z bits",
}


def _evaluate(tmp_path: Path, mp: pytest.MonkeyPatch, top: str, poke: str, cand: str) -> dict:
    files = {"rtlopt.toml": CONFIG, "m.v": IF_B, "top.v": top}
    if poke:
        files["tb.v"] = TB.format(poke=poke)
    repo = committed_repo(tmp_path / "repo", files, mp, tmp_path / "cache")
    return evaluate_in(tmp_path, repo, cand)


@pytest.mark.parametrize("form", list(FORMS))
def test_an_x_source_the_walk_missed_is_proven_against(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    top, poke = FORMS[form]
    out = _evaluate(tmp_path, monkeypatch, top, poke, NOT_B)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "not where the repository feeds x into b" in reason and "b=x" in reason, reason
    assert SOURCES[form] in reason, reason


def test_z_from_a_gate_refuses_what_tells_z_from_x(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``u2`` ties ``b`` to x (not z), ``u``'s ``b`` comes from a ``bufif1`` (z): the proof,
    which reads z as x, may not decide a ``!==``."""
    body = (
        "  wire w;\n  bufif1 g(w, a, en);\n  m u(.a(a), .b(w), .y(y));\n"
        "  m u2(.a(a), .b(1'bx), .y());"
    )
    out = _evaluate(tmp_path, monkeypatch, _top(body), "", Z_APART)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
    assert "=== or !== where an input may be z" in reason, reason
    assert "bufif1 g (top.v, line 3) drives z while its control is off" in reason, reason
