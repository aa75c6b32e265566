"""Frontend -> write-back round trip on a real repository, checked by iverilog."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design, parse_text
from rtlopt.results import PPA
from rtlopt.writeback import commit_message, write_branch

SRC = """// Priority encoder, 8 bits.
module prio(input [7:0] req, output reg [2:0] idx, output any);
  integer i;
  always @* begin
    idx = 0;
    for (i = 0; i < 8; i = i + 1) if (req[i]) idx = i[2:0];
  end
  assign any = |req;
endmodule

module user(input [7:0] r, output [2:0] o, output v);
  prio p(.req(r), .idx(o), .any(v));
endmodule
"""

NEW = """module prio(input [7:0] req, output [2:0] idx, output any);
  assign idx = req[7] ? 3'd7 : req[6] ? 3'd6 : req[5] ? 3'd5 : req[4] ? 3'd4 :
               req[3] ? 3'd3 : req[2] ? 3'd2 : req[1] ? 3'd1 : 3'd0;
  assign any = |req;
endmodule"""


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.mark.tools
@pytest.mark.skipif(shutil.which("iverilog") is None, reason="iverilog not installed")
def test_roundtrip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "T")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "t@example.com")
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "prio.v").write_text(SRC)
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "init")

    design = load_design(repo / "prio.v", "prio", ProjectConfig())
    msg = commit_message(
        "prio",
        PPA(100.0, 500.0, None),
        PPA(80.0, 400.0, None),
        verdict="proven",
        method="sat miter",
        run_id="run-1",
        metric="adp",
    )
    res = write_branch(
        design.root, design.target.file, "prio", NEW, branch="rtlopt/prio/run-1", message=msg
    )
    text = _git(repo, "show", f"{res.commit_sha}:prio.v")
    mods = {m.name: m for m in parse_text(text, "prio.v")}
    new, old = mods["prio"], design.target
    assert [(p.name, p.direction, p.width) for p in new.ports] == [
        (p.name, p.direction, p.width) for p in old.ports
    ]
    assert text[mods["user"].start : mods["user"].end] == SRC[SRC.index("module user") :].rstrip()
    assert "Rtlopt-Run: run-1" in _git(repo, "log", "-1", "--format=%B", res.commit_sha)
    out = tmp_path / "a.out"
    (tmp_path / "branch.v").write_text(text)
    subprocess.run(["iverilog", "-o", str(out), str(tmp_path / "branch.v")], check=True)
    assert (repo / "prio.v").read_text() == SRC


def test_replacement_must_define_the_module(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not define module 'prio'"):
        write_branch(
            tmp_path, tmp_path / "x.v", "prio", "module other; endmodule", branch="b", message="m"
        )
