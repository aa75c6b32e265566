"""Red team wave 16 (held out, on 424c5db), the gate's findings 5 and 6: a change that swaps
which file defines a module the design instantiates, while no text of its users changes.

5. A file moved unchanged to another ``+libext+`` suffix in the SAME ``-y`` folder: iverilog's
   lookup now reads ``lib/sub.sv`` (d - 1) instead of ``lib/sub.v`` (d + 1); a = b = 0 gives
   y = 0001 before, 1111 after.
6. No filelist (the scan): ``git rm rtl/sub.v`` while ``legacy/sub.v`` defines ``sub``
   otherwise; every build of the change reads d - 1 (``iverilog -y rtl -y legacy``).

Both passed as "nothing to prove" / "module removed"; the class fix (``check/_definitions``)
compares, for every instantiated module a changed path defines, which file and text each build
reads at the base and after the change. The controls are the changes that must still pass.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = [pytest.mark.tools]

SUB = "module sub (input [3:0] d, output [3:0] q);\n  assign q = d {} 4'd1;\nendmodule\n"
TOP = (
    "module tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n"
    "  sub s (.d(a ^ b), .q(y));\nendmodule\n"
)


def _check(repo: Path) -> tuple[int, dict[str, object]]:
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    return r.returncode, json.loads(r.stdout)


def _findings(out: dict[str, object]) -> list[str]:
    rows = out["modules"]
    assert isinstance(rows, list)
    return [f for m in rows for f in m["findings"]]


def _library_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {
        "top/top.v": TOP,
        "lib/sub.v": SUB.format("+"),
        "lib/sub_old.sv": SUB.format("-"),
        "design.f": "-y lib\n+libext+.v+.sv\ntop/top.v\n",
        "rtlopt.toml": '[project]\nfilelists = ["design.f"]\n[check]\noptimization_only = ["*"]\n',
    }
    return committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")


@pytest.mark.parametrize(
    ("old", "new", "fails"),
    [
        # the finding: lib/sub.sv now beside lib/sub.v, another text
        ("lib/sub_old.sv", "lib/sub.sv", True),
        # the control: the definition the build reads renamed to another suffix, unchanged
        ("lib/sub.v", "lib/sub.sv", False),
    ],
)
def test_a_file_moved_unchanged_to_another_library_suffix_in_the_same_folder_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, fails: bool
) -> None:
    repo = _library_repo(tmp_path, monkeypatch)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "mv", old, new], check=True)
    code, out = _check(repo)
    assert (code == 1 and not out["ok"]) is fails, out
    if fails:
        assert any("lib/sub.sv" in f and "module sub" in f for f in _findings(out)), out


def _scan_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {
        "rtl/top.v": TOP,
        "rtl/sub.v": SUB.format("+"),
        "rtl/unused.v": "module unused (input a, output y);\n  assign y = a;\nendmodule\n",
        "legacy/sub.v": SUB.format("-"),
        "rtlopt.toml": '[check]\noptimization_only = ["*"]\n',
    }
    return committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")


@pytest.mark.parametrize(
    ("removed", "fails"),
    [
        # the finding: the definition the scan prefers (the user's folder) deleted
        ("rtl/sub.v", True),
        # the controls: the other definition (the scan reads rtl/sub.v before and after), and
        # a module nothing instantiates
        ("legacy/sub.v", False),
        ("rtl/unused.v", False),
    ],
)
def test_deleting_the_definition_the_scan_reads_when_another_file_defines_it_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, removed: str, fails: bool
) -> None:
    repo = _scan_repo(tmp_path, monkeypatch)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "rm", "-q", removed], check=True)
    code, out = _check(repo)
    assert (code == 1 and not out["ok"]) is fails, out
    if fails:
        [finding] = _findings(out)
        assert "legacy/sub.v" in finding and "from rtl/sub.v before" in finding, finding
        assert "rtl/top.v:2" in finding, finding


def test_a_new_module_in_a_new_file_and_its_first_user_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control for names the base does not define: a new module (nobody defines it
    elsewhere) instantiated by a new file is no swap."""
    repo = _scan_repo(tmp_path, monkeypatch)
    (repo / "rtl" / "inv.v").write_text(
        "module inv (input [3:0] d, output [3:0] q);\n  assign q = ~d;\nendmodule\n"
    )
    (repo / "rtl" / "top2.v").write_text(
        "module top2 (input [3:0] a, output [3:0] y);\n  inv i (.d(a), .q(y));\nendmodule\n"
    )
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "rtl"], check=True)
    code, out = _check(repo)
    assert code == 0 and out["ok"], out
