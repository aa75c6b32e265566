"""`rtlopt check` judges by rules the change cannot set (issue 33).

Real git repositories in temporary folders, the real command line, iverilog and Yosys; tiny
modules and ``ppa = false`` keep each case to a few seconds. Each failing case has a control
beside it that must pass, so a gate that rejects everything fails the suite too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

MOD = """module m(input [3:0] a, output [3:0] y);
  assign y = a + 4'd3;
endmodule
"""
BROKEN = MOD.replace("a + ", "a - ")
EQUIVALENT = MOD.replace("a + 4'd3", "4'd3 + a")
STRICT = '[check]\noptimization_only = ["*"]\nppa = false\n'
LOOSE = (
    "[check]\noptimization_only = []\nppa = false\n\n[formal]\nenabled = false\n\n"
    '[eval]\nnetlist_check = "never"\n'
)


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "init", "-q", "-b", "main", ".")
    git(repo, "config", "user.email", "t@localhost")
    git(repo, "config", "user.name", "t")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    return repo


def _check(repo: Path, *args: str) -> tuple[int, dict]:
    r = rtlopt(["check", "--json", *args], repo)
    assert r.returncode in (0, 1), r.stdout[-2000:] + r.stderr[-2000:]
    return r.returncode, json.loads(r.stdout)


def _module(out: dict, name: str) -> dict:
    return next(m for m in out["modules"] if m["module"] == name)


def _commit(repo: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


# ------------------------------------------------------------------ rules from the base


def test_a_commit_that_loosens_the_rules_is_judged_by_the_bases(tmp_path: Path) -> None:
    """One commit empties optimization_only, turns the proof off and the netlist check to
    never, and breaks the module: the broken edit is still refuted, and the configuration
    change is a finding of its own that names the settings."""
    repo = _repo(tmp_path, {"m.v": MOD, "rtlopt.toml": STRICT})
    (repo / "rtlopt.toml").write_text(LOOSE)
    (repo / "m.v").write_text(BROKEN)
    git(repo, "add", "-A")
    rc, out = _check(repo)
    assert rc == 1, out
    m = _module(out, "m")
    assert m["equivalence"] in ("mismatch", "refuted") and m["findings"], m
    assert m["rule"].startswith("required (optimization_only"), m
    config = _module(out, "(configuration)")
    said = " ".join(config["findings"])
    for key in ("check.optimization_only", "formal.enabled", "eval.netlist_check"):
        assert key in said, said
    # opting in to the change's rules: said in the output, and the loosened rules apply
    rc, out = _check(repo, "--trust-config")
    assert rc == 0, out
    config = _module(out, "(configuration)")
    assert not config["findings"] and any("--trust-config" in n for n in config["notes"])
    assert _module(out, "m")["equivalence"] == "not required"


def test_an_unchanged_configuration_is_no_finding(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"m.v": MOD, "rtlopt.toml": STRICT})
    (repo / "rtlopt.toml").write_text("# a comment\n" + STRICT)
    (repo / "m.v").write_text(EQUIVALENT)
    git(repo, "add", "-A")
    rc, out = _check(repo)
    # no configuration finding; the changed file is still one a build may read (grep it)
    assert rc == 1, out
    assert [m["module"] for m in out["modules"]] == ["(file)", "m"]
    assert _module(out, "(file)")["file"] == "rtlopt.toml"
    assert _module(out, "m")["equivalence"] == "proven"
    rc, out = _check(repo, "--trust-config")
    assert rc == 0, out


# ------------------------------------------------------------------ what must stay equivalent


@pytest.mark.parametrize(
    "message",
    [
        "tweak the adder\n\nRtlopt-Equivalent: m",
        # rtlopt's own branches (rtlopt/writeback/_message.py)
        "rtlopt: optimize m (ADP -3.0%)\n\nRewrite of module m found by rtlopt.\n\n"
        "Rtlopt-Run: r1\nRtlopt-Metric: ADP 10 -> 9\nRtlopt-Equivalence: proven",
    ],
    ids=["equivalent-trailer", "writeback-trailer"],
)
def test_a_trailer_requires_equivalence(tmp_path: Path, message: str) -> None:
    repo = _repo(tmp_path, {"m.v": MOD, "rtlopt.toml": "[check]\nppa = false\n"})
    git(repo, "checkout", "-qb", "work")
    _commit(repo, {"m.v": BROKEN}, message)
    rc, out = _check(repo, "--base", "main")
    assert rc == 1, out
    m = _module(out, "m")
    assert m["equivalence"] in ("mismatch", "refuted") and "trailer" in m["rule"], m
    # the first line says what was required, and by which rule
    assert out["headline"].startswith("rtlopt check: required to stay equivalent (1 of 1): m ")
    assert "trailer of" in out["headline"], out["headline"]


def test_without_a_trailer_nothing_is_required_and_the_first_line_says_so(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path, {"m.v": MOD, "rtlopt.toml": "[check]\nppa = false\n"})
    git(repo, "checkout", "-qb", "work")
    _commit(repo, {"m.v": BROKEN}, "tweak the adder")
    rc, out = _check(repo, "--base", "main")
    assert rc == 0, out
    assert _module(out, "m")["rule"] == "not required"
    r = rtlopt(["check", "--base", "main"], repo)
    first = r.stdout.splitlines()[0]
    assert first.startswith("rtlopt check: no changed module is required to stay equivalent")
    assert "optimization_only" in r.stdout and "Rtlopt-Equivalent" in r.stdout
    assert "no changed module is required" in out["headline"]


# ------------------------------------------------------------------ the dependency graph

USES_K = """`include "defs.vh"
module m(input [3:0] a, output [3:0] y);
  assign y = a + `K;
