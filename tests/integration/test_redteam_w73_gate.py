"""Red team round 73 (held out), the gate's finding 13: a filelist source that is a symlink
to a shared IP file outside the repository, retargeted to another implementation. The
frontend skips such a file on both sides, so the gate said "no Verilog module changed" and
passed; the changed link is now a finding (before any proof runs)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = [pytest.mark.tools]

TOML = '[project]\nfilelists = ["files.f"]\n[check]\noptimization_only = ["*"]\nppa = false\n'


def test_a_filelist_source_symlinked_out_of_the_repository_and_retargeted_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ip = tmp_path / "ip"
    ip.mkdir()
    for name, k in (("a1.v", 1), ("a2.v", 2)):
        text = f"module a(input [3:0] x, output [3:0] y);\n  assign y = x + 4'd{k};\nendmodule\n"
        (ip / name).write_text(text)
    repo = tmp_path / "repo"
    (repo / "rtl").mkdir(parents=True)
    (repo / "rtl/a.v").symlink_to(ip / "a1.v")
    committed_repo(repo, {"rtlopt.toml": TOML, "files.f": "rtl/a.v\n"}, monkeypatch, tmp_path / "c")
    (repo / "rtl/a.v").unlink()
    (repo / "rtl/a.v").symlink_to(ip / "a2.v")
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode == 1, (r.stdout[-800:], r.stderr[-800:])
    out = json.loads(r.stdout)
    said = "\n".join(str(f) for m in out["modules"] for f in m["findings"])
    assert "rtl/a.v is a symlink the change adds, retargets or removes" in said, out
    assert f"points outside the repository ({ip / 'a1.v'})" in said, out
