"""Red team wave 15 (held out, on 0a94126): the cases closed so far (the open ones are in
bench/heldout/redteam_w15_open.py). A file moved unchanged into an earlier ``-y`` library
folder swaps which definition of ``sub`` the design reads (d - 1 for d + 1) while no module's
text changes, and the gate passed it: a file added to or removed from a library folder that
another of its folders also defines by name is a finding."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, run_rtlopt

pytestmark = [pytest.mark.tools]

SUB = "module sub (input [3:0] d, output [3:0] q);\n  assign q = d {} 4'd1;\nendmodule\n"


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = tmp_path / "repo"
    files = {
        "rtl/top.v": "module tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "  sub s (.d(a ^ b), .q(y));\nendmodule\n",
        "rtl/libA/.keep": "",
        "rtl/libB/sub.v": SUB.format("+"),
        "rtl/libB/sub_old.v": SUB.format("-"),
        "design.f": "-y rtl/libA\n-y rtl/libB\n+libext+.v\nrtl/top.v\n",
        "rtlopt.toml": '[project]\nfilelists = ["design.f"]\n[check]\noptimization_only = ["*"]\n',
    }
    return committed_repo(repo, files, monkeypatch, tmp_path / "cache")


@pytest.mark.parametrize(("moved_to", "fails"), [("rtl/libA/sub.v", True), ("rtl/libA/x.v", False)])
def test_a_file_moved_unchanged_into_an_earlier_library_folder_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moved_to: str, fails: bool
) -> None:
    repo = _repo(tmp_path, monkeypatch)
    subprocess.run(["git", "-C", str(repo), "mv", "rtl/libB/sub_old.v", moved_to], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    out = json.loads(r.stdout)
    # the control: a name no other library folder defines swaps nothing
    assert (r.returncode == 1 and not out["ok"]) is fails, out["modules"]
    if fails:
        [row] = [m for m in out["modules"] if m["findings"]]
        assert "library folder" in row["findings"][0] and "sub" in row["findings"][0], row
