"""Red team wave 20 (held out, on d0e0fc3), the gate's findings 2, 3 and 11: what a base
checkout reads and what the change holds.

2. A filelist path into the work tree spelled through a symlink (an environment variable
   naming a link to the repository) or with a leading ``//``: the base's checkout read the
   change's header, so a changed define was "proven".
3. A commit that only retargets a committed symlink (``rtl/hdrs -> ../inc_v1`` becomes
   ``../inc_v2``) named as an include folder in ``rtlopt.toml``: nothing was judged.
11. Pre-commit (staged): an untracked header beside the includer, or the untracked copy
   ``git rm --cached`` leaves, took part in the judged change although the commit does not
   hold it.

Each design is one 4-bit module; ``tgt`` computes ``a `OP b`` from a header.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = [pytest.mark.tools]

TGT = (
    '`include "w.vh"\nmodule tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n'
    "  assign y = a `OP b;\nendmodule\n"
)
GATE = '[check]\nppa = false\noptimization_only = ["*"]\n'


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *GIT_ID, "-C", str(repo), *args], check=True, capture_output=True)


def _check(repo: Path) -> tuple[int, dict[str, object]]:
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    return r.returncode, json.loads(r.stdout)


def _rows(out: dict[str, object]) -> list[dict[str, object]]:
    rows = out["modules"]
    assert isinstance(rows, list)
    return rows


def _findings(out: dict[str, object]) -> str:
    return "\n".join(str(f) for m in _rows(out) for f in m["findings"])


@pytest.mark.parametrize("spelling", ["symlink", "double-slash"])
def test_a_filelist_path_into_the_work_tree_is_read_in_each_checkout_however_spelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    repo = tmp_path / "repo"
    if spelling == "symlink":
        (tmp_path / "lnk").symlink_to(repo)
        monkeypatch.setenv("MYROOT", str(tmp_path / "lnk"))
        listed = "+incdir+${MYROOT}/inc\n${MYROOT}/rtl/tgt.v\n"
    else:
        listed = f"+incdir+/{repo}/inc\nrtl/tgt.v\n"
    files = {
        "inc/w.vh": "`define OP &\n",
        "rtl/tgt.v": TGT,
        "files.f": listed,
        "rtlopt.toml": '[project]\nfilelists = ["files.f"]\n' + GATE,
    }
    committed_repo(repo, files, monkeypatch, tmp_path / "cache")
    (repo / "inc/w.vh").write_text("`define OP |\n")
    _git(repo, "add", "-A")
    code, out = _check(repo)
    assert code == 1 and not out["ok"], out
    [m] = [m for m in _rows(out) if m["module"] == "tgt"]
    assert m["equivalence"] in ("refuted", "mismatch"), m


def _linked_include_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {
        "rtlopt.toml": '[project]\ninclude_dirs = ["rtl/hdrs"]\n' + GATE,
        "inc_v1/w.vh": "`define OP &\n",
        "inc_v2/w.vh": "`define OP |\n",
        "inc_v3/w.vh": "`define OP & // the same operator\n",
        "rtl/tgt.v": TGT,
    }
    repo = tmp_path / "repo"
    (repo / "rtl").mkdir(parents=True)
    (repo / "rtl/hdrs").symlink_to("../inc_v1")
    return committed_repo(repo, files, monkeypatch, tmp_path / "cache")


def test_a_retargeted_symlink_of_an_include_folder_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _linked_include_repo(tmp_path, monkeypatch)
    (repo / "rtl/hdrs").unlink()
    (repo / "rtl/hdrs").symlink_to("../inc_v2")
    _git(repo, "add", "-A")
    code, out = _check(repo)
    assert code == 1 and not out["ok"], out
    assert "rtl/hdrs" in _findings(out), out
    # the module that reads through it is re-judged and refuted
    assert any(
        m["module"] == "tgt" and m["equivalence"] in ("refuted", "mismatch") for m in _rows(out)
    ), out


def test_an_ordinary_edit_beside_a_linked_include_folder_passes_and_the_header_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _linked_include_repo(tmp_path, monkeypatch)
    (repo / "inc_v3/w.vh").write_text("`define OP &  // the same, reworded\n")
    (repo / "rtl/tgt.v").write_text(TGT.replace("a `OP b", "b `OP a"))
    _git(repo, "add", "-A")
    code, out = _check(repo)
    # the edit of tgt passes; the header beside (round 72) is a finding of its own: the
    # configured include folder reads inc_v1/w.vh, while a build with -I inc_v3 reads it
    rows = {m["file"]: m for m in _rows(out)}
    assert code == 1 and rows["rtl/tgt.v"]["equivalence"] == "proven", out
    assert not rows["rtl/tgt.v"]["findings"] and [f for m in _rows(out) for f in m["findings"]]
    assert "read as inc_v1/w.vh" in rows["inc_v3/w.vh"]["findings"][0], out


def _untracked_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {
        "rtlopt.toml": '[project]\ninclude_dirs = ["inc"]\n' + GATE,
        "inc/w.vh": "`define OP &\n",
        "rtl/tgt.v": TGT,
        "rtl/top.v": "module top (input [3:0] a, output [3:0] y);\n  sub u (.d(a), .q(y));\n"
        "endmodule\n",
        "rtl/sub.v": "module sub (input [3:0] d, output [3:0] q);\n  assign q = d + 4'd1;\n"
        "endmodule\n",
        "legacy/sub.v": "module sub (input [3:0] d, output [3:0] q);\n  assign q = d - 4'd1;\n"
        "endmodule\n",
    }
    return committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")


def test_an_untracked_header_shadowing_the_changed_one_is_not_judged_as_the_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _untracked_repo(tmp_path, monkeypatch)
    (repo / "inc/w.vh").write_text("`define OP |\n")
    _git(repo, "add", "inc/w.vh")
    (repo / "rtl/w.vh").write_text("`define OP &\n")  # untracked, beside the includer
    code, out = _check(repo)
    assert code == 1 and not out["ok"], out
    # the commit (the index) is judged: the change of the header reaches tgt
    assert any(
        m["module"] == "tgt" and m["equivalence"] in ("refuted", "mismatch") for m in _rows(out)
    ), out
    assert "rtl/w.vh is not staged" in _findings(out), out


def test_git_rm_cached_of_a_definition_is_judged_without_the_untracked_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _untracked_repo(tmp_path, monkeypatch)
    _git(repo, "rm", "-q", "--cached", "rtl/sub.v")
    code, out = _check(repo)
    assert code == 1 and not out["ok"], out
    found = _findings(out)
    assert "legacy/sub.v" in found and "rtl/sub.v is not staged" in found, out


def test_an_untracked_file_nothing_reads_does_not_block_a_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _untracked_repo(tmp_path, monkeypatch)
    (repo / "notes.txt").write_text("to do\n")
    (repo / "rtl/tgt.v").write_text(TGT.replace("a `OP b", "b `OP a"))
    _git(repo, "add", "rtl/tgt.v")
    code, out = _check(repo)
    assert code == 0 and out["ok"], out
    assert os.path.exists(repo / "notes.txt")


def test_untracked_sources_with_nothing_staged_are_named_in_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _untracked_repo(tmp_path, monkeypatch)
    (repo / "rtl/new.v").write_text(
        "module new_one (input a, output y);\n  assign y = a;\nendmodule\n"
    )
    code, out = _check(repo)
    assert code == 0 and _rows(out) == [], out
    assert any("untracked, so not checked: rtl/new.v" in str(n) for n in out["notes"]), out


def test_a_committed_symlink_back_into_the_work_tree_fails_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rtl/w.vh -> /abs/path/of/repo/inc/w.vh (absolute), beside the includer: each checkout
    # would read the work tree's header, the base's as well as the change's
    repo = tmp_path / "repo"
    (repo / "rtl").mkdir(parents=True)
    (repo / "rtl/w.vh").symlink_to(repo.resolve() / "inc" / "w.vh")
    files = {"rtlopt.toml": GATE, "inc/w.vh": "`define OP &\n", "rtl/tgt.v": TGT}
    committed_repo(repo, files, monkeypatch, tmp_path / "cache")
    (repo / "inc/w.vh").write_text("`define OP |\n")
    _git(repo, "add", "-A")
    code, out = _check(repo)
    assert code == 1 and not out["ok"], out
    assert "rtl/w.vh is a symlink to" in _findings(out), out


def test_an_outside_include_folder_hard_linking_a_work_tree_header_fails_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ext/w.vh, outside the repository in an include folder, is a hard link to the work
    # tree's inc/w.vh: both the base and the change read the work tree's new text there
    ext = tmp_path / "ext"
    ext.mkdir()
    toml = f'[project]\ninclude_dirs = ["{ext.resolve()}"]\n' + GATE
    files = {"rtlopt.toml": toml, "inc/w.vh": "`define OP &\n", "rtl/tgt.v": TGT}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    os.link(repo / "inc/w.vh", ext / "w.vh")
    (repo / "inc/w.vh").write_text("`define OP |\n")  # in place: the link reads it too
    assert (ext / "w.vh").read_text() == "`define OP |\n"
    _git(repo, "add", "-A")
    code, out = _check(repo)
    assert code == 1 and not out["ok"], out
    found = _findings(out)
    assert f"{(ext / 'w.vh').resolve()} is the same file as inc/w.vh" in found, out
