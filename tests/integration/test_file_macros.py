"""The macros a target's design uses are those of the text it reads: its module, the modules
it reaches, the directives of their files and the bodies of the definitions they use; not a
macro another module of its file expands (picorv32.v: ``picorv32`` expands ```PICORV32_REGS``,
which picosoc.v gives an overridable default; ``picorv32_axi_adapter`` beside it does not)."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult
from rtlopt.verilog import find_span

pytestmark = [pytest.mark.tools, pytest.mark.slow]

#: Another build may set REGS or K (``+define+K=...``): each has an overridable default.
SOC = """`ifndef REGS
`define REGS regs_a
`endif
module soc(input [3:0] a, input [3:0] b, output [3:0] y, output [3:0] z);
  core c(.a(a), .y(y));
  adapter d(.a(a), .b(b), .y(z));
endmodule
"""
#: ``core`` expands REGS; ``adapter`` (the target) beside it does not.
CORE = """`ifndef K
`define K 4'd3
`endif
`define KK `K
module core(input [3:0] a, output [3:0] y);
`ifndef REGS
  assign y = a;
`else
  `REGS r(.a(a), .y(y));
`endif
endmodule
module regs_a(input [3:0] a, output [3:0] y);
  assign y = ~a;
endmodule
module adapter(input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = a & b;
endmodule
"""


def _evaluate(tmp: Path, core: str, cand: str) -> EvalResult:
    repo = tmp / "repo"
    repo.mkdir(parents=True)
    (repo / "cfg.v").write_text(SOC)  # read before core.v
    (repo / "core.v").write_text(core)
    for argv in (
        ["git", "init", "-q"],
        ["git", "add", "-A"],
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "m"],
    ):
        subprocess.run(argv, cwd=repo, check=True)
    base = Config()
    cfg = dataclasses.replace(
        base,
        harness=dataclasses.replace(base.harness, sim_timeout_s=20.0),
        formal=dataclasses.replace(base.formal, timeout_s=60.0),
    )
    design = load_design(repo / "core.v", "adapter", cfg.project)
    ev = Evaluator(design, cfg, tmp / "scratch", None)
    try:
        return ev.evaluate(cand)
    finally:
        ev.close()


def test_a_macro_another_module_of_the_file_expands_does_not_reach_the_target(
    tmp_path: Path,
) -> None:
    # the target rewritten (the file's other modules are not the candidate's to carry): core's
    # `REGS is not the target's
    whole = CORE.replace("assign y = a & b;", "assign y = b & a;")
    span = find_span(whole, "adapter")
    assert span is not None
    cand = whole[span.start : span.end] + "\n"
    res = _evaluate(tmp_path, CORE, cand)
    assert res.accepted, res.reason


def test_a_macro_the_target_uses_through_a_definition_of_its_file_stays_another_build(
    tmp_path: Path,
) -> None:
    # `KK's body uses `K, which another build sets: a change relying on K's value here is
    # unchecked, as the module alone or as a copy of the whole file
    core = CORE.replace("assign y = a & b;", "assign y = (a & b) ^ `KK;")
    whole = core.replace("(a & b) ^ `KK;", "(a & b) ^ 4'd3;")
    for i, cand in enumerate([whole, whole[whole.index("module adapter") :]]):
        res = _evaluate(tmp_path / str(i), core, cand)
        assert not res.accepted, res.reason
        # the whole file's copy is refused first for carrying the file's other modules
        why = "overridable default" if i else "is already a module of the repository"
        assert why in res.reason and ("K" in res.reason or not i), res.reason
