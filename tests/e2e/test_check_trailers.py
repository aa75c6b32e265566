"""Trailers that require equivalence count without ``--base`` (issue 33): in the commit-msg
stage (``--message-file``, the message of the commit being made) and from the commits since
the merge base with the branch's upstream, for a staged change and for ``rtlopt check FILE``.
Each case has its control: the same broken edit passes where no trailer requires it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtlopt.check import run_check
from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

MOD = """module m(input [3:0] a, output [3:0] y);
  assign y = a + 4'd3;
endmodule
"""
BROKEN = MOD.replace("a + ", "a - ")
OTHER = "module n(input x, output z);\n  assign z = ~x;\nendmodule\n"


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.v").write_text(MOD)
    (repo / "n.v").write_text(OTHER)
    (repo / "rtlopt.toml").write_text("[check]\nppa = false\n")
    git(repo, "init", "-q", "-b", "main", ".")
    git(repo, "config", "user.email", "t@localhost")
    git(repo, "config", "user.name", "t")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    return repo


def _check(repo: Path, *args: str) -> tuple[int, dict, dict]:
    r = rtlopt(["check", "--json", *args], repo)
    assert r.returncode in (0, 1), r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout)
    return r.returncode, next(m for m in out["modules"] if m["module"] == "m"), out


def _run(repo: Path, *files: str, message_file: Path | None = None) -> tuple[bool, dict, list]:
    """``run_check`` in this process (no interpreter start): (ok, module m, notes)."""
    report = run_check(
        repo, [repo / f for f in files], overrides={"check.ppa": False}, message_file=message_file
    )
    [m] = [vars(m) for m in report.modules if m.module == "m"]
    return report.ok, m, report.notes


def test_the_message_of_the_commit_being_made_requires_equivalence(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "m.v").write_text(BROKEN)
    git(repo, "add", "m.v")
    msg = repo / ".git" / "COMMIT_EDITMSG"
    msg.write_text(
        "tweak the adder\n\nRtlopt-Equivalent: m\n# Please enter the commit message ...\n"
    )
    rc, m, out = _check(repo, "--message-file", str(msg))
    assert rc == 1 and m["equivalence"] in ("mismatch", "refuted"), m
    assert m["rule"] == "required (trailer of the commit message)", m
    assert any("read from the commit message" in n for n in out["notes"]), out
    # control: a message without the trailer (a commented-out one does not count)
    msg.write_text("tweak the adder\n\n# Rtlopt-Equivalent: m\n")
    ok, m, _ = _run(repo, message_file=msg)
    assert ok and m["rule"] == "not required", m


def test_a_trailer_on_the_branch_since_its_upstream_requires_equivalence(tmp_path: Path) -> None:
    """A commit of the branch names the module; a later broken edit, staged (pre-commit) or
    named on the command line from the work tree, fails without --base."""
    repo = _repo(tmp_path)
    git(repo, "checkout", "-qb", "work")
    (repo / "n.v").write_text(OTHER.replace("~x", "!x"))
    git(repo, "commit", "-qam", "declare the adder optimization-only\n\nRtlopt-Equivalent: m")
    (repo / "m.v").write_text(BROKEN)
    # control: the branch has no upstream, so no commit's trailer is read
    ok, m, notes = _run(repo, "m.v")
    assert ok and m["rule"] == "not required", m
    assert any("none read" in n for n in notes), notes
    git(repo, "branch", "-q", "--set-upstream-to=main")
    ok, m, notes = _run(repo, "m.v")  # not staged: the work tree's version
    assert not ok and m["equivalence"] in ("mismatch", "refuted"), m
    assert m["rule"].startswith("required (trailer of "), m
    assert any("1 commit(s) since the merge base with main" in n for n in notes), notes
    git(repo, "add", "m.v")
    ok, m, _ = _run(repo)
    assert not ok and m["rule"].startswith("required (trailer of "), m


def test_a_trailer_that_names_nothing_fails_the_gate(tmp_path: Path) -> None:
    """A misspelt module or key would require nothing and let the broken edit pass unjudged:
    the gate stops (exit 2) naming the trailer and the module meant. A requirement written a
    paragraph above the last (no trailer to git) still requires."""
    from rtlopt.errors import UsageError

    repo = _repo(tmp_path)
    (repo / "m.v").write_text(BROKEN)
    git(repo, "add", "m.v")
    msg = repo / ".git" / "COMMIT_EDITMSG"
    for text, said in (
        ("tweak\n\nRtlopt-Equivalent: mm\n", "'Rtlopt-Equivalent: mm' of the commit message"),
        ("tweak\n\nRtlopt-Equivalant: m\n", "'rtlopt-equivalant'"),
    ):
        msg.write_text(text)
        with pytest.raises(UsageError) as err:
            _run(repo, message_file=msg)
        assert said in str(err.value), err.value
    msg.write_text("tweak the adder\n\nRtlopt-Equivalent: m\n\nA closing paragraph.\n")
    ok, m, _ = _run(repo, message_file=msg)
    assert not ok and m["rule"] == "required (trailer of the commit message)", m
    msg.write_text("tweak the adder\n\nRtlopt-Equivalent: m.v\n")  # a file names its modules
    ok, m, _ = _run(repo, message_file=msg)
    assert not ok, m
