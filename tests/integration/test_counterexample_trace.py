"""Refutations as waveforms: every counterexample is replayed in iverilog, kept as a VCD that
pywellen reads, and the replay script reproduces the mismatch (real iverilog, yosys, ABC)."""

from __future__ import annotations

import dataclasses
import logging
import re
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import Config, HarnessConfig, SandboxConfig
from rtlopt.evaluate import Evaluator, load_replay
from rtlopt.evaluate._trace import STEP_NS, Trace, replay
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult, Stage, Status

pywellen = pytest.importorskip("pywellen")

pytestmark = pytest.mark.tools

ACC = """module acc(input clk, input rst, input [3:0] a, input en, output reg [7:0] y);
  always @(posedge clk) if (rst) y <= 0; else if (en) y <= {body};
endmodule
"""
C16 = """module c16(input [15:0] a, input [15:0] b, output [15:0] y);
  assign y = {body};
endmodule
"""
GOOD_ACC = "y + a"
GOOD_C16 = "a ^ b"
# found by simulation (biased or random stimulus)
SIM_ACC = "(y == 8'd13) ? 8'd0 : y + a"
SIM_C16 = "(a[3:0] == 4'h5) ? 16'h0 : a ^ b"
# too rare for 20 random vectors: only the formal check finds them
FORMAL_ACC = "(y == 8'd200 && a == 4'd9) ? 8'd1 : y + a"
FORMAL_C16 = "((a + b == 16'hBEEF) && (a[3:0] == 4'h3)) ? (a ^ b ^ 16'h0100) : a ^ b"


def _evaluate(tmp: Path, template: str, good: str, bad: str, name: str, vectors: int) -> EvalResult:
    src = tmp / f"{name}.v"
    src.write_text(template.format(body=good))
    cfg = dataclasses.replace(
        Config(),
        harness=HarnessConfig(sim_timeout_s=20.0, random_vectors=vectors),
        sandbox=SandboxConfig(timeout_s=60.0, memory_mb=2048),
    )
    design = load_design(src, name, cfg.project)
    with Evaluator(design, cfg, tmp / "scratch", pdk=None) as ev:
        return ev.evaluate(template.format(body=bad))


def _wave(vcd: str, name: str, t: int) -> object:
    wv = pywellen.Waveform(vcd)
    var = next(v for v in wv.all_vars() if v.full_name == name)
    return var.signal.value_at(t)


def _bits(v: object, width: int) -> str:
    return v if isinstance(v, str) else format(int(v), f"0{width}b")  # type: ignore[call-overload]


def _check_vcd(res: EvalResult, t: int, out: str, width: int) -> None:
    """At time ``t`` the VCD marks the mismatch, the reference's and the candidate's values
    differ, and the diff signal has a 1 exactly where they differ."""
    vcd = res.logs["trace_vcd"]
    assert Path(vcd).is_file()
    ref = _bits(_wave(vcd, f"rtlopt.reference.{out}", t), width)
    cand = _bits(_wave(vcd, f"rtlopt.candidate.{out}", t), width)
    diff = _bits(_wave(vcd, f"rtlopt.diff.{out}", t), width)
    assert ref != cand, (ref, cand)
    assert diff == "".join("1" if a != b else "0" for a, b in zip(ref, cand, strict=True))
    assert "1" in diff


