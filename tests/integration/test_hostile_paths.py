"""Paths never reach a shell: repository folders and run folders holding ``$(...)``, backquotes,
quotes, spaces and line breaks (real Yosys with the long-lived ABC servers, OpenSTA, iverilog).

Every injected command would create a file named ``pwned`` in the shell's working folder (a
scratch folder under the test's temporary folder): the evaluation must work, and no such file
may appear anywhere.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig, FlowConfig, SandboxConfig
from rtlopt.eda._abcserver import _CLIENT, AbcServer
from rtlopt.eda.flow import PpaFlow
from rtlopt.errors import UsageError
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.pdk import resolve_pdk
from rtlopt.results import Status

pytestmark = pytest.mark.tools

BENCH = Path(os.environ.get("RTLOPT_BENCH_PATH", Path(__file__).parents[3] / "shared" / "bench"))
COUNTER = BENCH / "rtllm" / "counter_12" / "verified_counter_12.v"
HOSTILE_NAMES = [
    "r $(touch pwned) x",
    "q`touch pwned`q",
    'a"$(touch pwned)"b',
    "a'$(touch pwned)'b",
    "semi;touch pwned;x",
]
NEWLINE_NAME = "nl\n$(touch pwned)"


def _pwned(root: Path) -> list[Path]:
    return [p for p in root.rglob("*pwned*") if "pwned" in p.name and p.name.endswith("pwned")]


def _pdk() -> object:
    try:
        return resolve_pdk("nangate45")
    except UsageError as exc:
        pytest.skip(f"nangate45 not available: {exc}")


def test_abc_client_script_holds_no_path(tmp_path: Path) -> None:
    """The client Yosys runs is a constant text: the request FIFO is found beside it."""
    server = AbcServer("yosys-abc", None, tmp_path / "srv $(touch pwned)")
    try:
        text = server.client.read_text()
        assert text == _CLIENT and str(tmp_path) not in text
    finally:
        server.close()
    assert not _pwned(tmp_path)


@pytest.mark.parametrize("name", [*HOSTILE_NAMES, NEWLINE_NAME])
def test_flow_in_hostile_folders_runs_nothing(name: str, tmp_path: Path) -> None:
    """Synthesis (second and third design through the long-lived ABC clients) and timing in a
    folder named ``name``, reading the design from a repository folder of the same name."""
    if not COUNTER.is_file():
        pytest.skip(f"benchmark data not found: {COUNTER}")
    repo = tmp_path / name / "rtl"
    repo.mkdir(parents=True)
    src = repo / COUNTER.name
    shutil.copy(COUNTER, src)
    runs = tmp_path / name / "runs"
    with PpaFlow(_pdk(), FlowConfig(persistent=True), SandboxConfig()) as flow:  # type: ignore[arg-type]
        results = [
            flow.measure([src], "verified_counter_12", ["clk"], runs / f"c{i}") for i in range(3)
        ]
        assert flow._abc is not None and flow._abc.jobs >= 2 and flow._abc.fallbacks == 0
    assert all(r.ppa == results[0].ppa for r in results)
    assert results[0].ppa.area_um2 > 0
    assert not _pwned(tmp_path)


@pytest.mark.parametrize("name", [HOSTILE_NAMES[0], HOSTILE_NAMES[2], NEWLINE_NAME])
def test_evaluation_in_hostile_repository_and_runs_folder(name: str, tmp_path: Path) -> None:
    """A whole evaluation (compile, simulation, formal, synthesis, timing) of a repository in a
    hostile folder, with its scratch in another one: accepted, and nothing ran."""
    if not COUNTER.is_file():
        pytest.skip(f"benchmark data not found: {COUNTER}")
    repo = tmp_path / name / "repo"
    repo.mkdir(parents=True)
    src = repo / COUNTER.name
    shutil.copy(COUNTER, src)
    base = Config()
    cfg = dataclasses.replace(
        base,
        flow=dataclasses.replace(base.flow, pdk="nangate45"),
        eval=EvalConfig(workers=1, cache=False),
    )
    design = load_design(src, "verified_counter_12", cfg.project)
    text = src.read_text()
    cut = text.rindex("endmodule")
    with Evaluator(design, cfg, tmp_path / name / "runs $(touch pwned)", _pdk()) as ev:
        assert ev.reference().status is Status.OK
        for i in range(2):
            r = ev.evaluate(text[:cut] + f"// cosmetic {i}\n" + text[cut:])
            assert r.status is Status.OK, r.reason
    assert not _pwned(tmp_path)


def test_optimize_with_a_hostile_runs_dir_in_the_repository_config(tmp_path: Path) -> None:
    """`rtlopt optimize` (scripted policy, real tools) with the repository's rtlopt.toml naming
    a runs_dir with ``$(...)``, backquotes, quotes, spaces and a line break: the run works and
    no command runs."""
    import json
    import subprocess
    import sys

    from tests.e2e.conftest import EXAMPLE, git

    repo = tmp_path / "repo $(touch pwned)"
    shutil.copytree(EXAMPLE, repo)
    runs = "runs $(touch pwned) `touch pwned` \"q\" 'x'\nnl"
    toml = repo / "rtlopt.toml"
    toml.write_text(
        toml.read_text().replace("[flow]", f"[run]\nruns_dir = {json.dumps(runs)}\n\n[flow]")
    )
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "example")
    r = subprocess.run(
        [sys.executable, "-m", "rtlopt", "optimize", "rtl/prio_enc.v", "-m", "prio_enc",
         "--candidates", "alternatives", "--steps", "1", "--parents", "1", "--rollouts", "2",
         "--no-branch"],
        cwd=repo, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert r.returncode in (0, 1), r.stdout + r.stderr
    run_dirs = list((repo / runs).iterdir())
    assert any((d / "report.md").is_file() for d in run_dirs if d.is_dir()), run_dirs
    assert (repo / runs / ".gitignore").is_file() and not (repo / ".gitignore").exists()
    assert not _pwned(tmp_path)
