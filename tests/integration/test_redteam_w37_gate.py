"""Red team w37 through the gate, with real git:

- F6: ``git commit -a`` and ``git commit PATHS`` run the pre-commit hook with git's temporary
  index (``GIT_INDEX_FILE``); the gate listed the changed files from it but judged a copy of
  ``.git/index`` (the old text): "comments and white space only", the commit made. The tree
  it judges is now the index's own (``git write-tree`` under the hook's environment).
- F3: a commit adding ``m.V`` beside the design's ``M.v`` (one file on a case-insensitive
  checkout) passed as "no Verilog module changed": such a path is a finding naming both.
- F4: a new file holding a new module that nothing instantiates was never screened: a
  `` `define `` or `` `unconnected_drive `` after its ``endmodule``, a ``defparam`` or
  ``force`` inside it, changed what the design's required modules mean in a glob build.
  Every added or edited file a build may compile now goes through the screen's rules that
  need no base (``check/_file_screen.py``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
M = "module m(input [7:0] a, output [7:0] y);\n  assign y = a + 8'd1;\nendmodule\n"


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *GIT_ID, "-C", str(repo), *args], capture_output=True, text=True, timeout=900
    )


def _with_hook(repo: Path) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rtlopt check --no-ppa\n')
    hook.chmod(0o755)


@pytest.mark.parametrize("how", [["commit", "-a"], ["commit", "m.v"], ["commit", "-i", "m.v"]])
def test_a_commit_with_the_temporary_index_is_judged_by_its_own_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: list[str]
) -> None:
    files = {"rtlopt.toml": CONFIG, "m.v": M}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    _with_hook(repo)
    (repo / "m.v").write_text(M.replace("8'd1", "8'd2"))  # edited, not staged
    head = _git(repo, "rev-parse", "HEAD").stdout
    r = _git(repo, how[0], "-m", "change", *how[1:])
    out = r.stdout + r.stderr
    assert r.returncode != 0, out[-1500:]
    assert "not equivalent" in out and "comments and white space only" not in out, out[-1500:]
    assert _git(repo, "rev-parse", "HEAD").stdout == head  # no commit made


def test_a_commit_with_the_temporary_index_passes_an_equivalent_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"rtlopt.toml": CONFIG, "m.v": M}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    _with_hook(repo)
    (repo / "m.v").write_text(M.replace("a + 8'd1", "8'd1 + a"))
    r = _git(repo, "commit", "-a", "-m", "change")
    assert r.returncode == 0, (r.stdout + r.stderr)[-1500:]
    assert "8'd1 + a" in _git(repo, "show", "HEAD:m.v").stdout


@pytest.mark.parametrize("name", ["m.V", "m\u0301.v"])
def test_a_path_a_case_insensitive_checkout_merges_into_a_design_file_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """F3: ``m.V`` beside the design's ``M.v`` (on macOS or Windows one file, the later one
    written last) was "no Verilog module changed"."""
    import unicodedata

    base = unicodedata.normalize("NFC", name) if "\u0301" in name else "M.v"
    top = "module top(input [7:0] a, output [7:0] y);\n  m u(.a(a), .y(y));\nendmodule\n"
    files = {"rtlopt.toml": CONFIG, base: M, "top.v": top, "files.f": f"{base}\ntop.v\n"}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / name).write_text(M.replace("8'd1", "8'd2"))
    _git(repo, "add", "--", name)
    r = run_rtlopt(repo, "check", "--no-ppa")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert f"equals {base} ignoring case" in r.stdout, r.stdout[-1500:]


TOP = (
    "`ifndef INC\n`define INC 8'd1\n`endif\n"
    "module top(input [7:0] a, output [7:0] y, output [7:0] z, output w);\n"
    "  m u(.a(a), .y(y));\n  assign z = a + `INC;\n  sub s(.o(w));\nendmodule\n"
    "module sub(input i, output o);\n  assign o = i;\nendmodule\n"
)
TB = (
    "module tb; reg [7:0] a = 8'h10; wire [7:0] y, z; wire w;\n"
    "  top t(.a(a), .y(y), .z(z), .w(w)); initial #1 $display(y, z, w); endmodule\n"
)
HELPER = "module helper(input i, output o);\n  assign o = i;\nendmodule\n"


@pytest.mark.parametrize(
    ("added", "said"),
    [
        (HELPER + "`define INC 8'd2\n", "line 4: the macro INC is also read by top.v"),
        (HELPER + "`unconnected_drive pull1\n", "line 4: leaves `unconnected_drive pull1"),
        ("module helper;\n  defparam tb.t.u.K = 8'd7;\nendmodule\n", "line 2: defparam"),
        ("module helper;\n  initial force tb.t.u.y = 8'd7;\nendmodule\n", "line 2: force"),
        (
            "module helper;\n  initial tb.t.u.y = 8'd7;\nendmodule\n",
            "line 2: write to the hierarchical name tb.t.u.y",
        ),
        (HELPER + "wire leak;\n", "line 4: text outside modules"),
        (HELPER + "`default_nettype tri1\n", "line 4: leaves `default_nettype tri1 in force"),
    ],
)
def test_a_new_file_that_reaches_the_design_from_outside_its_modules_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, added: str, said: str
) -> None:
    m = M.replace("module m(", "module m #(parameter [7:0] K = 8'd1) (").replace("8'd1;", "K;")
    files = {"rtlopt.toml": CONFIG, "m.v": m, "top.v": TOP, "tb/tb.v": TB}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "a_helper.v").write_text(added)
    _git(repo, "add", "a_helper.v")
    r = run_rtlopt(repo, "check", "--no-ppa")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert f"the new file a_helper.v at {said}" in r.stdout, r.stdout[-1500:]


def test_a_new_file_with_a_plain_module_and_its_own_directives_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ts = "`timescale 1ns/1ps\n"
    files = {"rtlopt.toml": CONFIG, "m.v": ts + M}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "n.v").write_text(
        ts + "`default_nettype none\n`define N_W 8\n"
        "module n(input wire [`N_W-1:0] a, output wire [`N_W-1:0] y);\n"
        "  assign y = a;\nendmodule\n`undef N_W\n`default_nettype wire\n"
    )
    _git(repo, "add", "n.v")
    r = run_rtlopt(repo, "check", "--no-ppa")
    assert r.returncode == 0, (r.stdout + r.stderr)[-1500:]


def test_a_submodule_bump_under_the_temporary_index_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``git commit -a`` with a submodule bump: the submodule's own git calls read its own
    index, not the superproject's temporary one the hook inherits; the bump is judged."""
    lib = committed_repo(tmp_path / "lib", {"m.v": M}, monkeypatch, tmp_path / "cache")
    top = "module top(input [7:0] a, output [7:0] y);\n  m u(.a(a), .y(y));\nendmodule\n"
    repo = committed_repo(
        tmp_path / "repo", {"rtlopt.toml": CONFIG, "top.v": top}, monkeypatch, tmp_path / "c"
    )
    sub = ("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "lib")
    assert _git(repo, *sub).returncode == 0
    assert _git(repo, "commit", "-q", "-m", "lib").returncode == 0
    _with_hook(repo)
    (repo / "lib" / "m.v").write_text(M.replace("a + 8'd1", "8'd1 + a"))
    assert _git(repo / "lib", "commit", "-q", "-a", "-m", "same").returncode == 0
    r = _git(repo, "commit", "-a", "-m", "bump")
    assert r.returncode == 0 and "proven" in r.stdout + r.stderr, (r.stdout + r.stderr)[-1500:]
    (repo / "lib" / "m.v").write_text(M.replace("8'd1", "8'd2"))
    assert _git(repo / "lib", "commit", "-q", "-a", "-m", "other").returncode == 0
    r = _git(repo, "commit", "-a", "-m", "bump")
    assert r.returncode != 0 and "not equivalent" in r.stdout + r.stderr, r.stdout[-1500:]
