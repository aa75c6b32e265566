"""`rtlopt optimize --reflect-endpoint/--reflect-model` and `--set KEY=VALUE`: the real command
line with the scripted policy, a real local OpenAI-compatible reflector, and the resolved
configuration the run directory records."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import rtlopt
from tests.openai_server import LocalOpenAIServer

pytestmark = pytest.mark.tools

BASE = [
    "optimize",
    "rtl/prio_enc.v",
    "-m",
    "prio_enc",
    "--candidates",
    "alternatives",
    "--steps",
    "1",
    "--parents",
    "1",
    "--rollouts",
    "4",
    "--no-branch",
]


def _config(stdout: str) -> dict[str, Any]:
    m = re.search(r"run directory: (\S+)", stdout)
    assert m, stdout
    with (Path(m.group(1)) / "config.toml").open("rb") as fh:
        return tomllib.load(fh)


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_reflector_flags_and_generic_settings_reach_the_run(example_repo: Path) -> None:
    server = LocalOpenAIServer(lambda _body: "LESSON: keep the lowest group numbered 15.")
    try:
        r = rtlopt(
            [
                *BASE,
                "--reflect-endpoint",
                server.url,
                "--reflect-model",
                "reflector-model",
                "--set",
                "reflect.restart_after=5",  # an integer
                "--set",
                "flow.clock_period_ns=2.5",  # a float
                "--set",
                "eval.netlist_check=always",  # not TOML: the string itself
                "--set",
                'reflect.api_key_env="RTLOPT_TEST_KEY"',  # a TOML string
                "--set",
                "check.optimization_only=['a', 'b']",  # a TOML array
                "--set",
                "formal.abc=false",  # a boolean
            ],
            example_repo,
        )
    finally:
        server.close()
    assert r.returncode == 0, r.stdout + r.stderr
    cfg = _config(r.stdout)
    assert cfg["reflect"]["endpoint"] == server.url
    assert cfg["reflect"]["model"] == "reflector-model"
    assert cfg["reflect"]["restart_after"] == 5
    assert cfg["reflect"]["api_key_env"] == "RTLOPT_TEST_KEY"
    assert cfg["flow"]["clock_period_ns"] == 2.5
    assert cfg["eval"]["netlist_check"] == "always"
    assert cfg["check"]["optimization_only"] == ["a", "b"]
    assert cfg["formal"]["abc"] is False
    # the reflector was asked about the step's rollouts, with the model named
    assert server.requests and all(b["model"] == "reflector-model" for b in server.requests)
    # without the flags: no reflector, the defaults
    r = rtlopt(BASE, example_repo)
    assert r.returncode == 0, r.stdout + r.stderr
    cfg = _config(r.stdout)
    # restart_after unset: ACE-RTL's restart is off without a reflector
    assert "endpoint" not in cfg["reflect"] and cfg["reflect"].get("restart_after") is None


def test_set_rejects_unknown_keys_like_the_project_file(example_repo: Path) -> None:
    r = rtlopt([*BASE, "--set", "reflect.restart_aftr=2"], example_repo)
    assert r.returncode == 2, r.stdout + r.stderr
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1
    assert "unknown configuration key 'reflect.restart_aftr' in command line" in line
    assert "did you mean 'reflect.restart_after'?" in line
    # the project file's error says the same about the same key
    toml = example_repo / "rtlopt.toml"
    toml.write_text(toml.read_text() + "\n[reflect]\nrestart_aftr = 2\n")
    r2 = rtlopt(BASE, example_repo)
    assert r2.returncode == 2
    assert "unknown configuration key 'reflect.restart_aftr' in" in r2.stderr
    assert "did you mean 'reflect.restart_after'?" in r2.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "reflect.restart_after"], "expected KEY=VALUE"),
        (["--set", "=3"], "expected KEY=VALUE"),
        (["--set", "run.seed=1", "--set", "run.seed=2"], "given twice"),
        (["--set", "run.steps=3"], "conflicts with the option"),  # BASE has --steps 1
        (["--set", "reflect.restart_after=-1"], "reflect.restart_after must be >= 0"),
        (["--set", "reflect.restart_after=soon"], "must be an integer"),
        (["--set", "reflect=1"], "must be a table"),
        (["--set", "run=1", "--set", "run.seed=2"], "is a section"),
    ],
)
def test_bad_set_items_are_usage_errors(example_repo: Path, args: list[str], message: str) -> None:
    r = rtlopt([*BASE, *args], example_repo)
    assert r.returncode == 2, r.stdout + r.stderr
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (example_repo / ".rtlopt" / "runs").exists()
