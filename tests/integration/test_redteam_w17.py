"""Red team w17: verdict shortcuts of `rtlopt check` that pass a change some tool reads
differently (each test asserts the rejection, so each FAILS on main 663326a).

Written to run from tests/integration/ (copy it there; tests/conftest.py then points
YOWASP_CACHE_DIR at the shared cache). Runtimes on 663326a, shared 2-core machine, all 8 FAIL
at `_rejected` (today: exit 0, "ok": true): string x2 2.7/3.5 s, blank line 2.7 s, backslash
blanks 3.4 s, work-tree variable 8.0/6.9 s, timescale macro 7.6 s, NBSP 2.9 s (41 s total).
Run from outside tests/ (no conftest, cold YoWASP cache) the three proving tests take
~5-6 min each.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.integration._fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

RULES = '[check]\nppa = false\noptimization_only = ["*"]\n'


def _stage(repo: Path, files: dict[str, str | bytes]) -> None:
    for rel, text in files.items():
        p = repo / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)


def _check(repo: Path) -> tuple[int, dict[str, object]]:
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode in (0, 1, 2), r.stderr[-800:]
    try:
        return r.returncode, json.loads(r.stdout)
    except json.JSONDecodeError:
        return r.returncode, {"ok": False, "stderr": r.stderr[-400:]}


def _rejected(code: int, out: dict[str, object]) -> None:
    assert code != 0 and not out["ok"], json.dumps(out, indent=1)[:1500]


# --- F1 (critical): white space inside a string literal is not "white space" --------------
@pytest.mark.parametrize("new", ['"a b"', '"a\tb"'], ids=["two-spaces-to-one", "space-to-tab"])
def test_w17_string_literal_whitespace_is_not_comment_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new: str
) -> None:
    # "a  b" = 32'h61202062, "a b" = 32'h00612062, "a<TAB>b" = 32'h00610962: y differs
    old = 'module tgt (input [31:0] a, output [31:0] y);\n  localparam [31:0] K = "a  b";\n  assign y = a ^ K;\nendmodule\n'
    repo = committed_repo(
        tmp_path / "r", {"rtl/tgt.v": old, "rtlopt.toml": RULES}, monkeypatch, tmp_path / "c"
    )
    _stage(repo, {"rtl/tgt.v": old.replace('"a  b"', new)})
    _rejected(*_check(repo))


# --- F2 (critical): a blank line after a backslash ends the macro body ---------------------
def test_w17_blank_line_after_macro_continuation_is_not_whitespace_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # base: `define EXTRA is empty and `assign z = ~a;` is code (z = ~a); the commit deletes the
    # blank line, so the assign becomes EXTRA's body (never used): z undriven (iverilog, Yosys)
    head = "module tgt(input [3:0] a, output [3:0] y, output [3:0] z);\n  assign y = a;\n"
    old = head + "`define EXTRA \\\n\n  assign z = ~a;\nendmodule\n"
    repo = committed_repo(
        tmp_path / "r", {"rtl/tgt.v": old, "rtlopt.toml": RULES}, monkeypatch, tmp_path / "c"
    )
    _stage(repo, {"rtl/tgt.v": old.replace("\\\n\n", "\\\n")})
    _rejected(*_check(repo))


# --- F3 (high): blanks after the backslash: Yosys ends the macro there, iverilog does not ---
def test_w17_blanks_after_backslash_are_read_by_yosys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = "module tgt(input [3:0] a, output [3:0] y, output [3:0] z);\n  assign y = a;\n"
    old = head + "`define EXTRA \\   \n  assign z = ~a;\nendmodule\n"  # Yosys: z = ~a
    repo = committed_repo(
        tmp_path / "r", {"rtl/tgt.v": old, "rtlopt.toml": RULES}, monkeypatch, tmp_path / "c"
    )
    _stage(repo, {"rtl/tgt.v": old.replace("\\   \n", "\\\n")})  # Yosys: z undriven
    _rejected(*_check(repo))


# --- F4 (critical): a filelist variable that names the work tree: the base reads the change --
@pytest.mark.parametrize("via", ["filelist_vars", "environment"])
def test_w17_filelist_variable_naming_the_work_tree_is_not_the_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, via: str
) -> None:
    repo_dir = tmp_path / "r"
    project = '[project]\nfilelists = ["files.f"]\n'
    if via == "filelist_vars":
        project += f'filelist_vars = ["MYROOT={repo_dir}"]\n'
    else:
        monkeypatch.setenv("MYROOT", str(repo_dir))
    files = {
        "rtl/tgt.v": '`include "w.vh"\nmodule tgt(input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = a `OP b;\nendmodule\n',
        "inc/w.vh": "`define OP &\n",
        "files.f": "+incdir+${MYROOT}/inc\n${MYROOT}/rtl/tgt.v\n",
        "rtlopt.toml": project + RULES,
    }
    repo = committed_repo(repo_dir, files, monkeypatch, tmp_path / "c")
    _stage(repo, {"inc/w.vh": "`define OP |\n"})  # y = a & b  ->  y = a | b
    _rejected(*_check(repo))


# --- F5 (high): a `timescale written through a macro escapes the pass-through comparison ----
def test_w17_timescale_through_a_macro_is_compared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tgt = (
        "`timescale 1ns/1ps\nmodule tgt(input [3:0] a, output [3:0] y); assign y = ~a; endmodule\n"
    )
    files = {
        "rtl/defs.vh": "`define TS_SLOW `timescale 1s/1ms\n",
        "rtl/a_tgt.v": tgt,
        "rtl/z_later.v": "module later(input x, output reg y); always @(x) y <= #1 x; endmodule\n",
        "files.f": "rtl/defs.vh\nrtl/a_tgt.v\nrtl/z_later.v\n",
        "rtlopt.toml": '[project]\nfilelists = ["files.f"]\n' + RULES,
    }
    repo = committed_repo(tmp_path / "r", files, monkeypatch, tmp_path / "c")
    _stage(repo, {"rtl/a_tgt.v": tgt + "`TS_SLOW\n"})  # later's #1: 1 ns -> 1 s
    _rejected(*_check(repo))


# --- F6 (medium): Unicode white space at a line start is "white space" to Python only -------
def test_w17_unicode_space_at_line_start_is_not_whitespace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = "module tgt(input [3:0] a, output [3:0] y);\n  assign y = ~a;\nendmodule\n"
    repo = committed_repo(
        tmp_path / "r", {"rtl/tgt.v": old, "rtlopt.toml": RULES}, monkeypatch, tmp_path / "c"
    )
    # U+00A0: iverilog "syntax error", Yosys "syntax error": the commit breaks the build
    _stage(repo, {"rtl/tgt.v": old.replace("\n  assign", "\n\u00a0 assign").encode("utf-8")})
    _rejected(*_check(repo))
