"""The cache fingerprint hashes the files the tools read (issue 20, class 7): includes of any
name are found by the preprocessor, not by a name pattern, so a changed include is never
answered with a stale verdict."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig, FormalConfig, SandboxConfig
from rtlopt.evaluate import Evaluator
from rtlopt.evaluate._sources import files_read
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.results import Verdict

pytestmark = [pytest.mark.tools]

TOP = """`include "k.vinc"
`include "width"
module top(input [`W-1:0] a, output [`W-1:0] y);
  assign y = a + `K;
endmodule
"""
# the candidate hard-codes what the includes say today: equivalent while K is 1 and W is 4
CANDIDATE = "module top(input [3:0] a, output [3:0] y);\n  assign y = a + 4'd1;\nendmodule\n"


def _design(root: Path) -> Design:
    (root / "rtl").mkdir(parents=True)
    (root / "inc").mkdir()
    (root / "rtl" / "top.v").write_text(TOP)
    (root / "inc" / "k.vinc").write_text("`define K 1\n")
    (root / "inc" / "width").write_text("`define W 4\n")
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    return load_design(
        root / "rtl" / "top.v", "top", Config().project, include_dirs=(root / "inc",)
    )


def _config(cache: Path) -> Config:
    return dataclasses.replace(
        Config(),
        formal=FormalConfig(timeout_s=60.0),
        sandbox=SandboxConfig(timeout_s=30.0, memory_mb=1024),
        eval=EvalConfig(workers=1, cache=True, cache_dir=str(cache)),
    )


def test_the_files_read_are_the_includes_of_any_name(tmp_path: Path) -> None:
    design = _design(tmp_path / "repo")
    inc = (tmp_path / "repo" / "inc").resolve()
    (inc / "unused.vinc").write_text("`define UNUSED 1\n")
    read = {f.resolve() for f in files_read(design)}
    assert {inc / "k.vinc", inc / "width"} <= read
    assert inc / "unused.vinc" not in read  # present but never included: not read


def test_when_the_preprocessor_fails_every_file_of_the_include_folders_counts(
    tmp_path: Path,
) -> None:
    """A preprocessor that exits with an error lists only what it read before the error: the
    fingerprint then counts every regular file in the include folders, never that list."""
    design = _design(tmp_path / "repo")
    inc = (tmp_path / "repo" / "inc").resolve()
    (inc / "unused.vinc").write_text("`define UNUSED 1\n")
    top = tmp_path / "repo" / "rtl" / "top.v"
    top.write_text('`include "nowhere.vh"\n' + TOP)
    read = {f.resolve() for f in files_read(design)}
    assert {inc / "k.vinc", inc / "width", inc / "unused.vinc"} <= read, read


def test_a_memo_observes_the_files_read(tmp_path: Path) -> None:
    """A cached `rtlopt evaluate` answered from its memo (rtlopt.inputs) holds only while
    every file the preprocessor reports keeps its bytes, and the include folders their names."""
    from rtlopt.evaluate._cache import fingerprint_observations

    design = _design(tmp_path / "repo")
    inc = (tmp_path / "repo" / "inc").resolve()
    observed = fingerprint_observations(
        design, _config(tmp_path / "cache"), None, systemverilog=False
    )
    files = {Path(a).resolve() for k, a in observed if k == "bytes"}
    assert {inc / "k.vinc", inc / "width"} <= files
    assert ("names", str(inc)) in {(k, str(Path(a).resolve())) for k, a in observed}
    assert {a for k, a in observed if k == "tool"} >= {"iverilog", "yosys", "sta"}


@pytest.mark.parametrize("include", ["k.vinc", "width"])
def test_a_changed_include_is_not_served_from_the_cache(tmp_path: Path, include: str) -> None:
    design = _design(tmp_path / "repo")
    cache = tmp_path / "cache"
    with Evaluator(design, _config(cache), tmp_path / "s1") as ev:
        first = ev.evaluate(CANDIDATE)
    assert first.accepted and first.formal is not None, first.reason
    assert first.formal.verdict is Verdict.PROVEN
    with Evaluator(design, _config(cache), tmp_path / "s2") as ev:
        assert ev.evaluate(CANDIDATE).cached  # nothing changed: the stored verdict is served
    path = tmp_path / "repo" / "inc" / include
    path.write_text(path.read_text().replace(" 1\n", " 2\n").replace(" 4\n", " 5\n"))
    changed = load_design(
        design.target.file, "top", Config().project, include_dirs=design.include_dirs
    )
    with Evaluator(changed, _config(cache), tmp_path / "s3") as ev:
        again = ev.evaluate(CANDIDATE)
    assert not again.cached and not again.accepted, again.reason
