"""`rtlopt optimize --search NAME --budget N` through the real command line (scripted policy)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import rtlopt

# both strategies search the same design with the same candidates: one user cache for the
# module (the search state, node budget and run folder are each run's own)
pytestmark = [pytest.mark.tools, pytest.mark.usefixtures("module_user_cache")]


@pytest.mark.parametrize("strategy", ["igr", "mcts"])
@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_search_strategy_and_node_budget_from_the_command_line(
    example_repo: Path, strategy: str
) -> None:
    r = rtlopt(
        [
            "optimize",
            "rtl/prio_enc.v",
            "-m",
            "prio_enc",
            "--candidates",
            "alternatives",
            "--pdk",
            "nangate45",
            "--metric",
            "adp",
            "--search",
            strategy,
            "--budget",
            "5",
            "--steps",
            "20",
            "--parents",
            "2",
            "--rollouts",
            "2",
            "--no-branch",
        ],
        example_repo,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    run_dir = Path(re.search(r"run directory: (\S+)", r.stdout).group(1))  # type: ignore[union-attr]
    state = json.loads((run_dir / "search.json").read_text())
    assert state["strategy"] == strategy
    steps = [json.loads(x) for x in (run_dir / "steps.jsonl").read_text().splitlines()]
    assert steps[-1]["nodes"] == 5 and len(steps) < 20  # the budget ended the run
    info = json.loads((run_dir / "run.json").read_text())
    assert info["status"] == "done"
    prov = json.loads((run_dir / "provenance.json").read_text())
    assert prov["search"] == strategy and prov["policy"]["temperature"] == 0.6
    if strategy == "igr":  # the scripted answers hold no ideas: the built-in list fills in
        assert {i["source"] for i in state["ideas"]} == {"built-in"}
    # --reuse stays the old name of the same option
    bad = rtlopt(["optimize", "rtl/prio_enc.v", "--reuse", "nope"], example_repo)
    assert bad.returncode == 2 and "unknown search strategy 'nope'" in bad.stderr + bad.stdout
