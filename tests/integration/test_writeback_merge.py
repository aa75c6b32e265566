"""Write-back of candidates with helper modules, the compile gate and the preflight (real git,
real iverilog, real frontend)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rtlopt.config import Config, ProjectConfig
from rtlopt.errors import RepoError, ToolNotFound
from rtlopt.frontend import load_design, parse_text
from rtlopt.frontend.model import Design
from rtlopt.writeback import preflight_optimize, results_kept, write_branch
from rtlopt.writeback._merge import UnprovenWriteBack

pytestmark = pytest.mark.tools

TOP = """\
// the target and its helper in one file
module top(input [7:0] a, input [7:0] b, output [8:0] y);
  add8 u(.a(a), .b(b), .s(y));
endmodule

module add8(input [7:0] a, input [7:0] b, output [8:0] s);
  assign s = a + b;
endmodule
"""

# the candidate redefines the helper of the same file
CAND_SAME_FILE = """\
module top(input [7:0] a, input [7:0] b, output [8:0] y);
  add8 u(.a(a), .b(b), .s(y));
endmodule

module add8(input [7:0] a, input [7:0] b, output [8:0] s);
  assign s = {1'b0, a} + {1'b0, b};
endmodule
"""

USER = """\
module other_user(input [7:0] p, output [8:0] q);
  add8 k(.a(p), .b(8'd1), .s(q));
endmodule
"""


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def _repo(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "init")
    return root


def _design(root: Path, rel: str, module: str) -> Design:
    return load_design(root / rel, module, ProjectConfig())


def _modules_at(root: Path, sha: str, rel: str) -> list[str]:
    return [m.name for m in parse_text(_git(root, "show", f"{sha}:{rel}"), rel)]


def _compiles(root: Path, sha: str, rels: list[str], top: str, tmp: Path) -> None:
    files = []
    for rel in rels:
        f = tmp / rel.replace("/", "_")
        f.write_text(_git(root, "show", f"{sha}:{rel}"))
        files.append(str(f))
    subprocess.run(
        ["iverilog", "-g2012", "-s", top, "-o", str(tmp / "x.vvp"), *files],
        check=True,
        capture_output=True,
    )


def _no_branch(root: Path, branch: str) -> None:
    assert _git(root, "branch", "--list", branch).strip() == ""
    assert _git(root, "worktree", "list").count("\n") == 1


@pytest.mark.parametrize("with_design", [True, False])
def test_a_changed_helper_of_the_target_file_is_never_written(
    tmp_path: Path, with_design: bool
) -> None:
    """Proven was the target with the candidate's add8; the branch would hold every other
    instance of add8 changed too: an internal error, no branch."""
    root = _repo(tmp_path / "r", {"rtl/top.v": TOP})
    d = _design(root, "rtl/top.v", "top") if with_design else None
    with pytest.raises(
        UnprovenWriteBack, match=r"'add8', which the repository defines too \(rtl/top.v\)"
    ):
        write_branch(
            root, root / "rtl/top.v", "top", CAND_SAME_FILE, branch="b", message="m", design=d
        )
    _no_branch(root, "b")


def test_a_changed_helper_of_another_file_is_never_written(tmp_path: Path) -> None:
    top_only = TOP[: TOP.index("module add8")]
    helper = TOP[TOP.index("module add8") :]
    root = _repo(tmp_path / "r", {"rtl/top.v": top_only, "rtl/add8.v": helper, "u.v": USER})
    d = _design(root, "rtl/top.v", "top")
    with pytest.raises(UnprovenWriteBack, match="add8"):
        write_branch(root, d.target.file, "top", CAND_SAME_FILE, branch="b", message="m", design=d)
    _no_branch(root, "b")


def test_a_helper_named_as_a_module_under_an_ifdef_elsewhere_is_never_written(
    tmp_path: Path,
) -> None:
    """A module the design's parse does not see (declared only under an ```ifdef``) still
    names a repository module: the scan of the branch's files reads every branch."""
    top = TOP.replace("add8", "adder")
    guarded = "`ifdef FEATURE_X\n" + TOP[TOP.index("module add8") :] + "`endif\n"
    root = _repo(tmp_path / "r", {"rtl/top.v": top, "rtl/lib.v": guarded})
    d = _design(root, "rtl/top.v", "top")
    assert "add8" not in d.modules
    cand = CAND_SAME_FILE  # top now instantiates add8: the candidate's own helper
    with pytest.raises(
        UnprovenWriteBack, match=r"'add8', which the repository defines too \(rtl/lib.v\)"
    ):
        write_branch(root, d.target.file, "top", cand, branch="b", message="m", design=d)
    _no_branch(root, "b")


def test_a_helper_of_a_new_name_goes_next_to_the_target(tmp_path: Path) -> None:
    root = _repo(tmp_path / "r", {"rtl/top.v": TOP, "rtl/user.v": USER})
    d = _design(root, "rtl/top.v", "top")
    cand = CAND_SAME_FILE.replace("add8", "add8_wide")
    res = write_branch(root, d.target.file, "top", cand, branch="b", message="m", design=d)
    assert _modules_at(root, res.commit_sha, "rtl/top.v") == ["top", "add8_wide", "add8"]
    text = _git(root, "show", f"{res.commit_sha}:rtl/top.v")
    assert text.endswith(TOP[TOP.index("module add8") :])  # the original, byte for byte
    assert "add8_wide u(" in text and text.startswith("// the target and its helper")
    assert _git(root, "diff", "--name-only", "main", res.commit_sha).split() == ["rtl/top.v"]
    _compiles(root, res.commit_sha, ["rtl/top.v", "rtl/user.v"], "top", tmp_path)


def test_an_unchanged_copy_of_a_helper_is_never_written_either(tmp_path: Path) -> None:
    """Read in the candidate's macro state, a copy need not be the module the branch keeps."""
    root = _repo(tmp_path / "r", {"rtl/top.v": TOP})
    d = _design(root, "rtl/top.v", "top")
    cand = (
        "module top(input [7:0] a, input [7:0] b, output [8:0] y);\n"
        "  wire [8:0] t;\n  add8 u(.a(a), .b(b), .s(t));\n  assign y = t;\nendmodule\n\n"
        + TOP[TOP.index("module add8") :]
    )
    with pytest.raises(UnprovenWriteBack, match="add8"):
        write_branch(root, d.target.file, "top", cand, branch="b", message="m", design=d)
    _no_branch(root, "b")


def test_compile_gate_refuses_a_branch_that_does_not_compile(tmp_path: Path) -> None:
    # the candidate uses a module that exists only in an uncommitted file: the working tree
    # compiles, the branch (made from HEAD) would not
    root = _repo(tmp_path / "r", {"rtl/top.v": TOP})
    (root / "rtl" / "new.v").write_text(
        "module inc9(input [8:0] x, output [8:0] z);\n  assign z = x;\nendmodule\n"
    )
    d = _design(root, "rtl/top.v", "top")
    cand = (
        "module top(input [7:0] a, input [7:0] b, output [8:0] y);\n  wire [8:0] t;\n"
        "  add8 u(.a(a), .b(b), .s(t));\n  inc9 v(.x(t), .z(y));\nendmodule\n"
    )
    with pytest.raises(RepoError, match="would not compile.*inc9|inc9.*would not compile") as ei:
        write_branch(root, d.target.file, "top", cand, branch="rtlopt/top/x", message="m", design=d)
    assert "branch was not created" in ei.value.one_line()
    assert "rtlopt/top/x" not in _git(root, "branch", "--list")
    assert _git(root, "worktree", "list").count("\n") == 1


def test_preflight_finds_a_prefix_clash_and_a_missing_identity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path / "r", {"rtl/top.v": TOP})
    d = _design(root, "rtl/top.v", "top")
    _git(root, "branch", "rtlopt/top")
    with pytest.raises(RepoError, match="'rtlopt/top' exists"):
        preflight_optimize(d, Config(), "rtlopt/top/run-1")
    _git(root, "branch", "-D", "rtlopt/top")
    _git(root, "branch", "rtlopt/top/run-1/x")
    with pytest.raises(RepoError, match="cannot hold both"):
        preflight_optimize(d, Config(), "rtlopt/top/run-1")
    _git(root, "branch", "-D", "rtlopt/top/run-1/x")
    preflight_optimize(d, Config(), "rtlopt/top/run-1")
    for var in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("EMAIL", "")
    with pytest.raises(RepoError, match="who commits"):
        preflight_optimize(d, Config(), "rtlopt/top/run-1")
    preflight_optimize(d, Config(), None)  # --no-branch: no git needed


def test_preflight_names_missing_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repo(tmp_path / "r", {"rtl/top.v": TOP})
    d = _design(root, "rtl/top.v", "top")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # tools are located on every call
    for tool in ("IVERILOG", "VVP", "STA", "YOSYS"):
        monkeypatch.delenv(f"RTLOPT_{tool}", raising=False)
    with pytest.raises(ToolNotFound, match="iverilog, vvp, sta, yosys"):
        preflight_optimize(d, Config(), None)


def test_results_kept_ends_the_hint(tmp_path: Path) -> None:
    exc = results_kept(RepoError("git commit failed", hint="set git user.name"), tmp_path)
    assert exc.one_line().endswith(
        f"(set git user.name; results kept; rerun with --resume {tmp_path})"
    )
    assert str(exc) == exc.one_line()