endmodule
"""
USES_D = MOD.replace("4'd3", "`D")


def test_a_changed_header_re_judges_the_modules_that_include_it(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"defs.vh": "`define K 4'd3\n", "m.v": USES_K, "rtlopt.toml": STRICT})
    (repo / "defs.vh").write_text("`define K 4'd4\n")
    git(repo, "add", "-A")
    rc, out = _check(repo)
    assert rc == 1, out
    m = _module(out, "m")
    assert m["equivalence"] in ("mismatch", "refuted"), m
    assert any("defs.vh" in n for n in m["notes"]), m
    # control: a header change that means the same passes
    (repo / "defs.vh").write_text("// the offset\n`define K (4'd1 + 4'd2)\n")
    git(repo, "add", "-A")
    rc, out = _check(repo)
    assert rc == 0, out
    assert _module(out, "m")["equivalence"] == "proven"


def test_a_configuration_change_alone_is_said_on_the_first_line(tmp_path: Path) -> None:
    config = STRICT + '\n[project]\ndefines = ["UNUSED=1"]\n'
    repo = _repo(tmp_path, {"m.v": MOD, "rtlopt.toml": config})
    (repo / "rtlopt.toml").write_text(config.replace("UNUSED=1", "UNUSED=2"))
    git(repo, "add", "-A")
    rc, out = _check(repo)
    assert rc == 1, out
    assert out["headline"].startswith(
        "rtlopt check: the change alters the configuration the gate judges by (rtlopt.toml: "
        "project.defines"
    ), out["headline"]
    assert "the base's rules" in out["headline"], out["headline"]


@pytest.mark.parametrize("where", ["config", "filelist"])
def test_a_changed_define_re_judges_the_modules_that_read_it(tmp_path: Path, where: str) -> None:
    if where == "config":
        files = {"m.v": USES_D, "rtlopt.toml": STRICT + '\n[project]\ndefines = ["D=4\'d3"]\n'}
        old, new, changed = "D=4'd3", "D=4'd4", "rtlopt.toml"
    else:
        files = {
            "m.v": USES_D,
            "rtl.f": "+define+D=4'd3\nm.v\n",
            "rtlopt.toml": STRICT + '\n[project]\nfilelists = ["rtl.f"]\n',
        }
        old, new, changed = "+define+D=4'd3", "+define+D=4'd4", "rtl.f"
    repo = _repo(tmp_path, files)
    (repo / changed).write_text((repo / changed).read_text().replace(old, new))
    git(repo, "add", "-A")
    rc, out = _check(repo)
    assert rc == 1, out
    assert any(changed in f for f in _module(out, "(configuration)")["findings"]), out
    # trusted, the configuration change is accepted, and the module it reaches still fails
    rc, out = _check(repo, "--trust-config")
    assert rc == 1, out
    m = _module(out, "m")
    assert m["equivalence"] in ("mismatch", "refuted") and m["change"] == "reached", m
    # control: the same define with an equal value, trusted, passes
    (repo / changed).write_text(
        (repo / changed).read_text().replace(new, new.replace("4'd4", "4'b0011"))
    )
    git(repo, "add", "-A")
    rc, out = _check(repo, "--trust-config")
    assert rc == 0, out


def test_a_deleted_module_that_is_still_instantiated_fails(tmp_path: Path) -> None:
    top = "module top(input [3:0] a, output [3:0] y);\n  m u(.a(a), .y(y));\nendmodule\n"
    other = "module n(input x, output z);\n  assign z = ~x;\nendmodule\n"
    repo = _repo(tmp_path, {"m.v": MOD, "n.v": other, "top.v": top, "rtlopt.toml": STRICT})
    git(repo, "rm", "-q", "m.v")
    rc, out = _check(repo)
    assert rc == 1, out
    m = _module(out, "m")
    assert m["change"] == "removed" and "still instantiated (top.v:2)" in m["findings"][0], m
    # control: a module nothing instantiates may go
    git(repo, "reset", "-q", "--hard")
    git(repo, "rm", "-q", "n.v")
    rc, out = _check(repo)
    assert rc == 0, out
    assert [(m["module"], m["change"]) for m in out["modules"]] == [("n", "removed")]


# ------------------------------------------------------------------ red team round 72

CI = "jobs:\n  check:\n    steps:\n      - run: rtlopt check --base origin/main\n"


def test_a_workflow_and_an_environment_that_loosen_the_rules_are_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit sets an RTLOPT_ variable in its own CI workflow, which runs the gate with it:
    the workflow's line and the environment's override are findings, and the output says
    which keys the environment overrides; --trust-config accepts both, and says so."""
    repo = _repo(tmp_path, {"m.v": MOD, "rtlopt.toml": STRICT, ".ci/check.yml": CI})
    loose = CI.replace(
        "      - run", "        env:\n          RTLOPT_CHECK__PPA: 'true'\n      - run"
    )
    _commit(repo, {".ci/check.yml": loose}, "ci")
    monkeypatch.setenv("RTLOPT_CHECK__PPA", "true")
    rc, out = _check(repo, "--base", "HEAD~1")
    assert rc == 1, out
    assert out["environment"].endswith("check.ppa (RTLOPT_CHECK__PPA, not applied)"), out
    said = " ".join(_module(out, "(configuration)")["findings"])
    assert ".ci/check.yml:5: a changed line runs or configures rtlopt" in said, said
    assert "environment: RTLOPT_CHECK__PPA='true'" in said, said
    rc, out = _check(repo, "--base", "HEAD~1", "--trust-config")
    assert rc == 0 and "not applied" not in out["environment"], out
    assert any("--trust-config" in n for n in _module(out, "(configuration)")["notes"]), out


