"""Red team w40 G2, end to end with real tools and git: a unit-scope (``$unit``) declaration in
another file of the build took the place of the name the target imports from a package.

``m.v`` imports ``p::*`` at unit scope and reads ``W``; ``consts.inc`` (which a Makefile or a
filelist compiles in the same unit) declares its own ``W`` outside every module. Every build
reads the unit's ``W``; rtlopt read the package's and accepted a candidate that writes the
package's value (``rtlopt evaluate``), or passed the edit (``rtlopt check``). The target's
changes are now unchecked (``evaluate/_unit_scope.py``), naming the file, line and
declaration; a unit-scope declaration of a name the target does not read leaves it checked.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
TOP = "module top(input [7:0] a, output [7:0] y);\n  m u(.a(a), .y(y));\nendmodule\n"
TB = (
    "module tb; reg [7:0] a = 8'h90; wire [7:0] y; top t(.a(a), .y(y));\n"
    '  initial #1 $display("y=%h", y); endmodule\n'
)
#: form -> (package p, the unit-scope declaration, what m reads, the candidate's expression)
FORMS = {
    "localparam": (
        "package p; localparam int W = 8; endpackage\n",
        "localparam int W = 4;\n",
        "a + W",
        "a + 8",
    ),
    "function": (
        "package p; function automatic [7:0] W(input [7:0] x); W = x + 8; endfunction\n"
        "endpackage\n",
        "function automatic [7:0] W(input [7:0] x); W = x + 4; endfunction\n",
        "W(a)",
        "a + 8",
    ),
    "typedef": (
        "package p; typedef logic [7:0] w_t; endpackage\n",
        "typedef logic signed [7:0] w_t;\n",
        "(w_t'(a) >>> 1)",
        "(a >> 1)",
    ),
}


def _m(expr: str) -> str:
    return (
        f"import p::*;\nmodule m(input [7:0] a, output [7:0] y);\n  assign y = {expr};\nendmodule\n"
    )


def _repo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str, build: str, unit: str, suffix: str
) -> tuple[Path, str]:
    """A repository of the form's files (``consts.<suffix>`` holding ``unit``) and a Makefile
    (``make``: the files on its command line) or a filelist (``f``); the candidate's text."""
    pkg, _decl, use, cand = FORMS[form]
    consts = f"consts.{suffix}"
    files = {"rtlopt.toml": CONFIG, "p.sv": pkg, consts: unit, "m.v": _m(use), "top.v": TOP}
    files["tb/tb.v"] = TB
    if build == "f":
        files["files.f"] = f"p.sv\n{consts}\nm.v\ntop.v\n"
        files["Makefile"] = "sim:\n\tiverilog -g2012 -o sim.vvp -f files.f tb/tb.v\n"
    else:
        files["Makefile"] = f"sim:\n\tiverilog -g2012 -o sim.vvp p.sv *.{suffix} *.v tb/tb.v\n"
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    return repo, _m(cand)


def _evaluate(repo: Path, tmp_path: Path, cand: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "cand.v").write_text(cand)
    return run_rtlopt(
        repo, "evaluate", "m.v", "--candidate", str(tmp_path / "cand.v"), "--pdk", "nangate45"
    )


def _simulated(repo: Path, tmp: Path, m_text: str, suffix: str) -> str:
    """``y`` as the build's real iverilog prints it with ``m_text`` for m."""
    (tmp / "m_sim.v").write_text(m_text)
    out = tmp / "sim.vvp"
    files = ["p.sv", f"consts.{suffix}", str(tmp / "m_sim.v"), "top.v", "tb/tb.v"]
    subprocess.run(["iverilog", "-g2012", "-o", str(out), *files], cwd=repo, check=True)
    return subprocess.run(["vvp", "-n", str(out)], capture_output=True, text=True).stdout


