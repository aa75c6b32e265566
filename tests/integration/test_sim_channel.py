"""No verdict channel a design can read (real iverilog, vvp and bubblewrap).

The simulation runs a candidate's code beside the testbench in one process, so a candidate that
reaches ``$fopen`` (through a macro the screen misreads, say) could read the per-run secret and
print its own pass line. Two defences, each tested alone: the structural check of the compiled
file rejects any system task in the candidate's scopes before anything runs, and the sealed run
(a fresh secret and fresh names per run, the compiled file served through a pipe and deleted,
the log out of reach, the vectors in a folder the design cannot write) leaves nothing to forge a
verdict with when that check is bypassed. The controls run the same attacks on an unsealed
simulation and watch them forge a pass, so the sealed assertions can fail.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

import rtlopt.eda.iverilog as iv
import rtlopt.tools._sandbox as sb
from rtlopt.config import Config, ProjectConfig
from rtlopt.evaluate._setup import EvalSetup, open_setup
from rtlopt.evaluate._tbsim import simulate_in_testbench
from rtlopt.frontend import load_design
from rtlopt.harness import build_testbench, parse_sim_report, reference_text
from rtlopt.tools import Limits, configure_sandbox, sandbox_available

pytestmark = pytest.mark.tools

REF = "module add4(input [3:0] a, input [3:0] b, output [4:0] s);\n  assign s = a + b;\nendmodule\n"
HEAD = "module add4(input [3:0] a, input [3:0] b, output [4:0] s);\n"
WRONG = "  assign s = a - b;\n"

# reads the first "RTLOPT <secret> " of a file and prints a pass line with it, then ends the run
STEAL = """
  integer fd, c, st, done;
  reg [8*40-1:0] sec;
  reg [55:0] pat;
  task steal(input [8*96-1:0] name);
    begin
      fd = $fopen(name, "r");
      st = 0; sec = 0; done = 0; pat = "RTLOPT ";
      if (fd != 0) begin
        c = $fgetc(fd);
        while (c != -1 && !done) begin
          if (st == 7) begin
            if (c == " ") done = 1; else sec = {sec[8*39-1:0], c[7:0]};
          end else if (c[7:0] == pat[8*(6-st) +: 8]) st = st + 1;
          else st = (c == "R") ? 1 : 0;
          c = $fgetc(fd);
        end
        $fclose(fd);
      end
      if (done) begin
        $display("%s%s %0s RESULT vectors=1 checks=1 mismatches=0", "RTLO", "PT", sec);
        $finish;
      end
    end
  endtask
"""


def _steal_from(*names: str) -> str:
    calls = " ".join(f'steal("{n}");' for n in names)
    return HEAD + WRONG + STEAL + f"  initial begin {calls} end\nendmodule\n"


# rewrites the vectors to all zeros before the testbench reads them (a - b == a + b at 0)
ZERO_VECTORS = (
    HEAD
    + WRONG
    + """  integer fd, i;
  initial begin
    fd = $fopen("rtlopt_vectors.hex", "w");
    for (i = 0; i < 4096; i = i + 1) $fdisplay(fd, "00");
    $fclose(fd);
  end