def test_a_module_moved_out_of_the_pattern_with_its_file_stays_required(tmp_path: Path) -> None:
    """optimization_only = ["rtl/*"]: a commit that renames rtl/m.v to lib/m.v and breaks
    it is judged as the base's rule requires (its base path matches)."""
    config = '[check]\noptimization_only = ["rtl/*"]\nppa = false\n'
    repo = _repo(tmp_path, {"rtl/m.v": MOD, "rtlopt.toml": config})
    git(repo, "mv", "rtl/m.v", "lib.v")
    _commit(repo, {"lib.v": BROKEN}, "move")
    rc, out = _check(repo, "--base", "HEAD~1")
    assert rc == 1, out
    m = _module(out, "m")
    assert m["rule"].endswith("its base path rtl/m.v)") and m["findings"], m


# ------------------------------------------------------------------ red team round 83

KEY = "module fast_key(input i, output o);\n  assign o = i;\nendmodule\n"


@pytest.mark.parametrize(
    ("recipe", "failing"),
    [
        ("\tiverilog $(if $(word 3,$^),-DFAST) -o m.vvp m.v tb.v\n", True),
        ("\tiverilog -o $@ $^\n", False),
    ],
)
def test_a_file_a_recipe_tests_through_its_prerequisites_is_a_finding(
    tmp_path: Path, recipe: str, failing: bool
) -> None:
    """Round 83 case 12: ``m.vvp: m.v tb.v $(wildcard fast_key.v)`` whose recipe tests ``$^``
    (the added file becomes -DFAST): adding the file is a finding; compiled by ``$^`` on a
    plain compile line (the control), the added module is judged as a source and passes."""
    tb = "module tb;\n  wire [3:0] y;\n  m u(.a(4'd1), .y(y));\nendmodule\n"
    make = f"m.vvp: m.v tb.v $(wildcard fast_key.v)\n{recipe}"
    repo = _repo(tmp_path, {"m.v": MOD, "tb.v": tb, "Makefile": make, "rtlopt.toml": STRICT})
    _commit(repo, {"fast_key.v": KEY}, "add fast_key helper")
    rc, out = _check(repo, "--base", "HEAD~1")
    said = " ".join(" ".join(m["findings"]) for m in out["modules"])
    assert rc == int(failing), out
    assert ("Makefile names it at line 1" in said) is failing, said


