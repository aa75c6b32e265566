"""`rtlopt check` on SystemVerilog packages (issue 33): a module that imports a package and
closes with ``endmodule : name`` is judged as `rtlopt evaluate` judges it, and a changed
package, which the gate cannot compare with the base's inside one design, fails naming the
modules that use it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

DATA = Path(__file__).resolve().parents[1] / "data" / "sv_project"
ALU = "rtl/sv_alu.sv"
PKG = "rtl/sv_pkg.sv"


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "sv"
    shutil.copytree(DATA, repo)
    alu = repo / ALU
    text = alu.read_text()
    assert text.rstrip().endswith("endmodule")
    alu.write_text(text.rstrip() + " : sv_alu\n")
    with (repo / "rtlopt.toml").open("a") as fh:
        fh.write('\n[check]\noptimization_only = ["*"]\nppa = false\n')
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return repo


def _stage(repo: Path, rel: str, old: str, new: str) -> None:
    p = repo / rel
    text = p.read_text()
    assert old in text, old
    p.write_text(text.replace(old, new))
    git(repo, "add", rel)


def _check(repo: Path) -> tuple[int, dict]:
    r = rtlopt(["check", "--json"], repo)
    assert r.returncode in (0, 1), r.stdout[-2000:] + r.stderr[-2000:]
    return r.returncode, json.loads(r.stdout)


def test_a_module_with_a_package_import_and_an_end_label_is_judged(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _stage(repo, ALU, "OpAdd:   result = a_i[0] + b_i;", "OpAdd:   result = b_i + a_i[0];")
    rc, out = _check(repo)
    [m] = out["modules"]
    assert rc == 0 and m["equivalence"] == "proven", m
    _stage(repo, ALU, "OpSub:   result = a_i[0] - b_i;", "OpSub:   result = a_i[0] + b_i;")
    rc, out = _check(repo)
    [m] = out["modules"]
    assert rc == 1 and m["equivalence"] in ("mismatch", "refuted"), m


def test_a_changed_package_fails_naming_its_users(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _stage(repo, PKG, "return {x[3:0], x[7:4]};", "return {x[7:4], x[3:0]};")
    rc, out = _check(repo)
    assert rc == 1, out
    [p] = [m for m in out["modules"] if m["module"] == "sv_pkg (package)"]
    assert ALU in p["findings"][0], p
    # control: a reworded comment in the package is no change
    git(repo, "reset", "-q", "--hard")
    _stage(repo, PKG, "// A package used", "// The package used")
    rc, out = _check(repo)
    assert rc == 0 and out["modules"] == [], out
