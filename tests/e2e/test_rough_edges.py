"""The rough edges a new user hits (issue 22, items 4 and 6), each through the real command
line: helpful compile errors, one warning for unrelated broken files, `--candidates` without
`--steps`, SIGTERM in a run, "equivalent, but worse"."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.policy._scripted import ScriptedPolicy
from tests.e2e._darkstyle import write_darkstyle
from tests.e2e.conftest import EXAMPLE, rtlopt
from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools

ALU_DEFS = "`define ALU_ADD 2'd0\n`define ALU_SUB 2'd1\n`define ALU_AND 2'd2\n"
ALU = """\
// biriscv style: the opcode macros are included inside the module
module alu (
    input  [1:0] op,
    input  [7:0] a,
    input  [7:0] b,
    output reg [7:0] y
);

`include "alu_defs.v"

always @* begin
    case (op)
    `ALU_ADD: y = a + b;
    `ALU_SUB: y = a - b;
    `ALU_AND: y = a & b;
    default:  y = a | b;
    endcase
end

endmodule
"""


def _repo(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    return path


def test_dropped_in_module_include_is_named_with_its_line(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "alu")
    (repo / "rtl").mkdir()
    (repo / "rtl" / "alu_defs.v").write_text(ALU_DEFS)
    (repo / "rtl" / "alu.v").write_text(ALU)
    cand = tmp_path / "alu_new.v"
    cand.write_text(ALU.replace('`include "alu_defs.v"\n', ""))
    r = rtlopt(["evaluate", "rtl/alu.v", "-c", str(cand), "--no-formal", "--json"], repo)
    assert r.returncode == 1, r.stderr
    reason = json.loads(r.stdout)["candidate"]["reason"]
    assert (
        "macro `ALU_ADD` is undefined: the reference includes alu_defs.v at line 9 inside the "
        "module; keep that include"
    ) in reason, reason


def test_candidate_syntax_error_keeps_its_line_through_the_scripted_policy(
    tmp_path: Path,
) -> None:
    """A candidate file with header lines before ``module``: the policy hands it over as
    written, so the compiler's line is the file's line (not counted from ``module``)."""
    text = "// header 1\n// header 2\n\n" + ALU
    (tmp_path / "c.v").write_text(text)
    pol = ScriptedPolicy(
        PolicyConfig(backend="scripted", scripted_path=str(tmp_path)), TrainConfig()
    )
    [[c]] = pol.generate([object()], 1, seed=0)  # type: ignore[list-item]
    assert c.verilog == text


def test_unrelated_broken_files_give_one_relative_warning_with_the_exclude_hint(
    tmp_path: Path,
) -> None:
    repo = write_darkstyle(tmp_path / "dark")
    (repo / "rtlopt.toml").write_text('[project]\nfilelists = ["rtl/rtl.f"]\n')
    for i in range(5):
        (repo / "boards" / f"b{i}").mkdir()
        (repo / "boards" / f"b{i}" / "top.v").write_text("module t(; endmodule\n")
    # lazily loaded (the default), files the target does not need are not even read
    r = rtlopt(["inspect", "rtl/darkuart.v"], repo)
    assert r.returncode == 0, r.stderr
    assert "boards/" not in r.stderr, r.stderr
    # parsed whole, the broken ones give one relative warning with the fix
    (repo / "rtlopt.toml").write_text('[project]\nfilelists = ["rtl/rtl.f"]\nlazy_parse = false\n')
    r = rtlopt(["inspect", "rtl/darkuart.v"], repo)
    assert r.returncode == 0, r.stderr
    warnings = [ln for ln in r.stderr.splitlines() if "WARNING" in ln]
    assert len(warnings) == 1, r.stderr
    assert "6 file(s)" in warnings[0] and "boards/b0/top.v:1" in warnings[0]
    assert str(repo) not in warnings[0]
    assert 'project.exclude = ["boards/**"]' in warnings[0]


def test_evaluate_says_equivalent_but_worse(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "ex")
    (repo / "rtl").mkdir()
    # the loop form is the smaller design: the original becomes a worse candidate
    shutil.copy(EXAMPLE / "alternatives" / "b_loop.v", repo / "rtl" / "prio_enc.v")
    cand = tmp_path / "bigger.v"
    # evaluated at time 0 as the loop's always_comb (an always @(*) would wait for events a
    # top's environment may hold back: unchecked)
    original = (EXAMPLE / "rtl" / "prio_enc.v").read_text()
    cand.write_text(
        original.replace("casez (v)", "casez (vec & {16{en}})").replace(
            "always @(*)", "always_comb"
        )
    )
    r = rtlopt(["evaluate", "rtl/prio_enc.v", "-c", str(cand)], repo)
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if "ACCEPTED" in ln)
    assert "equivalent to the reference, but worse" in line, line
    r = rtlopt(["evaluate", "rtl/prio_enc.v", "-c", "rtl/prio_enc.v"], repo)
    line = next(ln for ln in r.stdout.splitlines() if "ACCEPTED" in ln)
    assert "worse" not in line


def _run_dir(stdout: str) -> Path:
    m = re.search(r"run directory: (\S+)", stdout)
    assert m, stdout
    return Path(m.group(1))


def test_candidates_without_steps_replays_each_file_once(example_repo: Path) -> None:
    r = rtlopt(
        ["optimize", "rtl/prio_enc.v", "-m", "prio_enc", "--candidates", "alternatives"],
        example_repo,
    )
    assert r.returncode in (0, 1), r.stdout + r.stderr
    rd = _run_dir(r.stdout)
    steps = [json.loads(x) for x in (rd / "steps.jsonl").read_text().splitlines()]
    n_files = len(list((example_repo / "alternatives").glob("*.v")))
    assert sum(s["rollouts"] for s in steps) == n_files, steps
    assert len(steps) <= n_files
    # the report names the candidates by their files
    report = (rd / "report.md").read_text()
    assert "`b_loop.v` (`" in report, report
    cands = [json.loads(p.read_text()) for p in (rd / "candidates").glob("*.json")]
    assert {c.get("source") for c in cands} >= {"b_loop.v", "c_wrong_last_group.v"}


def test_sigterm_marks_the_run_interrupted(example_repo: Path) -> None:
    env = {**os.environ}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rtlopt",
            "optimize",
            "rtl/prio_enc.v",
            "-m",
            "prio_enc",
            "--candidates",
            "alternatives",
            "--steps",
            "200",
            "--no-branch",
        ],
        cwd=example_repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 120
        info: list[Path] = []
        while time.monotonic() < deadline and proc.poll() is None and not info:
            info = list((example_repo / ".rtlopt" / "runs").glob("*/run.json"))
            time.sleep(0.05)
        assert info, "the run never started"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 143, err
    assert json.loads(info[0].read_text())["status"] == "interrupted"
    assert "Traceback" not in err
    r = rtlopt(["report", str(info[0].parent)], example_repo)
    assert "running" not in r.stdout


def test_doctor_checks_the_eda_tools_and_the_pdk(tmp_path: Path) -> None:
    def doctor(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        argv = ["doctor", "--policy", "scripted", "--json", *args]
        return run_rtlopt(argv, cwd=tmp_path, env={**os.environ, **env}, timeout=300)

    r = doctor()
    out = json.loads(r.stdout)
    assert out["eda"]["tools"]["yosys"]["version"] and out["eda"]["pdk"]["liberty"]
    assert not [p for p in out["problems"] if p.startswith(("EDA", "PDK"))]
    r = doctor(RTLOPT_YOSYS=str(tmp_path / "no-yosys"))
    out = json.loads(r.stdout)
    assert r.returncode == 1 and out["ready"] is False and out["eda"]["tools"]["yosys"] is None
    assert any(p.startswith("EDA tool yosys") for p in out["problems"])
    (tmp_path / "rtlopt.toml").write_text('[flow]\nliberty = "missing.lib"\n')
    r = doctor()
    out = json.loads(r.stdout)
    assert r.returncode == 1 and any(p.startswith("PDK") for p in out["problems"]), out


def test_config_show_is_short_by_default(tmp_path: Path) -> None:
    (tmp_path / "rtlopt.toml").write_text('[flow]\npdk = "nangate45"\n')
    r = rtlopt(["config", "show"], tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) < 30, r.stdout
    assert "sections: project" in r.stdout and "flow.pdk" in r.stdout and "nangate45" in r.stdout
    assert "harness.seed" not in r.stdout  # unchanged settings only with --all or a section
    full = rtlopt(["config", "show", "--all"], tmp_path).stdout
    assert "harness.seed" in full and len(full.splitlines()) > 5 * len(lines)
    assert "harness.seed" in rtlopt(["config", "show", "harness"], tmp_path).stdout


def test_ci_doc_says_how_to_install_pre_commit() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "ci.md").read_text()
    assert "pipx install\npre-commit" in text or "pipx install pre-commit" in text
    assert "pre-commit install" in text


def test_self_evaluation_with_a_simulator_conditional_in_the_reference(tmp_path: Path) -> None:
    """darkriscv's core has ```ifdef MODEL_TECH`` blocks (ModelSim): no tool rtlopt runs
    defines that macro, so the reference's conditional reads the same everywhere."""
    from tests.e2e._darkstyle import EQUIVALENT, edit

    repo = write_darkstyle(tmp_path / "dark")
    uart = repo / "rtl" / "darkuart.v"
    text = edit(
        uart.read_text(),
        "    assign TXD  = SHIFT[0];",
        '`ifdef MODEL_TECH\n    initial $display("darkuart");\n`endif\n    assign TXD  = SHIFT[0];',
    )
    uart.write_text(text)
    r = rtlopt(["evaluate", "rtl/darkuart.v", "-c", "rtl/darkuart.v", "--no-formal"], repo)
    assert r.returncode == 0, r.stdout + r.stderr
    for old, new in EQUIVALENT:
        text = edit(text, old, new)
    (tmp_path / "cand.v").write_text(text)
    r = rtlopt(["evaluate", "rtl/darkuart.v", "-c", str(tmp_path / "cand.v"), "--json"], repo)
    out = json.loads(r.stdout)
    assert "MODEL_TECH" not in out["candidate"]["reason"], out["candidate"]["reason"]
    assert r.returncode == 0 and out["accepted"], out["candidate"]["reason"]
