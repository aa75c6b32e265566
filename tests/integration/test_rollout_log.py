"""Every rollout is kept in the run directory and the report counts why they failed (issue 25,
finding 8: a CPU run that found nothing kept neither its rollouts nor why they failed). Real
tools on the bundled priority encoder; the policy is the recording fake of
test_loop_advantages (fixed answers: two good, one wrong, one syntax error, one prose)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig, FlowConfig, RunConfig, SearchConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.pdk import resolve_pdk
from rtlopt.report import generate_report
from rtlopt.run import Optimizer
from tests.integration.test_loop_advantages import ALTS, EXAMPLE, NO_MODULE, RecordingFakePolicy

pytestmark = pytest.mark.tools


def test_every_rollout_is_kept_and_the_report_counts_the_reasons(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE / "rtl", repo / "rtl")
    cfg = Config(
        flow=FlowConfig(pdk="nangate45", metric="adp"),
        eval=EvalConfig(workers=1, cache=False),
        search=SearchConfig(parents=1),
        run=RunConfig(steps=2, rollouts=5, seed=3),
    )
    design = load_design(repo / "rtl" / "prio_enc.v", "prio_enc", cfg.project)
    texts = [p.read_text() for p in ALTS] + [NO_MODULE]
    policy = RecordingFakePolicy(texts)
    with Evaluator(design, cfg, tmp_path / "work", resolve_pdk("nangate45")) as ev:
        opt = Optimizer(design, cfg, ev, policy, tmp_path / "run", "spec")
        opt.prepare("test-run", resume=False)
        opt.run()
    rows = [json.loads(x) for x in (tmp_path / "run" / "rollouts.jsonl").read_text().splitlines()]
    assert len(rows) == 10  # 2 steps x 1 prompt x 5 rollouts, duplicates and prose included
    sent = [t for g in policy.groups for grp in g for t in grp]
    assert [r["text"] for r in rows] == sent
    prose = [r for r in rows if r["text"] == NO_MODULE]
    assert prose and all(r["status"] != "ok" and r["reason"] for r in prose)
    assert {r["stage"] for r in rows if r["status"] != "ok"} >= {"screen"}
    paths = generate_report(tmp_path / "run")
    md = paths.markdown.read_text()
    data = json.loads(paths.json.read_text())
    ro = data["rollouts"]
    assert ro["count"] == 10 and sum(ro["outcomes"].values()) == 10
    assert sum(r["count"] for r in ro["reasons"]) == sum(1 for r in rows if r["status"] != "ok")
    assert "## Rollouts" in md and "Most common reasons" in md
