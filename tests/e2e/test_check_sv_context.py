"""`rtlopt check` judges a SystemVerilog change as `rtlopt evaluate` judges a candidate (issue
22): ports typed by a package (an enum from ``import pkg::*`` in the module header, a packed
struct, a type parameter) are compared through the elaborated view, not read as 0 bits wide,
and a change may use the macros its module sees in its file. The real command line in a git
repository with the change staged, as the pre-commit hook runs it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

DATA = Path(__file__).resolve().parents[1] / "data" / "sv_project"
ALU = "rtl/sv_alu.sv"


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "sv"
    shutil.copytree(DATA, repo)
    (repo / "rtl" / "sv_defs.svh").write_text("`define SV_SWAP(x) {x[3:0], x[7:4]}\n")
    alu = repo / ALU
    alu.write_text('`include "sv_defs.svh"\n' + alu.read_text())
    with (repo / "rtlopt.toml").open("a") as fh:
        fh.write('\n[check]\noptimization_only = ["sv_alu"]\n')
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    return repo


def _stage(repo: Path, old: str, new: str) -> None:
    p = repo / ALU
    text = p.read_text()
    assert old in text
    p.write_text(text.replace(old, new))
    git(repo, "add", ALU)


def _check(repo: Path) -> tuple[int, dict]:
    r = rtlopt(["check", ALU, "--no-ppa", "--json"], repo)
    assert r.returncode in (0, 1), r.stderr
    return r.returncode, json.loads(r.stdout)


def test_package_typed_ports_keep_their_width_and_a_broken_change_shows_its_input(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    # equivalent: operands commuted, the nibble swap through the file's own macro
    _stage(repo, "OpAdd:   result = a_i[0] + b_i;", "OpAdd:   result = b_i + a_i[0];")
    _stage(repo, "default: result = swap_nibbles(a_i[1]);", "default: result = `SV_SWAP(a_i[1]);")
    rc, out = _check(repo)
    [m] = out["modules"]
    assert rc == 0, m
    assert (m["interface"], m["equivalence"], m["findings"]) == ("same", "proven", []), m
    git(repo, "reset", "-q", "--hard")
    _stage(repo, "OpSub:   result = a_i[0] - b_i;", "OpSub:   result = a_i[0] + b_i;")
    rc, out = _check(repo)
    [m] = out["modules"]
    assert rc == 1 and m["interface"] == "same", m
    assert m["equivalence"] in ("mismatch", "refuted"), m
    assert m["findings"][0].startswith(f"the change to {ALU}"), m
    assert any(n.startswith("failing input") for n in m["notes"]), m


def test_a_changed_port_type_is_an_interface_finding(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _stage(repo, "output beat_t                 beat_o,", "output logic [7:0]            beat_o,")
    _stage(repo, "assign beat_o = beat_q;", "assign beat_o = beat_q.data;")
    rc, out = _check(repo)
    [m] = out["modules"]
    assert rc == 1 and m["interface"] != "same", m
    assert "beat_o" in m["findings"][0] and m["findings"][0].startswith("interface changed"), m
