"""Red-team round 125 (case 14): a header's changed macro reached a module only through
another macro's body (``APPLY(x, y)`` of ops.v reads ``OP``): "no Verilog module changed".
A macro whose body uses a changed one is changed too (real tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _gate_repo import check_staged, gate_repo

pytestmark = pytest.mark.tools

CONFIG = '[project]\nfilelists = ["files.f"]\n\n[check]\noptimization_only = ["*"]\nppa = false\n'


@pytest.mark.parametrize(
    ("op", "passes"), [("& 1'b1 &", True), ("|", False)], ids=["same", "changed"]
)
def test_a_macro_reached_through_another_macro_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, op: str, passes: bool
) -> None:
    files = {
        "rtlopt.toml": CONFIG,
        "files.f": "ops.v\nm.v\n",
        "defs.vh": "`define OP &\n",
        "ops.v": '`include "defs.vh"\n`define APPLY(x, y) ((x) `OP (y))\n',
        "m.v": "module m (input a, input b, output y);\n  assign y = `APPLY(a, b);\nendmodule\n",
    }
    repo = gate_repo(tmp_path, monkeypatch, files)
    (repo / "defs.vh").write_text(f"`define OP {op}\n")
    r = check_staged(repo)
    out = r.stdout + r.stderr
    assert r.returncode == (0 if passes else 1), out
    assert "m: judged because it reads the define OP" in out, out


MODE = (
    "module m (input a, input b, output y);\n  if (`MODE == 2) begin : g_wide\n"
    "    assign y = {wide};\n  end else begin : g_narrow\n    assign y = {narrow};\n  end\n"
    "endmodule\n"
)
USER = "module top (input a, input b, output y);\n  m u (.a(a), .b(b), .y(y));\nendmodule\n"


@pytest.mark.parametrize(
    ("wide", "narrow", "accepted"),
    [("a ^ b", "a & b", False), ("a | b", "b & a", True)],
    ids=["the-unbuilt-branch-changed", "the-built-branch-changed"],
)
def test_a_branch_a_macro_value_selects_is_no_dead_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wide: str, narrow: str, accepted: bool
) -> None:
    """Red-team round 125 (cases 30, 31): the configuration sets MODE=1, a Makefile builds
    with -DMODE=2: a change to the MODE == 2 branch was accepted as code nothing builds."""
    from _fixture_repo import repo_verdict

    files = {
        "m.v": MODE.format(wide="a | b", narrow="a & b"),
        "top.v": USER,
        "rtlopt.toml": '[project]\ndefines = ["MODE=1"]\n',
        "Makefile": "wide:\n\tiverilog -DMODE=2 -o wide m.v top.v\n",
    }
    cand = MODE.format(wide=wide, narrow=narrow)
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "m.v", cand)
    assert (rc == 0) == accepted, reason


def test_a_macro_defined_in_a_header_of_another_suffix_is_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red-team round 127 (09): ``alias.vinc`` (a suffix the design graph does not read)
    defines ``SH`` as ``K``; the commit changes only ``K``."""
    files = {
        "rtlopt.toml": CONFIG,
        "files.f": "defs.v\ntgt.v\n",
        "hdr.vh": "`define K 1\n",
        "alias.vinc": "`define SH `K\n",
        "defs.v": '`include "hdr.vh"\n`include "alias.vinc"\nmodule defs (input x, output y);\n'
        "  assign y = x;\nendmodule\n",
        "tgt.v": "module tgt (input [7:0] a, output [7:0] y);\n  assign y = a << `SH;\nendmodule\n",
    }
    repo = gate_repo(tmp_path, monkeypatch, files)
    (repo / "hdr.vh").write_text("`define K 2\n")
    r = check_staged(repo)
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "tgt: judged because it reads the define" in out, out
