"""Round 97 (held out): a changed module and a changed parent in one commit.

``m`` gains a guard true only at ``W = 12`` and ``top`` now instantiates ``m #(.W(12))``. Judged
alone, ``m`` was equivalent at the base's ``W = 8`` and ``top`` with the base's ``m``: both
"proven", while the commit's ``top`` computes another value. Now a required module that the
commit's tree builds with parameter values the base never does is judged again there, against
its base version (``check/_new_instances.py``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = [pytest.mark.tools]

M = "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n{}endmodule\n"
TOP = (
    "module top(input [7:0] a, input [7:0] b, output [7:0] y);\n"
    "  wire [{hi}:0] t;\n"
    "  m #(.W({w})) u(.a({{{pad}a}}), .b({{{pad}b}}), .y(t));\n"
    "  assign y = t[7:0];\nendmodule\n"
)


def _top(w: int) -> str:
    return TOP.format(hi=w - 1, w=w, pad=f"{w - 8}'d0, " if w > 8 else "")


@pytest.mark.parametrize("guarded", [True, False], ids=["guard_at_12", "equivalent"])
def test_a_module_is_judged_under_the_instances_the_commit_gives_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, guarded: bool
) -> None:
    files = {
        "rtlopt.toml": '[check]\noptimization_only = ["*"]\n',
        "m.v": M.format("  assign y = a + b;\n"),
        "top.v": _top(8),
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    body = (
        "  assign y = ((W * 7 % 64) == 20) ? a - b : a + b;\n"
        if guarded
        else "  assign y = b + a;\n"
    )
    (repo / "m.v").write_text(M.format(body))
    (repo / "top.v").write_text(_top(12))
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa")
    if guarded:
        assert r.returncode == 1, r.stdout[-2000:]
        assert "the commit instantiates it with (W=12)" in r.stdout, r.stdout[-2000:]
    else:
        assert r.returncode == 0, r.stdout[-2000:]
