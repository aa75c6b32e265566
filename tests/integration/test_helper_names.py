"""What ``optimize`` writes back is what was proven (held-out round 69): a candidate may define
the target and new helper modules only. Redefining the ``top`` of the target's own file (3a),
or a shared ``sub`` that another file instantiates only under ```ifdef FEATURE_X`` (3b), is
refused by ``evaluate`` and ``optimize`` alike, and no branch is written; a helper of a new
name is written next to the target, every other module unchanged (here a pure-wire rewrite:
its PPA of 0 is reported and plotted)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt
from tests.unit.harness.test_screen_repository_modules import (
    OTHER_UNDER_IFDEF,
    REDEFINES_SUB,
    REDEFINES_TOP,
    SUB_AND_TGT,
    TOP_AND_TGT,
)

pytestmark = [pytest.mark.tools, pytest.mark.slow]

# the target rewritten through a helper of a new name
NEW_HELPER = """\
module tgt(input [7:0] a, input [7:0] b, output [7:0] y);
  flip4 f(.a(a), .y(y));
endmodule

module flip4(input [7:0] a, output [7:0] y);
  assign y = a ^ 8'h0f;
endmodule
"""

# the same, for a target that is a wire: the rewrite has no cells, its PPA is 0
WIRE_HELPER = NEW_HELPER.replace("flip4", "pass8").replace("a ^ 8'h0f", "a")


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    git(repo, "init", "-q", "-b", "main", ".")
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return repo


def _optimize(tmp_path: Path, repo: Path, cand: str) -> tuple[int, str]:
    alts = tmp_path / "alternatives"
    shutil.rmtree(alts, ignore_errors=True)
    alts.mkdir()
    (alts / "c1.v").write_text(cand)
    args = ["optimize", "rtl/design.v", "--module", "tgt", "--candidates", str(alts)]
    r = rtlopt([*args, "--pdk", "sky130hd", "--steps", "1"], repo)
    assert "internal error" not in r.stdout + r.stderr, r.stdout + r.stderr[-3000:]
    return r.returncode, r.stdout


def _evaluate(repo: Path, cand: str) -> dict:
    (repo.parent / "cand.v").write_text(cand)
    args = [
        "evaluate",
        "rtl/design.v",
        "--module",
        "tgt",
        "--candidate",
        str(repo.parent / "cand.v"),
    ]
    r = rtlopt([*args, "--json"], repo)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return dict(json.loads(r.stdout)["candidate"])


@pytest.mark.parametrize(
    "files, cand, name",
    [
        ({"rtl/design.v": TOP_AND_TGT}, REDEFINES_TOP, "top"),
        ({"rtl/design.v": SUB_AND_TGT, "rtl/other.v": OTHER_UNDER_IFDEF}, REDEFINES_SUB, "sub"),
    ],
    ids=["3a-own-file-top", "3b-sub-used-under-ifdef"],
)
def test_a_repository_module_in_a_candidate_is_refused_and_never_written(
    tmp_path: Path, files: dict[str, str], cand: str, name: str
) -> None:
    repo = _repo(tmp_path, files)
    res = _evaluate(repo, cand)
    assert not res["accepted"] and res["stage"] == "screen", res
    assert f"module {name} is already a module of the repository (rtl/design.v)" in res["reason"]
    code, out = _optimize(tmp_path, repo, cand)
    assert code == 1, out
    assert "rtlopt/" not in git(repo, "branch", "--list"), out


def test_a_helper_of_a_new_name_is_written_next_to_the_target(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"rtl/design.v": TOP_AND_TGT})
    res = _evaluate(repo, NEW_HELPER)
    assert res["accepted"], res["reason"]
    code, out = _optimize(tmp_path, repo, NEW_HELPER)
    assert code == 0, out
    [branch] = [b.strip(" *") for b in git(repo, "branch", "--list", "rtlopt/*").splitlines()]
    assert git(repo, "diff", "--name-only", "main", branch).split() == ["rtl/design.v"]
    text = git(repo, "show", f"{branch}:rtl/design.v")
    top = TOP_AND_TGT[: TOP_AND_TGT.index("\n\n") + 2]
    assert text == top + NEW_HELPER, text  # top unchanged, the helper beside the target


def test_a_pure_wire_winner_is_reported_without_a_crash(tmp_path: Path) -> None:
    design = TOP_AND_TGT.replace(" ^ 8'h0f", "")  # y = (a + b) - b: a wire
    repo = _repo(tmp_path, {"rtl/design.v": design})
    _, out = _optimize(tmp_path, repo, WIRE_HELPER)  # no internal error (ZeroDivisionError)
    assert "PPA 0 (-100.0% vs reference), formal: proven" in out, out
    run_dir = Path(re.search(r"run directory: (\S+)", out).group(1))  # type: ignore[union-attr]
    assert (run_dir / "pareto.png").is_file() and (run_dir / "report.md").is_file()