def _replays(res: EvalResult) -> str:
    """Run the kept replay script as an engineer would; return its output."""
    script = Path(res.logs["trace_replay"])
    r = subprocess.run(["sh", str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r" P \d+ \d+ bad:\w+=1 ", r.stdout), r.stdout[-2000:]
    return r.stdout


def test_simulation_mismatch_sequential_trace(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, ACC, GOOD_ACC, SIM_ACC, "acc", 2000)
    assert res.status is Status.INVALID and res.stage is Stage.SIMULATION, res.reason
    vec = int(re.search(r"vector (\d+)", res.reason).group(1))  # type: ignore[union-attr]
    rep = load_replay(Path(res.logs["trace"]))
    assert rep.reproduced and not rep.note
    s = rep.samples[rep.first]
    assert s.step == vec and s.bad == ("y",)
    t = STEP_NS * vec + (STEP_NS // 2) * s.phase
    assert _wave(res.logs["trace_vcd"], "rtlopt.mismatch", t) == 1
    assert _wave(res.logs["trace_vcd"], "rtlopt.step", t) == vec
    _check_vcd(res, t, "y", 8)
    if t > 0:  # the marker is set at the first failing sample only
        assert _wave(res.logs["trace_vcd"], "rtlopt.mismatch", t - STEP_NS // 2) == 0
    _replays(res)


def test_simulation_mismatch_combinational_trace(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, C16, GOOD_C16, SIM_C16, "c16", 200)
    assert res.status is Status.INVALID and res.stage is Stage.SIMULATION, res.reason
    rep = load_replay(Path(res.logs["trace"]))
    assert rep.reproduced and len(rep.samples) == 1
    assert rep.samples[0].inputs["a"].endswith("0101")
    assert _wave(res.logs["trace_vcd"], "rtlopt.mismatch", 0) == 1
    _check_vcd(res, 0, "y", 16)
    _replays(res)


def test_formal_counterexample_sequential_trace(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, ACC, GOOD_ACC, FORMAL_ACC, "acc", 20)
    assert res.stage is Stage.FORMAL and res.formal is not None, res.reason
    cycle = int(res.formal.counterexample["cycle"])
    rep = load_replay(Path(res.logs["trace"]))
    assert rep.reproduced and rep.claimed_step == cycle and not rep.note, rep.note
    # the engine's step is the sample before the edge of that cycle
    _check_vcd(res, STEP_NS * (cycle - rep.first_index), "y", 8)
    exp = res.formal.counterexample["expected y"]
    t = STEP_NS * (cycle - rep.first_index)
    assert _bits(_wave(res.logs["trace_vcd"], "rtlopt.reference.y", t), 8) == exp
    got = res.formal.counterexample["got y"]
    assert _bits(_wave(res.logs["trace_vcd"], "rtlopt.candidate.y", t), 8) == got
    assert "counterexample replay" not in res.reason
    _replays(res)


def test_formal_counterexample_combinational_trace(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, C16, GOOD_C16, FORMAL_C16, "c16", 20)
    assert res.stage is Stage.FORMAL and res.formal is not None, res.reason
    cex = res.formal.counterexample
    rep = load_replay(Path(res.logs["trace"]))
    assert rep.reproduced
    assert rep.samples[0].inputs == {"a": cex["a"], "b": cex["b"]}
    assert rep.samples[0].candidate["y"] == cex["got y"]
    _check_vcd(res, 0, "y", 16)
    out = _replays(res)
    assert cex["got y"] in out


def test_a_counterexample_that_does_not_reproduce_is_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Inputs that do not trigger the difference: the replay says so, it does not pass them
    off as a counterexample. The result carries the note (``rtlopt check`` prints it under
    its module), so the replay does not also warn on stderr, where it became the first
    line of a CI log above the check's own first line."""
    src = tmp_path / "c16.v"
    src.write_text(C16.format(body=GOOD_C16))
    cand = tmp_path / "cand.v"
    cand.write_text(C16.format(body=FORMAL_C16))
    design = load_design(src, "c16", Config().project)
    from rtlopt.harness import reference_text

    ref = tmp_path / "reference.v"
    ref.write_text(reference_text(design))
    trace = Trace("formal", False, ({"a": "0" * 16, "b": "1" * 16},), 0, "y")
    with caplog.at_level(logging.INFO):
        rep = replay(trace, design.target, [cand], ref, tmp_path / "trace", scratch=tmp_path)
    assert not rep.reproduced and rep.first == -1
    assert "does not reproduce" in rep.note
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert "does not reproduce" in caplog.text  # still logged, at INFO
    assert _wave(rep.vcd, "rtlopt.mismatch", 0) == 0


def test_trace_png_renders_the_waveform(tmp_path: Path) -> None:
    """scripts/trace_png.py (the docs' screenshot) draws a kept VCD headless."""
    import importlib.util

    pytest.importorskip("matplotlib")
    res = _evaluate(tmp_path, ACC, GOOD_ACC, SIM_ACC, "acc", 2000)
    script = Path(__file__).resolve().parents[2] / "scripts" / "trace_png.py"
    spec = importlib.util.spec_from_file_location("trace_png", script)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "wave.png"
    mod.render(Path(res.logs["trace_vcd"]), out, 6)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5000


def test_a_cached_refutation_keeps_its_waveform(tmp_path: Path) -> None:
    """The disk cache outlives the scratch folder: a hit still names a readable trace."""
    import shutil

    # the repository apart from the cache and scratch folders (the fingerprint holds the
    # bytes of every file of the repository, which the rules read)
    (tmp_path / "repo").mkdir()
    src = tmp_path / "repo" / "c16.v"
    src.write_text(C16.format(body=GOOD_C16))
    base = Config()
    cfg = dataclasses.replace(
        base,
        harness=HarnessConfig(sim_timeout_s=20.0, random_vectors=200),
        eval=dataclasses.replace(base.eval, cache=True, cache_dir=str(tmp_path / "cache")),
    )
    design = load_design(src, "c16", cfg.project)
    bad = C16.format(body=SIM_C16)
    with Evaluator(design, cfg, tmp_path / "s1", pdk=None) as ev:
        first = ev.evaluate(bad)
    shutil.rmtree(tmp_path / "s1")
    with Evaluator(design, cfg, tmp_path / "s2", pdk=None) as ev:
        again = ev.evaluate(bad)
    assert again.cached and again.stage is Stage.SIMULATION
    assert Path(again.logs["trace_vcd"]).is_file()
    assert Path(again.logs["trace_vcd"]).is_relative_to(tmp_path / "cache")
    assert load_replay(Path(again.logs["trace"])).reproduced
    assert first.reason == again.reason


def test_port_names_that_look_like_testbench_names(tmp_path: Path) -> None:
    """Ports named like the replay's own signals (``ref_y``, ``cand_y``, ``k_``) still replay."""
    tpl = """module odd(input clk, input [3:0] ref_y, input [3:0] k_, output reg [3:0] y,
  output [3:0] cand_y);
  always @(posedge clk) y <= {body};
  assign cand_y = ref_y & k_;
endmodule
"""
    res = _evaluate(tmp_path, tpl, "ref_y + k_", "(ref_y == 4'd3) ? 4'd0 : ref_y + k_", "odd", 500)
    assert res.stage in (Stage.SIMULATION, Stage.FORMAL), res.reason
    rep = load_replay(Path(res.logs["trace"]))
    assert rep.reproduced and not rep.note, rep.note
    assert set(rep.inputs) == {"ref_y", "k_"} and set(rep.outputs) == {"y", "cand_y"}
    _replays(res)


DUAL = """module dual(input clk, input rst, input [7:0] a, output [15:0] y);
  reg [7:0] p, n;
  always @(posedge clk) if (rst) p <= 0; else p <= p + a;
  always @(negedge clk) if (rst) n <= 0; else n <= {body};
  assign y = {{p, n}};
endmodule
"""


@pytest.mark.slow  # the clk2fflogic proof attempt before the counterexample: about 13 s
def test_formal_counterexample_with_the_clock_as_data(tmp_path: Path) -> None:
    """Both clock edges: Yosys models the clock as an input (clk2fflogic) and numbers steps from
    1; the replay drives the clock from the trace and reproduces at the named step."""
    bad = "(p == 8'd201 && a == (p ^ 8'h5a)) ? 8'd0 : p ^ a"
    res = _evaluate(tmp_path, DUAL, "p ^ a", bad, "dual", 5)
    assert res.stage is Stage.FORMAL and res.formal is not None, res.reason
    cex = res.formal.counterexample
    assert any(k.startswith("clk@") for k in cex), cex
    rep = load_replay(Path(res.logs["trace"]))
    assert rep.reproduced and not rep.note, rep.note
    s = rep.samples[rep.first]
    assert s.step + rep.first_index == int(cex["cycle"])
    assert s.candidate["y"] == cex["got y"] and s.reference["y"] == cex["expected y"]
    _check_vcd(res, STEP_NS * s.step, "y", 16)
    _replays(res)
