"""`rtlopt check` on SystemVerilog packages (issue 33): a module that imports a package and
closes with ``endmodule : name`` is judged as `rtlopt evaluate` judges it, and a changed
package re-judges the modules that use it, with the base's package (renamed) against the
change's."""

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


@pytest.mark.slow  # two checks through slang's view (WebAssembly Yosys): about 20 s
def test_a_changed_package_re_judges_the_modules_that_use_it(tmp_path: Path) -> None:
    """The module that imports the package is judged with the base's package against the
    change's: an equivalent rewrite of a constant's expression passes, swapped enum values
    fail naming the module."""
    repo = _repo(tmp_path)
    _stage(
        repo, PKG, "localparam int unsigned Lanes = 2;", "localparam int unsigned Lanes = 4 / 2;"
    )
    rc, out = _check(repo)
    [m] = out["modules"]
    assert rc == 0 and m["module"] == "sv_alu" and m["change"] == "reached", m
    assert m["equivalence"] == "proven" and any("package sv_pkg" in n for n in m["notes"]), m
    git(repo, "reset", "-q", "--hard")
    _stage(repo, PKG, "OpAdd  = 2'd0,\n    OpSub  = 2'd1,", "OpAdd  = 2'd1,\n    OpSub  = 2'd0,")
    rc, out = _check(repo)
    [m] = out["modules"]
    assert rc == 1 and m["module"] == "sv_alu", m
    assert m["equivalence"] in ("mismatch", "refuted") and m["findings"], m


def test_a_reworded_comment_in_a_package_is_no_change(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _stage(repo, PKG, "// A package used", "// The package used")
    rc, out = _check(repo)
    assert rc == 0 and out["modules"] == [], out
