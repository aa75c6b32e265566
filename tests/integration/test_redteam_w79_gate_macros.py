"""Red team round 79 through the gate (``rtlopt check``), with real git: a directive's reach
written in a form the rules did not read.

- Case 15 (delay): a `timescale added in one file governs another file's delays written
  ``#(5)`` or ``# (2.5)``: the rule knew only ``#5``. ``sub #(8) u`` stays no delay.
- Cases 22, 25 (define by a macro call): a file's ```define`` made by a macro
  (```MK(INC, 8'd2)`` with ```define MK(n, v) `define n v``, ```DEF INC`` with ```define DEF
  `define``) changed unseen: read as the ```define`` it makes, another file reading INC
  without including it is a finding and its modules are judged again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _gate_repo import check_staged, gate_repo, git

pytestmark = pytest.mark.tools

_git, _repo, _check = git, gate_repo, check_staged


TICK = (
    "module tick(input a, output reg y);\n  always @(a) y <= {delay}~a;\nendmodule\n"
    "module tick_tb;\n  reg a = 0;\n  wire y;\n  tick t(.a(a), .y(y));\nendmodule\n"
)


@pytest.mark.parametrize("delay", ["#(5) ", "# (2.5) "])
def test_a_timescale_governing_a_parenthesised_delay_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, delay: str
) -> None:
    """Case 15: tick.v states no `timescale; the new file's is in force in it."""
    repo = _repo(tmp_path, monkeypatch, {"tick.v": TICK.format(delay=delay)})
    (repo / "a_ts.v").write_text("`timescale 1ns/1ps\nmodule a_ts;\nendmodule\n")
    r = _check(repo)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "`timescale here is in force in tick.v" in r.stdout, r.stdout[-1500:]


def test_a_timescale_beside_parameter_overrides_only_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``m #(8) u`` is no delay: the new timescale changes nothing in top.v."""
    sub = "module sub #(parameter W = 1) (input [W-1:0] a, output [W-1:0] y);\n  assign y = a;\n"
    top = sub + "endmodule\nmodule top(input [7:0] a, output [7:0] y);\n  sub #(8) u(a, y);\n"
    repo = _repo(tmp_path, monkeypatch, {"top.v": top + "endmodule\n"})
    (repo / "a_ts.v").write_text("`timescale 1ns/1ps\nmodule a_ts;\nendmodule\n")
    r = _check(repo)
    assert r.returncode == 0, (r.stdout + r.stderr)[-1500:]


MK = "`define MK(n, v) `define n v\n"
USER = "module m(input [7:0] a, output [7:0] y);\n  assign y = a + `INC;\nendmodule\n"


@pytest.mark.parametrize(
    ("base", "change"),
    [
        (MK + "`MK(INC, 8'd1)\n", MK + "`MK(INC, 8'd2)\n"),
        ("`define DEF `define\n`DEF INC 8'd1\n", "`define DEF `define\n`DEF INC 8'd2\n"),
        (
            MK + "`define MK2(n) `MK(n, 8'd1)\n`MK2(INC)\n",
            MK + "`define MK2(n) `MK(n, 8'd2)\n`MK2(INC)\n",
        ),
    ],
    ids=["macro-call", "directive-macro", "nested"],
)
def test_a_define_a_macro_makes_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, base: str, change: str
) -> None:
    """Cases 22, 25: a_defs.v (compiled before m.v, which does not include it) changes INC,
    which m reads: a finding, as a literal ```define INC`` is."""
    repo = _repo(tmp_path, monkeypatch, {"m.v": USER, "a_defs.v": base})
    (repo / "a_defs.v").write_text(change)
    r = _check(repo)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "the macro INC is also read by m.v" in r.stdout, r.stdout[-1500:]
    assert "m: judged because it reads the define" in r.stdout, r.stdout[-1500:]
