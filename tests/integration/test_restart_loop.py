"""ACE-RTL's restart on stagnation through the product's run loop: the scripted policy (its
candidates from files) and the real evaluator (iverilog, Yosys, OpenSTA) on the bundled priority
encoder. A run whose rollouts keep failing the same way restarts from the reference at the
configured step, with every strategy, also across a pause and resume; a run that improves, or
whose errors change, does not."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from rtlopt.config import (
    Config,
    EvalConfig,
    FlowConfig,
    PolicyConfig,
    ReflectConfig,
    RunConfig,
    SearchConfig,
)
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.pdk import resolve_pdk
from rtlopt.policy import Completion, Prompt
from rtlopt.policy._scripted import ScriptedPolicy
from rtlopt.report import generate_report
from rtlopt.run import Optimizer
from rtlopt.rundir import RunDir

pytestmark = pytest.mark.tools

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "priority_encoder"
ALT = EXAMPLE / "alternatives"
WRONG, GROUPED, LOOP, SYNTAX = (
    ALT / "c_wrong_last_group.v",
    ALT / "a_grouped.v",  # beats the reference
    ALT / "b_loop.v",  # beats a_grouped
    ALT / "d_syntax_error.v",
)
NOTE = "Restart: the last 2 steps kept failing the same way (rejected at simulation:"


class RecordingScripted(ScriptedPolicy):
    """The scripted backend, keeping every code prompt (idea prompts aside) per call."""

    def __init__(self, cfg: PolicyConfig) -> None:
        super().__init__(cfg)
        self.calls: list[list[str]] = []

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        users = [p[-1]["content"] for p in prompts]
        if not any("starting with `IDEA:`" in u for u in users):
            self.calls.append(users)
        return super().generate(prompts, n, seed=seed)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("restart-cache")


def _config(
    tmp: Path, cache: Path, files: Sequence[Path], search: SearchConfig, steps: int
) -> Config:
    listing = tmp / "candidates.txt"
    listing.write_text("".join(f"{p}\n" for p in files))
    return Config(
        flow=FlowConfig(pdk="nangate45", metric="adp", power=False),
        eval=EvalConfig(workers=1, cache=True, cache_dir=str(cache)),
        search=search,
        run=RunConfig(steps=steps, rollouts=2, seed=7),
        policy=PolicyConfig(backend="scripted", scripted_path=str(listing)),
        reflect=ReflectConfig(restart_after=2),
    )


def _run(
    tmp: Path, cfg: Config, run_dir: Path, resume: bool = False, stop_after: int | None = None
) -> tuple[Optimizer, RecordingScripted]:
    repo = tmp / "repo"
    if not repo.exists():
        shutil.copytree(EXAMPLE / "rtl", repo / "rtl")
    design = load_design(repo / "rtl" / "prio_enc.v", "prio_enc", cfg.project)
    policy = RecordingScripted(cfg.policy)
    with Evaluator(design, cfg, tmp / "work", resolve_pdk("nangate45")) as ev:
        opt = Optimizer(design, cfg, ev, policy, run_dir, "spec")
        opt.prepare(run_dir.name, resume=resume)
        opt.run(stop_after=stop_after)
    return opt, policy


def _column(run_dir: Path, key: str) -> list[object]:
    return [r[key] for r in RunDir(run_dir).read_steps()]


def _is_root(prompt: str) -> bool:
    return "## Previous Attempt" not in prompt


@pytest.mark.parametrize(
    "search",
    [
        SearchConfig(sampler="puct", parents=1, admit_invalid=True),
        SearchConfig(sampler="greedy", parents=1, admit_invalid=True),
        SearchConfig(sampler="igr", parents=1, igr_ideas=1, igr_steps=20),
        SearchConfig(sampler="mcts", parents=1, mcts_children=2),
    ],
    ids=["puct", "greedy", "igr", "mcts"],
)
def test_scripted_run_with_one_persisting_error_restarts_every_two_steps(
    tmp_path: Path, cache: Path, search: SearchConfig
) -> None:
    cfg = _config(tmp_path, cache, [WRONG], search, steps=5)
    run_dir = tmp_path / "run"
    opt, policy = _run(tmp_path, cfg, run_dir)
    # the wrong variant fails simulation on every rollout: restarts at steps 3 and 5
    assert _column(run_dir, "restart") == [False, False, True, False, True]
    assert _column(run_dir, "stagnant") == [1, 2, 1, 2, 1]
    assert opt.coordinator.restarts == [3, 5]
    assert len(policy.calls) == 5
    for step, prompts in enumerate(policy.calls, 1):
        restart = step in (3, 5)
        # a restart's prompts all start from the reference and name the persisting error
        assert all(_is_root(p) for p in prompts) or not restart, step
        assert all((NOTE in p) == restart for p in prompts), step
    # between restarts the strategy continued its own trajectory (the failed design)
    if search.sampler != "puct":  # PUCT may also choose the root
        assert not _is_root(policy.calls[1][0]) and not _is_root(policy.calls[3][0])
    # the restart's children hang under the root
    if search.sampler in ("igr", "mcts"):
        nodes = json.loads((run_dir / "search.json").read_text())["nodes"]
        at = [n for n in nodes if n["step"] == 3]
        assert at and all(n["parent_id"] == 0 for n in at)
        later = [n for n in nodes if n["step"] == 4]
        assert later and all(n["parent_id"] in {m["id"] for m in at} for n in later)


def test_scripted_run_that_improves_or_changes_its_error_never_restarts(
    tmp_path: Path, cache: Path
) -> None:
    search = SearchConfig(sampler="puct", parents=1)
    # two rollouts a step: [wrong, wrong], [wrong, better], [wrong, wrong], [wrong, better still]
    files = [WRONG, WRONG, WRONG, GROUPED, WRONG, WRONG, WRONG, LOOP]
    improving = tmp_path / "improving"
    improving.mkdir()
    opt, policy = _run(improving, _config(improving, cache, files, search, 4), improving / "run")
    assert _column(improving / "run", "restart") == [False] * 4
    assert _column(improving / "run", "stagnant") == [1, 0, 1, 0]
    assert opt.best is not None and opt.best.r_ppa > 1.0
    assert not any(NOTE[:20] in p for call in policy.calls for p in call)
    # the same error count, but the error changes every step: no error persists
    changing = tmp_path / "changing"
    changing.mkdir()
    files = [WRONG, WRONG, SYNTAX, SYNTAX]
    _run(changing, _config(changing, cache, files, search, 4), changing / "run")
    assert _column(changing / "run", "restart") == [False] * 4
    assert _column(changing / "run", "stagnant") == [1, 1, 1, 1]
    # with restarts disabled, the persisting error restarts nothing
    off = tmp_path / "off"
    off.mkdir()
    cfg = _config(off, cache, [WRONG], search, 3)
    cfg = dataclasses.replace(cfg, reflect=ReflectConfig(restart_after=0))
    _run(off, cfg, off / "run")
    assert _column(off / "run", "restart") == [False] * 3


def test_a_paused_run_restarts_at_the_same_step_after_resume(tmp_path: Path, cache: Path) -> None:
    search = SearchConfig(sampler="mcts", parents=1, mcts_children=2)
    cfg = _config(tmp_path, cache, [WRONG], search, steps=4)
    run_dir = tmp_path / "run"
    _run(tmp_path, cfg, run_dir, stop_after=2)
    state = json.loads((run_dir / "state.json").read_text())
    assert state["step"] == 2 and state["coordinator"]["pending"] is True
    opt, policy = _run(tmp_path, cfg, run_dir, resume=True)
    assert opt.start_step == 3
    assert _column(run_dir, "restart") == [False, False, True, False]
    assert all(_is_root(p) and NOTE in p for p in policy.calls[0])
    assert json.loads((run_dir / "state.json").read_text())["coordinator"]["restarts"] == [3]
    report = generate_report(run_dir).markdown.read_text()
    assert "Restarted from the reference after stagnation at step 3 (" in report
