"""A change to how the gate itself is run (held-out red team round 72,
``check/_gate_runs.py``): a changed line that runs or configures rtlopt, and the environment's
``RTLOPT_<SECTION>__<KEY>`` overrides of the gate's rules."""

from __future__ import annotations

from pathlib import Path

from rtlopt.check._gate_runs import environment_line, gate_run_changes
from rtlopt.check._rules import config_check, load_rules


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


WORKFLOW = "jobs:\n  check:\n    steps:\n      - run: rtlopt check --base origin/main\n"


def test_a_changed_line_that_runs_or_configures_rtlopt_is_a_change_of_the_rules(
    tmp_path: Path,
) -> None:
    loose = WORKFLOW.replace("      - run", '        env:\n          RTLOPT_X__Y: "1"\n      - run')
    new = _tree(
        tmp_path,
        {
            "ci.yml": loose,
            "Makefile": "sim:\n\tiverilog -o s a.v\n",
            "README.md": "run rtlopt check --trust-config\n",
            "a.v": "// rtlopt: keep\nmodule a; endmodule\n",
        },
    )
    base = {"ci.yml": WORKFLOW, "Makefile": "sim:\n\tiverilog -o sim a.v\n"}
    found = gate_run_changes(["ci.yml", "Makefile", "README.md", "a.v"], base.get, new)
    assert len(found) == 1 and found[0].startswith("ci.yml:5: "), found
    assert "RTLOPT_X__Y" in found[0]


def _rules(tmp_path: Path, env: dict[str, str], *, trust: bool):  # type: ignore[no-untyped-def]
    toml = '[check]\noptimization_only = ["*"]\nppa = false\n'
    new = _tree(tmp_path / "new", {"rtlopt.toml": toml})
    base = {"rtlopt.toml": toml}
    return load_rules(base.get, new, tmp_path / "scratch", None, trust=trust, changed=[], env=env)


def test_an_environment_override_of_the_rules_applies_only_under_trust(tmp_path: Path) -> None:
    env = {
        "RTLOPT_CHECK__OPTIMIZATION_ONLY": "[]",
        "RTLOPT_SANDBOX__TIMEOUT_S": "5",
        "RTLOPT_EVAL__WORKERS": "1",  # how the tools run, not what is judged
    }
    rules = _rules(tmp_path / "1", env, trust=False)
    assert rules.config.check.optimization_only == ("*",)
    assert rules.config.sandbox.timeout_s == 5 and rules.config.eval.workers == 1  # said
    assert [c.split(" ")[1] for c in rules.changes] == ["RTLOPT_CHECK__OPTIMIZATION_ONLY='[]'"]
    assert config_check(rules).findings
    trusted = _rules(tmp_path / "2", env, trust=True)
    assert trusted.config.check.optimization_only != ("*",)  # the override applies
    row = config_check(trusted)
    assert not row.findings and "applied (--trust-config)" in row.notes[0]
    line = environment_line(env, trusted=False)
    assert "check.optimization_only (RTLOPT_CHECK__OPTIMIZATION_ONLY, not applied)" in line
    assert "sandbox.timeout_s (RTLOPT_SANDBOX__TIMEOUT_S)" in line
    assert environment_line({"RTLOPT_REQUIRE_TOOLS": "1"}, trusted=False) == ""
