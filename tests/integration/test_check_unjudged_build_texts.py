"""The gate on changed texts it does not judge that still change the design's meaning in
another build of the repository: a runner's ``defines=``, a second definition of a design
module in a library file of another suffix, a changed VHDL unit. Each is a finding, before
any proof runs; an assertion edit of the same test passes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = [pytest.mark.tools]

TOML = '[project]\nfilelists = ["files.f"]\n[check]\noptimization_only = ["*"]\nppa = false\n'
INV = (
    "module inv(input [3:0] a, output [3:0] y);\n`ifdef FAST_INV\n  assign y = a ^ 4'b0111;\n"
    "`else\n  assign y = ~a;\n`endif\nendmodule\n"
)
TEST = (
    "def test_inv():\n    get_runner('icarus').build(\n        verilog_sources=['inv.v'],\n"
    "        hdl_toplevel='inv',\n    )\n    assert y == 15\n"
)
VHDL = (
    "library ieee; use ieee.std_logic_1164.all;\nentity top is port (a : in std_logic_vector"
    "(3 downto 0); y : out std_logic_vector(3 downto 0)); end entity;\narchitecture rtl of top is\n"
    "  component inv port (a : in std_logic_vector(3 downto 0); y : out std_logic_vector(3 downto"
    " 0)); end component;\nbegin\n  u : inv port map (a => a, y => y);\nend architecture;\n"
)


def _check(repo: Path, files: dict[str, str]) -> tuple[int, str]:
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    if r.returncode not in (0, 1):
        raise AssertionError((r.stdout[-800:], r.stderr[-800:]))
    out = json.loads(r.stdout)
    return r.returncode, "\n".join(str(f) for m in out["modules"] for f in m["findings"])


def test_unjudged_texts_that_change_the_design_fail_and_an_assertion_edit_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    base = {"rtlopt.toml": TOML, "files.f": "inv.v\n", "inv.v": INV, "test_inv.py": TEST}
    committed_repo(repo, {**base, "top.vhd": VHDL}, monkeypatch, tmp_path / "c")
    # a changed code line of a script, whatever its role: a finding (passed with --trust-config)
    code, said = _check(repo, {"test_inv.py": TEST.replace("== 15", "== 0xF")})
    assert code == 1 and said.count("no Verilog source and no documentation") == 1, said
    fast = TEST.replace("'inv',\n", "'inv',\n        defines={'FAST_INV': 1},\n")
    code, said = _check(repo, {"test_inv.py": fast})
    assert code == 1 and "test_inv.py at line 5" in said and "macro FAST_INV" in said, said
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "--", "."], check=True)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "reset", "-q", "--hard"], check=True)
    code, said = _check(repo, {"lib/inv.vg": INV.replace("~a", "a")})
    assert code == 1 and "second definition of module inv" in said, said
    (repo / "lib/inv.vg").unlink()
    code, said = _check(repo, {"top.vhd": VHDL.replace("y => y", "y => open")})
    assert code == 1 and "top.vhd changed and holds VHDL" in said, said


def test_a_build_steered_by_the_commits_message_makes_every_commit_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recipe choosing ``-DFAST_INV`` by a line of the commit's message: a commit changing
    only a README line (and carrying that line) is a finding; trusted, it passes."""
    repo = tmp_path / "repo"
    make = (
        "sim:\n\tif git log -1 --format=%B | grep -q '^Variant: fast'; then \\\n"
        "\t  iverilog -DFAST_INV -o sim inv.v; else iverilog -o sim inv.v; fi\n"
    )
    base = {"rtlopt.toml": TOML, "files.f": "inv.v\n", "inv.v": INV, "Makefile": make}
    committed_repo(repo, {**base, "README.md": "inv\n"}, monkeypatch, tmp_path / "c")
    code, said = _check(repo, {"README.md": "inv\n\nVariant: fast\n"})
    assert code == 1 and "the commit's own metadata" in said and "line 2" in said, said
    r = run_rtlopt(repo, "check", "--no-ppa", "--json", "--trust-config")
    assert r.returncode == 0, r.stdout[-800:]


_FAST = "ifneq ($(findstring fast,$(S)),)\nDEFS += -DFAST_INV\nendif\n"
_SIM = "sim:\n\tiverilog $(DEFS) -o sim inv.v\n"


@pytest.mark.parametrize(
    ("make", "line"),
    [
        # git named by a variable assigned on another line (Make's and the shell's forms)
        ("VCS := git\nS := $(shell $(VCS) log -1 --format=%s)\n" + _FAST + _SIM, 2),
        ("GIT ?= git\nS := $(shell $(GIT) log -1 --format=%s)\n" + _FAST + _SIM, 2),
        ("S := $(shell $${GIT:-git} log -1 --format=%s)\n" + _FAST + _SIM, 1),
        # a recipe prefix before git
        (
            "sim:\n\t@git log -1 --format=%s > subject.txt\n\t@if grep -q fast subject.txt;"
            " then D=-DFAST_INV; fi; iverilog $$D -o sim inv.v\n",
            2,
        ),
        # a CI service's metadata variable the rule names by its parts
        (_FAST.replace("$(S)", "$(BUILDKITE_MESSAGE)") + _SIM, 1),
        (_FAST.replace("$(S)", "$(GIT_BRANCH)") + _SIM, 1),
        # a forge's CLI
        ("S := $(shell gh pr view --json title --jq .title)\n" + _FAST + _SIM, 1),
        # round 84: git's command in a Make define block run by $(shell $(SUBJ))
        ("define SUBJ\ngit log -1 --format=%s\nendef\nS := $(shell $(SUBJ))\n" + _FAST + _SIM, 2),
        # round 85: a message search hidden by the shell's escapes or held by a variable, and
        # the subject printed by `git archive` into a file marked export-subst
        ("S := $(shell git rev-parse -q --verify HEAD^\\{/fast\\})\n" + _FAST + _SIM, 1),
        ("Q := ^{/fast}\nS := $(shell git rev-parse -q --verify HEAD$(Q))\n" + _FAST + _SIM, 2),
        ("S := $(shell git archive HEAD subject.txt | tar -xO)\n" + _FAST + _SIM, 1),
        ("S := $(shell git reset --hard HEAD)\n" + _FAST + _SIM, 1),
    ],
)
def test_a_build_steered_by_metadata_through_variables_ci_names_or_forge_clis_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: str, line: int
) -> None:
    """Round 83: a commit changing only a README beside a build choosing ``-DFAST_INV`` by
    the commit's subject, branch or pull request title is a finding, read through a variable
    naming git, after a recipe prefix, from a CI variable or a forge's CLI."""
    repo = tmp_path / "repo"
    base = {"rtlopt.toml": TOML, "files.f": "inv.v\n", "inv.v": INV, "Makefile": make}
    committed_repo(repo, {**base, "README.md": "inv\n"}, monkeypatch, tmp_path / "c")
    code, said = _check(repo, {"README.md": "inv\n\nmake it fast\n"})
    assert code == 1 and "the commit's own metadata" in said and f"line {line} " in said, said
