"""A cache hit does no work (issue 31): the fingerprint comes from bytes, so a stored verdict
is served before any view, testbench or stimulus is built; and port order is not a design
change: a rewrite listing the same ports in another order is evaluated (and written back) in
the reference's order, while a real interface change is still refused."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig, FormalConfig, HarnessConfig, SandboxConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.results import Stage, Status
from rtlopt.writeback._merge import place_candidate

pytestmark = [pytest.mark.tools]

CMP = """module cmp (
  input  [3:0] a, b, // operands
  input        en,
  output       gt,
  output       eq
);
  assign gt = en & (a > b);
  assign eq = en & (a == b);
endmodule
"""
# an expert's rewrite: the same ports, outputs first, one declaration each
REORDERED = """module cmp (
  output       eq, // equal
  output       gt,
  input        en,
  input  [3:0] b,
  input  [3:0] a
);
  wire [4:0] d = {1'b0, b} - {1'b0, a};
  assign gt = en & d[4];
  assign eq = en & (a == b);
endmodule
"""
NON_ANSI = """module cmp (eq, gt, en, b, a);
  input [3:0] a, b;
  input en;
  output gt, eq;
  assign gt = en & (a > b);
  assign eq = en & (a == b);
endmodule
"""
# a real interface change: b is 5 bits wide
WIDER = REORDERED.replace("input  [3:0] b,", "input  [4:0] b,")


def _design(root: Path) -> Design:
    (root / "rtl").mkdir(parents=True)
    (root / "rtl" / "cmp.v").write_text(CMP)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    return load_design(root / "rtl" / "cmp.v", "cmp", Config().project)


def _config(cache: Path, seed: int = 1) -> Config:
    return dataclasses.replace(
        Config(),
        formal=FormalConfig(timeout_s=60.0),
        harness=HarnessConfig(seed=seed),
        sandbox=SandboxConfig(timeout_s=30.0, memory_mb=1024),
        eval=EvalConfig(workers=1, cache=True, cache_dir=str(cache)),
    )


def test_a_cache_hit_builds_no_testbench(tmp_path: Path) -> None:
    design = _design(tmp_path / "repo")
    cache = tmp_path / "cache"
    with Evaluator(design, _config(cache), tmp_path / "s1") as ev:
        first = ev.evaluate(CMP.replace("a > b", "b < a"))
    assert first.accepted, first.reason
    assert (tmp_path / "s1" / "shared" / "rtlopt_tb.v").is_file()
    with Evaluator(design, _config(cache), tmp_path / "s2") as ev:
        again = ev.evaluate(CMP.replace("a > b", "b < a"))
        assert again.cached and again.accepted
    # served from bytes: no testbench, stimulus or shared file was made for it
    assert not (tmp_path / "s2" / "shared" / "rtlopt_tb.v").exists()
    assert not any((tmp_path / "s2").glob("*/candidate.v"))


def test_the_fingerprint_still_covers_the_harness_and_the_target(tmp_path: Path) -> None:
    design = _design(tmp_path / "repo")
    cache = tmp_path / "cache"
    with Evaluator(design, _config(cache), tmp_path / "s1") as ev:
        base = ev.fingerprint
    with Evaluator(design, _config(cache, seed=2), tmp_path / "s2") as ev:
        assert ev.fingerprint != base  # another stimulus seed
    (tmp_path / "repo" / "rtl" / "cmp.v").write_text(CMP.replace("a == b", "b == a"))
    changed = load_design(design.target.file, "cmp", Config().project)
    with Evaluator(changed, _config(cache), tmp_path / "s3") as ev:
        assert ev.fingerprint != base  # another reference


@pytest.mark.parametrize("text", [REORDERED, NON_ANSI], ids=["ansi", "non_ansi"])
def test_ports_in_another_order_are_accepted(tmp_path: Path, text: str) -> None:
    design = _design(tmp_path / "repo")
    with Evaluator(design, _config(tmp_path / "cache"), tmp_path / "s") as ev:
        res = ev.evaluate(text)
    assert res.accepted, res.reason


def test_a_real_interface_change_is_still_refused(tmp_path: Path) -> None:
    design = _design(tmp_path / "repo")
    with Evaluator(design, _config(tmp_path / "cache"), tmp_path / "s") as ev:
        res = ev.evaluate(WIDER)
    assert res.status is Status.INVALID and res.stage is Stage.INTERFACE, res.reason
    assert "'b'" in res.reason


def test_the_written_back_module_has_the_reference_order(tmp_path: Path) -> None:
    design = _design(tmp_path / "repo")
    placed = place_candidate(REORDERED, "cmp", design.modules, tmp_path / "repo")
    header = placed.target_text[: placed.target_text.index(");")]
    names = [w for w in ("a", "b", "en", "gt", "eq") if f" {w}" in header]
    order = sorted(names, key=lambda w: header.index(f" {w}"))
    assert order == ["a", "b", "en", "gt", "eq"], header
    assert "// equal" in header  # a port's comment moves with it
    assert "wire [4:0] d" in placed.target_text  # the body is the rewrite's
