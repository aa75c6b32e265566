"""Help for people: optimize's options in sections, an example in every command's help,
`config show SECTION` and `--toml`, and shell completion of PDK and policy names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from rtlopt.cli import cli

COMMANDS = [
    "bench",
    "check",
    "config",
    "doctor",
    "evaluate",
    "inspect",
    "optimize",
    "pdk",
    "profile",
    "report",
    "train",
    "config show",
    "pdk list",
    "pdk download",
]


def _rtlopt(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rtlopt", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=dict(os.environ, COLUMNS="100", **env),
    )


def test_optimize_help_groups_the_options() -> None:
    out = _rtlopt("optimize", "--help").stdout
    titles = re.findall(r"^(\w[\w ()]*):$", out, re.M)
    assert titles[:5] == ["Target", "Model", "Search", "Training (research settings)", "Output"], (
        titles
    )
    sections = dict(zip(titles, re.split(r"^\w[\w ()]*:$", out, flags=re.M)[1:], strict=True))
    for title, opts in {
        "Target": ["--module", "--pdk", "--liberty", "--metric", "--config"],
        "Model": ["--policy", "--model", "--endpoint", "--candidates"],
        "Search": ["--steps", "--parents", "--rollouts", "--seed", "--reuse"],
        "Training (research settings)": ["--lr", "--delta", "--advantage"],
        "Output": ["--run-dir", "--resume", "--no-branch", "--push", "--pr"],
    }.items():
        for opt in opts:
            assert opt in sections[title], (title, opt)
    examples = out.split("\nTarget:")[0].split("Examples:")[1]
    assert "rtlopt optimize rtl/alu.v --pdk sky130" in examples
    assert "[TARGET]" not in sections.get("Other options", "")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_shows_an_example(command: str) -> None:
    # in this process (click's runner): the help text is the same, without an interpreter start
    # per command (test_optimize_help_groups_the_options runs the real `python -m rtlopt`)
    r = CliRunner().invoke(
        cli, [*command.split(), "--help"], prog_name="rtlopt", env={"COLUMNS": "100"}
    )
    assert r.exit_code == 0, r.output
    m = re.search(r"^\s*Examples?:\n((?:\s+rtlopt .*\n)+)", r.stdout, re.M)
    assert m, r.stdout
    first = command.split()[0]
    assert all(
        line.strip().startswith(f"rtlopt {first}")
        for line in m.group(1).splitlines()
        if line.strip().startswith("rtlopt")
    ), m.group(1)


def _complete(words: str) -> list[str]:
    r = _rtlopt(
        COMP_WORDS=words,
        COMP_CWORD=str(len(words.split()) - 1 + words.endswith(" ")),
        _RTLOPT_COMPLETE="bash_complete",
    )
    assert r.returncode == 0, r.stderr
    return [line.split(",", 1)[1] for line in r.stdout.splitlines() if line.startswith("plain,")]


def test_pdk_and_policy_names_complete() -> None:
    assert _complete("rtlopt optimize rtl/x.v --pdk sky") == ["sky130", "sky130hd"]
    assert _complete("rtlopt optimize rtl/x.v --pdk ") == [
        "custom",
        "nangate",
        "nangate45",
        "sky130",
        "sky130hd",
    ]
    assert _complete("rtlopt optimize rtl/x.v --policy tr") == ["transformers"]
    assert _complete("rtlopt doctor --policy v") == ["vllm"]
    assert _complete("rtlopt check --pdk na") == ["nangate", "nangate45"]
    assert _complete("rtlopt pdk download n") == ["nangate", "nangate45"]
    assert "_RTLOPT_COMPLETE=bash_source rtlopt" in _rtlopt("--help").stdout


def test_config_show_a_section_as_toml(tmp_path: Path) -> None:
    (tmp_path / "rtlopt.toml").write_text('[flow]\npdk = "sky130"\nmetric = "adp"\n')
    r = _rtlopt("config", "show", "flow", "--toml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    data = tomllib.loads(r.stdout)
    assert list(data) == ["flow"] and data["flow"]["pdk"] == "sky130hd"  # alias stored by name
    assert data["flow"]["clock_period_ns"] == 10.0 and data["flow"]["power"] is True
    assert f"(from {tmp_path / 'rtlopt.toml'})" in r.stdout
    full = tomllib.loads(_rtlopt("config", "show", "--toml", cwd=tmp_path).stdout)
    assert set(full) == {
        f.name
        for f in __import__("dataclasses").fields(
            __import__("rtlopt.config", fromlist=["Config"]).Config
        )
    }
    changed = tomllib.loads(_rtlopt("config", "show", "--changed", "--toml", cwd=tmp_path).stdout)
    assert changed == {"flow": {"pdk": "sky130hd", "metric": "adp"}}
    r = _rtlopt("config", "show", "flow.pdk", "train.adaptive", cwd=tmp_path)
    rows = [ln.split()[0] for ln in r.stdout.splitlines() if re.match(r"^[a-z]+\.\w", ln)]
    assert rows[0] == "flow.pdk" and all(k.startswith("train.adaptive.") for k in rows[1:])
    assert '"sky130hd"' in r.stdout and "'sky130hd'" not in r.stdout  # TOML, not Python repr
    r = _rtlopt("config", "show", "flw", cwd=tmp_path)
    assert r.returncode == 2 and "did you mean 'flow'?" in r.stderr


def test_help_metavar_lists_names_not_aliases() -> None:
    cmd = cli.get_command(None, "optimize")  # type: ignore[arg-type]
    assert cmd is not None
    pdk = next(p for p in cmd.params if p.name == "pdk")
    assert pdk.type.get_metavar(pdk, None) == "[custom|nangate45|sky130hd]"  # type: ignore[call-arg]