@pytest.mark.parametrize(
    ("form", "build", "suffix"),
    [
        ("localparam", "make", "inc"),
        ("localparam", "f", "inc"),
        ("localparam", "f", "sv"),
        ("function", "make", "inc"),
        ("typedef", "f", "inc"),
    ],
)
def test_evaluate_leaves_a_target_a_unit_declaration_captures_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str, build: str, suffix: str
) -> None:
    _pkg, decl, use, _cand = FORMS[form]
    repo, cand = _repo(tmp_path, monkeypatch, form, build, decl, suffix)
    # the build reads the unit's declaration: the candidate is another design there
    assert _simulated(repo, tmp_path, _m(use), suffix) != _simulated(repo, tmp_path, cand, suffix)
    r = _evaluate(repo, tmp_path, cand)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert f"unchecked: consts.{suffix}:1: a declaration outside every module" in r.stdout
    assert "move it into a package the module imports explicitly" in r.stdout


def test_check_fails_an_edit_of_a_module_a_unit_declaration_captures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _pkg, decl, _use, _cand = FORMS["typedef"]
    repo, cand = _repo(tmp_path, monkeypatch, "typedef", "make", decl, "inc")
    (repo / "m.v").write_text(cand)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "m.v"], check=True)
    r = run_rtlopt(repo, "check", "m.v")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "consts.inc:1: a declaration outside every module" in r.stdout, r.stdout[-1500:]
    assert "typedef w_t" in r.stdout


@pytest.mark.parametrize(
    ("unit", "said"),
    [
        # a macro another file defines, at unit scope: any name
        ("`DECL_W\n", "cannot be read"),
        # a unit-scope wildcard import of another package holding W
        ("import q::*;\n", "import q::*"),
    ],
)
def test_unit_text_that_may_declare_any_name_leaves_a_unit_scope_reader_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unit: str, said: str
) -> None:
    repo, cand = _repo(tmp_path, monkeypatch, "localparam", "make", unit, "inc")
    (repo / "q.sv").write_text("package q; localparam int W = 4; endpackage\n")
    (repo / "defs.vh").write_text("`define DECL_W localparam int W = 4;\n")
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = _evaluate(repo, tmp_path, cand)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert said in r.stdout and "consts.inc" in r.stdout, r.stdout[-1500:]


def test_a_unit_declaration_of_a_name_the_target_does_not_read_leaves_it_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, _cand = _repo(tmp_path, monkeypatch, "localparam", "make", "localparam Q = 4;\n", "inc")
    r = _evaluate(repo, tmp_path, _m("a + 8'd8"))
    assert r.returncode == 0, (r.stdout + r.stderr)[-1500:]
    assert "ACCEPTED" in r.stdout


def test_a_header_another_module_includes_counts_where_a_glob_compiles_it_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decl = FORMS["localparam"][1]
    repo, cand = _repo(tmp_path, monkeypatch, "localparam", "make", decl, "inc")
    (repo / "other.v").write_text('module other;\n`include "consts.inc"\nendmodule\n')
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "commit", "-qm", "other"], check=True)
    r = _evaluate(repo, tmp_path, cand)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "consts.inc:1: a declaration outside every module" in r.stdout, r.stdout[-1500:]


@pytest.mark.parametrize(
    "make",
    [
        "sim:\n\tiverilog -g2012 -o sim a_pkg.v consts.txt \\\n\t\tm.v\n",
        "sim:\n\tiverilog -g2012 -o sim consts.txt $(wildcard *.v)\n",
    ],
    ids=["continued-line", "wildcard"],
)
def test_a_build_line_continued_over_lines_names_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: str
) -> None:
    """Red-team round 126 (06L, 06t): ``iverilog ... consts.txt \\`` then ``m.v`` on the next
    line, or ``consts.txt $(wildcard *.v)``, compiles consts.txt with the target: its ``W = 2``
    takes the place of the package's."""
    from _fixture_repo import repo_verdict

    files = {
        "a_pkg.v": "package p;\n  localparam W = 4;\nendpackage\n",
        "consts.txt": "localparam W = 2;\n",
        "m.v": "import p::*;\nmodule m (input [W-1:0] a, output [W-1:0] y);\n"
        "  assign y = ~a;\nendmodule\n",
        "Makefile": make,
    }
    cand = "import p::*;\nmodule m (input [3:0] a, output [3:0] y);\n  assign y = ~a;\nendmodule\n"
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "m.v", cand)
    assert rc == 1 and "consts.txt:1: a declaration outside every module" in reason, reason
