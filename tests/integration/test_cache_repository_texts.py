"""A stored verdict depends on every text the repository rules read, not only on the files the
tools read (red team 38, F5): after the repository gains a ``probe.txt`` that a Makefile
compiles and that reaches into the target by a hierarchical name (``tb.t.u.s``), the same
candidate is refused with the same cache, by the evaluator and by the cached ``rtlopt
evaluate`` (its memo); and the accept of one repository is never served to another that holds
the same sources but such a probe."""

from __future__ import annotations

import dataclasses
import subprocess
import time
from pathlib import Path

import pytest

from rtlopt.cli._fast import answer_evaluate, note_command
from rtlopt.config import Config, EvalConfig, FormalConfig, SandboxConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from tests.cli_run import run_main

pytestmark = [pytest.mark.tools]

M = """module m(input [7:0] a, output [7:0] y);
  wire [7:0] s = a + 8'd1;
  assign y = s;
endmodule
"""
TOP = "module top(input [7:0] a, output [7:0] y);\n  m u(.a(a), .y(y));\nendmodule\n"
TB = """module tb; reg [7:0] a = 8'h10; wire [7:0] y;
  top t(.a(a), .y(y));
  initial begin #1 $display("y=%h", y); $finish; end
endmodule
"""
# equivalent at the ports; its s no longer holds a + 1, which the probe prints
CANDIDATE = """module m(input [7:0] a, output [7:0] y);
  wire [7:0] s = a;
  assign y = a + 8'd1;
endmodule
"""
PROBE = 'module probe; initial #1 $display("s=%h", tb.t.u.s); endmodule\n'
#: a probe that reads a port of the top only (no rule minds it)
HARMLESS = PROBE.replace("tb.t.u.s", "tb.t.y")
MAKE = ".PHONY: sim\nsim:\n\tiverilog -g2012 -o sim.vvp tb.v top.v m.v{} && vvp -n sim.vvp\n"


def _repo(root: Path, probe: str | None = None) -> Path:
    root.mkdir(parents=True)
    for name, text in (("m.v", M), ("top.v", TOP), ("tb.v", TB)):
        (root / name).write_text(text)
    (root / "Makefile").write_text(MAKE.format(""))
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    if probe is not None:
        _add_probe(root, probe)
    return root


def _add_probe(root: Path, text: str = PROBE) -> None:
    (root / "probe.txt").write_text(text)
    (root / "Makefile").write_text(MAKE.format(" probe.txt"))


def _design(root: Path) -> Design:
    return load_design(root / "m.v", "m", Config().project)


def _config(cache: Path) -> Config:
    return dataclasses.replace(
        Config(),
        formal=FormalConfig(timeout_s=60.0),
        sandbox=SandboxConfig(timeout_s=30.0, memory_mb=1024),
        eval=EvalConfig(workers=1, cache=True, cache_dir=str(cache)),
    )


@pytest.mark.parametrize("where", ["probe added", "probe changed", "another repository"])
def test_a_reaching_probe_is_not_answered_from_the_cache(tmp_path: Path, where: str) -> None:
    cache = tmp_path / "cache"
    first = _repo(tmp_path / "repo", HARMLESS if where == "probe changed" else None)
    with Evaluator(_design(first), _config(cache), tmp_path / "s1") as ev:
        accepted = ev.evaluate(CANDIDATE)
    assert accepted.accepted, accepted.reason
    with Evaluator(_design(first), _config(cache), tmp_path / "s2") as ev:
        assert ev.evaluate(CANDIDATE).cached  # nothing changed: the stored verdict is served
    second = first
    if where == "another repository":  # the same sources, byte for byte, and the probe
        second = _repo(tmp_path / "other", PROBE)
    else:
        _add_probe(first)
    with Evaluator(_design(second), _config(cache), tmp_path / "s3") as ev:
        again = ev.evaluate(CANDIDATE)
    assert not again.cached and not again.accepted, again.reason
    assert "probe.txt" in again.reason, again.reason


def _main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``rtlopt ARGV`` in this process (its environment and signal handlers restored)."""
    return run_main(argv, capsys)


def _hit(argv: list[str]) -> bool:
    note_command(argv)
    return answer_evaluate(argv) is not None


def test_the_cached_command_sees_the_probe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast answer of ``rtlopt evaluate`` (a memo of its inputs) holds only while every
    file of the repository is as it was: here a text no tool reads, whose folder keeps its
    names."""
    repo = _repo(tmp_path / "repo", HARMLESS)
    (tmp_path / "cand.v").write_text(CANDIDATE)
    monkeypatch.chdir(tmp_path)
    time.sleep(0.1)  # a memo is kept only for inputs that did not change just before
    argv = ["evaluate", "repo/m.v", "--candidate", "cand.v", "--pdk", "nangate45"]
    code, out = _main(argv, capsys)
    assert code == 0 and "ACCEPTED" in out, out
    assert _hit(argv)  # the same command again: answered from its memo
    capsys.readouterr()
    _add_probe(repo)
    assert not _hit(argv)
    code, out = _main(argv, capsys)
    assert code == 1 and "REJECTED" in out and "probe.txt" in out, out


def test_the_fingerprint_holds_every_file_of_an_include_folder(tmp_path: Path) -> None:
    """A header no source includes, in an include folder outside the repository, is text the
    rules read too (evaluate/_repo_texts.py): it changes the fingerprint and the memo's inputs."""
    from rtlopt.evaluate._cache import fingerprint_observations, make_fingerprint

    root = _repo(tmp_path / "repo")
    inc = tmp_path / "inc"
    inc.mkdir()
    design = load_design(root / "m.v", "m", Config().project, include_dirs=(inc,))
    config = _config(tmp_path / "cache")
    before = make_fingerprint(design, config, None, systemverilog=False)
    (inc / "probe.vh").write_text(PROBE)
    assert make_fingerprint(design, config, None, systemverilog=False) != before
    observed = fingerprint_observations(design, config, None, systemverilog=False)
    assert ("bytes", str(inc / "probe.vh")) in observed
    assert ("repository", str(design.root)) in observed
