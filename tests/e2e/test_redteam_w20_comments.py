"""Red team w20 F7, F8, F9: changes the gate's comment fast path passed as "comments and white
space only" although a tool reads them differently. Each is judged now (and refused)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'


def _commit(repo: Path, files: dict[str, str], config: str = CONFIG) -> None:
    (repo / "rtl").mkdir(parents=True, exist_ok=True)
    (repo / "rtlopt.toml").write_text(config)
    for rel, text in files.items():
        (repo / rel).write_bytes(text.encode())
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")


def _check(repo: Path, rel: str, text: str) -> tuple[int, dict]:
    (repo / rel).write_bytes(text.encode())
    git(repo, "add", "-A")
    r = rtlopt(["check", "--no-ppa", "--json"], cwd=repo)
    assert r.returncode in (0, 1), r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert not any("comments and white space only" in n for n in out["notes"]), out
    return r.returncode, out


def test_blanks_in_a_stringified_macro_argument_are_judged(tmp_path: Path) -> None:
    # F7: Yosys 0.23 reads K = "p  q" before, "p      q" after (the argument's blanks kept)
    text = (
        '`define S(x) `"x`"\n'
        "module tgt(input [63:0] a, output [63:0] y);\n"
        "  localparam [63:0] K = `S(p\n"
        "  q);\n"
        "  assign y = a ^ K;\n"
        "endmodule\n"
    )
    _commit(tmp_path, {"rtl/tgt.v": text})
    rc, out = _check(tmp_path, "rtl/tgt.v", text.replace("  q);", "      q);"))
    assert rc == 1 and not out["ok"], out
    [m] = out["modules"]
    assert "read differently by the tools" in " ".join(m["findings"]), m


def test_line_macro_in_an_include_folder_outside_the_repository_is_searched(
    tmp_path: Path,
) -> None:
    # F8: iverilog reads a + 3 before, a + 4 after; Yosys 0.23 has no `__LINE__
    inc = tmp_path / "ext" / "inc"
    inc.mkdir(parents=True)
    (inc / "here.vh").write_text("`define HERE `__LINE__\n")
    repo = tmp_path / "repo"
    text = (
        '`include "here.vh"\n'
        "module tgt(input [7:0] a, output [7:0] y);\n"
        "  assign y = a + `HERE;\n"
        "endmodule\n"
    )
    _commit(repo, {"rtl/tgt.v": text}, f'[project]\ninclude_dirs = ["{inc}"]\n' + CONFIG)
    rc, out = _check(repo, "rtl/tgt.v", text.replace("  assign", "  // offset\n  assign"))
    assert rc == 1 and out["modules"], out


@pytest.mark.parametrize("blank", ["\v", "\f"])
def test_a_vertical_tab_or_form_feed_is_no_white_space(tmp_path: Path, blank: str) -> None:
    # F9: iverilog 11 refuses \v, Yosys 0.23 both
    text = "module tgt(input [7:0] a, output [7:0] y);\n  assign y = ~a;\nendmodule\n"
    _commit(tmp_path, {"rtl/tgt.v": text})
    rc, out = _check(tmp_path, "rtl/tgt.v", text.replace("  assign", blank + "  assign"))
    assert rc == 1 and not out["ok"], out
