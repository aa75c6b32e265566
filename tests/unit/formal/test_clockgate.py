"""Clock gates found by structure in a Yosys JSON netlist (real Yosys builds the netlists)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rtlopt.formal.clockgate import find_gated_registers, find_output_gates, script_lines

pytestmark = pytest.mark.tools

GATE = """
module g (input ck, input en, input {late}, input [3:0] d, output reg [3:0] q{extra_port});
  reg l;
  always @(ck or en) if ({open}) l <= {data};
  wire gck = {and_expr};
  always @(posedge gck) q <= d;
  {extra}
endmodule
"""


def _netlist(tmp_path: Path, **kw: str) -> dict[str, object]:
    fields = {
        "late": "other",
        "open": "!ck",
        "data": "en",
        "and_expr": "ck & l",
        "extra": "",
        "extra_port": "",
    }
    fields.update(kw)
    src = tmp_path / "g.v"
    src.write_text(GATE.format(**fields))
    out = tmp_path / "g.json"
    subprocess.run(
        ["yosys", "-q", "-p", f"read_verilog {src}; proc; flatten; opt_clean; write_json {out}"],
        check=True,
    )
    return dict(json.loads(out.read_text()))


def test_latch_open_on_the_low_phase_and_the_clock_is_a_gate(tmp_path: Path) -> None:
    found = find_gated_registers(_netlist(tmp_path))
    assert len(found) == 1
    g = found[0]
    assert (g.kind, g.clock[0]) == ("$dff", "ck")
    lines = script_lines(found, tag="t")
    assert "chtype -set $dffe rtlopt_clock_gate_t_0" in lines
    assert "connect -port \\rtlopt_clock_gate_t_0 \\CLK \\ck" in lines


def test_the_and_operand_order_and_logic_and_do_not_matter(tmp_path: Path) -> None:
    assert len(find_gated_registers(_netlist(tmp_path, and_expr="l && ck"))) == 1


@pytest.mark.parametrize(
    "kw",
    [
        {"open": "ck"},  # latch open on the high phase: glitches, not a gate
        {"and_expr": "ck & en"},  # no latch
        {"and_expr": "other & l"},  # the AND's clock is not the latch's clock
        {"extra": "assign y = gck ^ d[0];", "extra_port": ", output y"},  # clock used as data
        {"and_expr": "ck | l"},  # not an AND
        {"data": "en | ck"},  # the enable reads the clock (the latch samples it while low)
    ],
)
def test_other_structures_are_left_alone(tmp_path: Path, kw: dict[str, str]) -> None:
    assert find_gated_registers(_netlist(tmp_path, **kw)) == []


def test_a_name_that_could_add_commands_is_left_alone(tmp_path: Path) -> None:
    net = _netlist(tmp_path)
    mod = net["modules"]["g"]  # type: ignore[index]
    cell = next(n for n, c in mod["cells"].items() if c["type"] == "$dff")
    mod["cells"]["x;!touch pwned"] = mod["cells"].pop(cell)
    assert find_gated_registers(net) == []


def test_a_gated_clock_on_an_output_port_opens_its_latch(tmp_path: Path) -> None:
    """A module that exports its gated clock: the registers still become enabled ones, and
    the gate's latch is opened (the output compares as clock AND enable per cycle)."""
    net = _netlist(tmp_path, extra="assign y = gck;", extra_port=", output y")
    assert len(find_gated_registers(net)) == 1
    latches = find_output_gates(net)
    assert len(latches) == 1 and latches[0][0] == "g"
    lines = script_lines([], tag="t", latches=latches)
    assert "connect -port \\rtlopt_clock_gate_t_latch_0 \\EN 1'1" in lines
    assert lines[-1] == "opt_dff -nodffe -nosdff g/rtlopt_clock_gate_t_latch_0"
    # without the output, nothing is opened
    assert find_output_gates(_netlist(tmp_path)) == []
