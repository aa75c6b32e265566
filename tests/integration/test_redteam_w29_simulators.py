"""Red team 29 (held out, on d4cc977), findings 7, 8, 8b and 9: rtlopt proves every design
with SYNTHESIS defined, but every simulator reads the text without it.

- F9: a candidate uses a repository macro that ```ifndef SYNTHESIS`` defines as ``8'hxx``
  (``8'h00`` in the proven reading) where the reference writes ``8'h00``: iverilog reads xx.
- F7: a commit changes a header that only an ```ifndef SYNTHESIS`` branch includes
  (``initial c = 8'h5a`` -> ``8'h00``).
- F8: a commit changes the simulation model a header in the ```else`` of ```ifdef SYNTHESIS``
  holds (``a + b`` -> ``a - b``).
- F8b: a commit changes only the ```ifndef SYNTHESIS`` definition of a header's macro.

Each was accepted (evaluate) or passed (check); the controls must still pass: an
```ifndef SYNTHESIS`` report block kept verbatim while shared code changes, and a header change
only the proven reading reads.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, evaluate_text, run_rtlopt

pytestmark = [pytest.mark.tools]

CONFIG = '[project]\nexclude = ["cand/**"]\n[check]\nppa = false\noptimization_only = ["*"]\n'
DEFS = "`ifndef SYNTHESIS\n`define DONT_CARE 8'hxx\n`else\n`define DONT_CARE 8'h00\n`endif\n"
MUX = """module m(input clk, input [1:0] s, input [7:0] a, b, output reg [7:0] y);
  always @* begin
    case (s)
      2'd0: y = a;
      2'd1: y = b;
      default: y = 8'h00;
    endcase
  end
`ifndef SYNTHESIS
  always @(posedge clk) if (s == 2'd3) $display("m: s=%d", s);
`endif
endmodule
"""


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    return committed_repo(
        tmp_path / "repo", {**files, "rtlopt.toml": CONFIG}, monkeypatch, tmp_path / "cache"
    )


def _check_staged(repo: Path, changes: dict[str, str]) -> tuple[int, dict[str, object]]:
    for rel, text in changes.items():
        (repo / rel).write_text(text)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    return r.returncode, json.loads(r.stdout)


def _findings(out: dict[str, object]) -> list[str]:
    rows = out["modules"]
    assert isinstance(rows, list)
    return [f for m in rows for f in m["findings"]]


def test_f9_a_macro_simulators_define_otherwise_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"defs.vh": DEFS, "m.v": '`include "defs.vh"\n' + MUX})
    cand = MUX.replace("default: y = 8'h00;", "default: y = `DONT_CARE;")
    code, out = evaluate_text(repo, "m.v", cand)
    assert code == 1 and not out["accepted"], out
    why = str(out["candidate"]["reason"])  # type: ignore[index]
    assert "`DONT_CARE" in why and "SYNTHESIS undefined" in why, why
    # the control: shared code changed, the report block simulators read kept verbatim
    ok = MUX.replace("2'd1: y = b;", "2'd1: y = b | 8'h00;")
    code, out = evaluate_text(repo, "m.v", ok)
    assert code == 0 and out["accepted"], out
    # the gate: the same candidate staged over the file
    code, out = _check_staged(repo, {"m.v": '`include "defs.vh"\n' + cand})
    assert code == 1 and any("`DONT_CARE" in f for f in _findings(out)), out


COUNTER = """module m(input clk, output [7:0] y);
  reg [7:0] c;
`ifndef SYNTHESIS
`include "sim/pu.vh"
`endif
  always @(posedge clk) c <= c + 8'd1;
  assign y = c;
endmodule
"""


def test_f7_a_header_only_a_simulators_branch_includes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"m.v": COUNTER, "sim/pu.vh": "  initial c = 8'h5a;\n"})
    code, out = _check_staged(repo, {"sim/pu.vh": "  initial c = 8'h00;\n"})
    assert code == 1 and not out["ok"], out
    assert any("sim/pu.vh" in f and "m.v line 4" in f for f in _findings(out)), out


ADDER = """module m(input [7:0] a, b, output [7:0] y);
`ifdef SYNTHESIS
  assign y = a + b;
`else
`include "sim/model.vh"
`endif
endmodule
"""


def test_f8_a_simulation_model_in_the_else_of_ifdef_synthesis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"m.v": ADDER, "sim/model.vh": "  assign y = a + b;\n"})
    code, out = _check_staged(repo, {"sim/model.vh": "  assign y = a - b;\n"})
    assert code == 1 and any("sim/model.vh" in f for f in _findings(out)), out


PAD = """`include "defs.vh"
module m(input [1:0] s, input [7:0] a, b, output reg [7:0] y);
  always @* begin
    case (s)
      2'd0: y = a;
      2'd1: y = b;
      default: y = `PAD;
    endcase
  end
endmodule
"""
PAD_DEFS = "`ifndef SYNTHESIS\n`define PAD 8'h00\n`else\n`define PAD 8'h00\n`endif\n"


@pytest.mark.parametrize(
    ("new", "fails"),
    [
        # the finding: the simulators' definition changes, the proven one does not
        (PAD_DEFS.replace("8'h00", "8'hff", 1), True),
        # the control: only the proven reading's definition changes (and stays equivalent)
        (PAD_DEFS.replace("8'h00\n`endif", "8'd0\n`endif"), False),
    ],
)
def test_f8b_a_headers_simulation_definition(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new: str, fails: bool
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"m.v": PAD, "defs.vh": PAD_DEFS})
    code, out = _check_staged(repo, {"defs.vh": new})
    assert (code == 1) is fails, out
    if fails:
        assert any("defs.vh" in f and "SYNTHESIS undefined" in f for f in _findings(out)), out
