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