endmodule
"""
)


# the same, aimed at the shared copy that the sealed testbench reads
ZERO_SHARED = ZERO_VECTORS.replace('"rtlopt_vectors.hex"', '"../shared/rtlopt_vectors.hex"')

# a hierarchical reference into the testbench's compare task
FORCE = HEAD + WRONG + "  initial force rtlopt_tb.check_.diff_ = 0;\nendmodule\n"


@pytest.fixture(autouse=True)
def _sandbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    why = sandbox_available()
    if why is not None:
        pytest.skip(f"bubblewrap cannot run here: {why}")
    monkeypatch.setattr(sb, "_policy", None)
    monkeypatch.delenv(sb.POLICY_ENV, raising=False)
    configure_sandbox(True, require=True)
    yield


@pytest.fixture
def setup(tmp_path: Path) -> EvalSetup:
    src = tmp_path / "repo" / "add4.v"
    src.parent.mkdir()
    src.write_text(REF)
    design = load_design(src, "add4", ProjectConfig())
    cfg = Config()
    cfg = dataclasses.replace(cfg, flow=dataclasses.replace(cfg.flow, systemverilog="native"))
    return open_setup(design, cfg, tmp_path / "work", None)


def _run(s: EvalSetup, text: str, name: str = "cand") -> tuple[bool, str]:
    wd = s.workdir / name
    wd.mkdir()
    (wd / "candidate.v").write_text(text)
    run = simulate_in_testbench(s, wd, [wd / "candidate.v", s.reference_file], name="sim")
    assert run.compiled.ok or text, run.compiled.output
    if not run.compiled.ok:
        return False, "does not compile: " + run.compiled.output[-300:]
    assert run.report is not None
    return run.report.result.passed, run.report.reason


def _unsealed(s: EvalSetup, text: str, wd: Path) -> bool:
    """The simulation as it ran before: the secret in sim.vvp and the testbench in the working
    folder, the vectors and the log there too, /proc present."""
    wd.mkdir()
    secret = secrets.token_hex(16)
    tb = build_testbench(s.tools, s.config.harness, secret)
    (wd / "rtlopt_tb.v").write_text(tb.text)
    for name, content in tb.files.items():
        (wd / name).write_text(content)
    (wd / "reference.v").write_text(reference_text(s.tools))
    (wd / "candidate.v").write_text(text)
    files = [wd / "candidate.v", wd / "reference.v", wd / "rtlopt_tb.v"]
    comp = iv.compile_sources(files, wd, top=tb.top, out=wd / "sim.vvp")
    assert comp.ok, comp.output
    run = iv.run_vvp(wd / "sim.vvp", wd, limits=Limits(30.0), log_name="sim.log")
    return parse_sim_report(run.output(), secret).result.passed


def test_the_attacks_forge_a_pass_on_an_unsealed_simulation(setup: EvalSetup) -> None:
    assert _unsealed(setup, _steal_from("sim.vvp"), setup.workdir / "u1")
    assert _unsealed(setup, ZERO_VECTORS, setup.workdir / "u2")
    assert _unsealed(setup, FORCE, setup.workdir / "u3")


def test_a_correct_candidate_passes_sealed(setup: EvalSetup) -> None:
    assert _run(setup, REF) == (True, "")


@pytest.mark.parametrize(
    "body",
    [
        '  integer f;\n  initial f = $fopen("sim.vvp", "r");\n',
        '`define OPEN(x) $fopen(x, "r")\n  integer f;\n  initial f = `OPEN("sim.vvp");\n',
        "  function integer g(input integer x);\n    begin $finish; g = x; end\n  endfunction\n"
        "  integer f;\n  initial f = g(1);\n",
        '  sub u(.a(a[0]));\nendmodule\nmodule sub(input a);\n  always @(a) $display("x");\n',
    ],
    ids=["fopen", "fopen_through_a_macro", "finish_in_a_function", "display_in_a_submodule"],
)
def test_the_guard_rejects_system_tasks_in_candidate_scopes(setup: EvalSetup, body: str) -> None:
    passed, reason = _run(setup, HEAD + "  assign s = a + b;\n" + body + "endmodule\n")
    assert not passed
    assert reason.startswith(iv.FOREIGN_CALL), reason
    assert "at candidate.v:" in reason and " in add4" in reason, reason


def test_the_guard_allows_what_the_reference_holds(tmp_path: Path) -> None:
    src = tmp_path / "repo" / "add4.v"
    src.parent.mkdir()
    shown = '  initial $display("add4 here");\n'
    src.write_text(HEAD + "  assign s = a + b;\n" + shown + "endmodule\n")
    cfg = Config()
    cfg = dataclasses.replace(cfg, flow=dataclasses.replace(cfg.flow, systemverilog="native"))
    s = open_setup(load_design(src, "add4", ProjectConfig()), cfg, tmp_path / "work", None)
    assert _run(s, HEAD + "  assign s = b + a;\n" + shown + "endmodule\n", "same") == (True, "")
    passed, reason = _run(s, HEAD + "  assign s = b + a;\n" + shown * 2 + "endmodule\n", "more")
    assert not passed and reason.startswith(iv.FOREIGN_CALL), reason


@pytest.mark.parametrize(
    "text",
    [
        _steal_from("sim.vvp", "sim_tb.v", "sim.log", "../shared/rtlopt_tb.v"),
        ZERO_VECTORS,
        ZERO_SHARED,
        FORCE,
        HEAD + WRONG + "  initial #3 $finish;\nendmodule\n",
        HEAD + WRONG + '  initial $display("RTLOPT 0 RESULT vectors=1 checks=1 mismatches=0");\n'
        "endmodule\n",
    ],
    ids=[
        "steals_the_secret",
        "rewrites_the_vectors",
        "rewrites_the_shared_vectors",
        "forces_the_compare",
        "finish",
        "prints",
    ],
)
def test_no_forged_pass_when_the_guard_is_bypassed(
    setup: EvalSetup, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    monkeypatch.setattr(iv, "foreign_system_calls", lambda _text, _guard: [])
    passed, reason = _run(setup, text)
    assert not passed, reason
    # nothing the candidate could open during the run holds a live secret
    wd = setup.workdir / "cand"
    assert not (wd / "sim.vvp").exists() and not (wd / "sim_tb.v").exists()
    assert not list(wd.glob(".rtlopt_*"))


def test_the_guard_fails_closed_on_unreadable_text() -> None:
    from rtlopt.eda._vvpguard import VvpGuard, foreign_system_calls

    guard = VvpGuard("tb", "m__rtlopt_ref", "m")
    text = 'S_0x1 .scope module, "tb" "tb" 3 7;\n    %vpi_call/w 3 1 "$display", "x" {0 0 0};\n'
    assert foreign_system_calls(text, guard) == ["no candidate instance of m under tb"]
    assert foreign_system_calls("S_0x2 .scope ???\n", guard)[0].startswith("unreadable scope")
    loose = '    %vpi_call/w 3 1 "$fopen", "x" {0 0 0};\n'
    assert "outside any scope" in foreign_system_calls(loose, guard)[0]


def test_a_counterexample_replay_does_not_run_candidate_system_tasks(tmp_path: Path) -> None:
    """The replay explains a verdict: a candidate's own output must not feed it."""
    from rtlopt.evaluate._trace import Trace, replay

    src = tmp_path / "add4.v"
    src.write_text(REF)
    design = load_design(src, "add4", ProjectConfig())
    ref = tmp_path / "reference.v"
    ref.write_text(reference_text(design))
    cand = tmp_path / "cand.v"
    cand.write_text(HEAD + WRONG + '  initial $display("CANDIDATE RAN");\nendmodule\n')
    trace = Trace("formal", False, ({"a": "0001", "b": "0001"},), 0, "s")
    rep = replay(trace, design.target, [cand], ref, tmp_path / "trace", scratch=tmp_path)
    log = tmp_path / "trace" / "replay.log"
    assert not log.exists() or "CANDIDATE RAN" not in log.read_text()
    assert not rep.reproduced and "0 of 1" in rep.note