def test_a_file_whose_existence_a_make_function_turns_into_a_define_is_a_finding(
    tmp_path: Path,
) -> None:
    """Round 83 case 07: ``DEFS += $(patsubst %_key.v,-DFAST,$(wildcard fast_key.v))`` on an
    assignment whose variable only the compile line reads: adding the file is a finding."""
    make = (
        "DEFS += $(patsubst %_key.v,-DFAST,$(wildcard fast_key.v))\nsim:\n"
        "\tiverilog $(DEFS) -o m.vvp m.v\n\tvvp -n m.vvp\n"
    )
    repo = _repo(tmp_path, {"m.v": MOD, "Makefile": make, "rtlopt.toml": STRICT})
    _commit(repo, {"fast_key.v": KEY}, "add fast_key helper")
    rc, out = _check(repo, "--base", "HEAD~1")
    said = " ".join(" ".join(m["findings"]) for m in out["modules"])
    assert rc == 1 and "Makefile names it at line 1" in said, out


# ------------------------------------------------------------------ red team round 84


@pytest.mark.parametrize(
    ("search", "failing"),
    [
        ("grep -rqx 'variant: fast' --exclude-dir=.git .", True),
        ("grep -qx 'variant: fast' tb.v", False),
    ],
)
def test_an_edited_document_a_search_of_the_tree_reads_is_a_finding(
    tmp_path: Path, search: str, failing: bool
) -> None:
    """Round 84 case 06: the Makefile picks -DFAST when any file of the tree holds a line
    (``grep -r`` over ``.``): editing README.md is a finding; a search of one named file that
    the commit leaves alone (the control) lets the documentation edit pass."""
    tb = "module tb;\n  wire [3:0] y;\n  m u(.a(4'd1), .y(y));\nendmodule\n"
    make = (
        f"DEFS := $(shell {search} && echo -DFAST)\nsim:\n"
        "\tiverilog $(DEFS) -o m.vvp m.v tb.v\n\tvvp -n m.vvp\n"
    )
    files = {"m.v": MOD, "tb.v": tb, "Makefile": make, "rtlopt.toml": STRICT, "README.md": "# m\n"}
    repo = _repo(tmp_path, files)
    _commit(repo, {"README.md": "# m\nvariant: fast\n"}, "docs: notes")
    rc, out = _check(repo, "--base", "HEAD~1")
    said = " ".join(" ".join(m["findings"]) for m in out["modules"])
    assert rc == int(failing), out
    assert (
        "Makefile at line 1 tests or reads files by a listing or a recursive search" in said
    ) is failing, said


# ------------------------------------------------------------------ red team round 85


@pytest.mark.parametrize(
    ("test", "added", "why"),
    [
        ("ifneq ($(realpath $(addsuffix .v,fast_key)),)", "fast_key.v", "a name built from"),
        ("ifneq ($(shell echo fast_*),fast_*)", "fast_key.v", "the glob fast_*"),
        ("ifneq ($(shell cd variants 2>/dev/null && echo y),)", "variants/fast_key.v", "a folder"),
    ],
)
def test_a_file_a_make_condition_tests_in_another_form_is_a_finding(
    tmp_path: Path, test: str, added: str, why: str
) -> None:
    """Round 85 cases 04, 05, 08 (class): Make's realpath, a shell command's glob, a folder
    entered by cd test files' existence: adding only an unused module is a finding."""
    make = f"{test}\nDEFS += -DFAST\nendif\nsim:\n\tiverilog $(DEFS) -o m.vvp m.v\n"
    repo = _repo(tmp_path, {"m.v": MOD, "Makefile": make, "rtlopt.toml": STRICT})
    (repo / added).parent.mkdir(exist_ok=True)
    _commit(repo, {added: KEY}, "add fast_key helper")
    rc, out = _check(repo, "--base", "HEAD~1")
    said = " ".join(" ".join(m["findings"]) for m in out["modules"])
    assert rc == 1 and f"Makefile at line 1 tests or reads files by {why}" in said, out
