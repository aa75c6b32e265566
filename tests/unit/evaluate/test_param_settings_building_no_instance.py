"""A setting outside Verilog that builds no instance of the target configures nothing
(``evaluate/_foreign_params.py``): a FuseSoC parameter typed ``vlogdefine`` defines a macro
no text reads (ibex_core.core's ``RV32M``: ibex_counter and ibex_csr were unchecked for it),
and a top's parameter whose elaboration holds no instance of the target (picosoc's
icebreaker testbench sets ``MEM_WORDS``; icebreaker builds pcpi_fast_mul, not pcpi_mul).
Where the macro is read, or a part of the hierarchy below the top is not read, the setting
still leaves the change unchecked (fail closed)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_params import _passed_down, foreign_parameterizations
from rtlopt.frontend import load_design
from rtlopt.frontend._params import parameterizations
from rtlopt.frontend.model import Design

TGT = """module tgt #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);
  assign y = ~a;
endmodule
module other (input [7:0] a, output [7:0] y);
  assign y = a;
endmodule
"""
SOC = """module soc #(parameter FAST = 0, parameter MEM = 4) (input [7:0] a, output [7:0] y);
  generate if (FAST) begin : g
    other u(.a(a), .y(y));
  end else begin : g
    tgt u(.a(a), .y(y));
  end endgenerate
endmodule
"""
TB = "module tb;\n  reg [7:0] a;\n  wire [7:0] y;\n  soc #(.FAST(1), .MEM(256)) uut(.a(a), .y(y));\nendmodule\n"
CORE = (
    "CAPI=2:\nname: ::tgt:0\nparameters:\n  W:\n    datatype: str\n"
    "    default: pkg::WideMode\n    paramtype: vlogdefine\n"
)


def _why(tmp: Path, files: dict[str, str]) -> str:
    for name, text in {"tgt.v": TGT, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    config = ProjectConfig(exclude=("tb/*",))
    design: Design = load_design(tmp / "tgt.v", "tgt", config, root=tmp)
    extra, why = foreign_parameterizations(design, TGT, parameterizations(design), {})
    assert extra == []
    return why


def test_a_fusesoc_macro_no_text_reads_sets_no_parameter(tmp_path: Path) -> None:
    assert _why(tmp_path, {"tgt.core": CORE}) == ""


def test_a_fusesoc_macro_a_text_reads_stays_a_setting(tmp_path: Path) -> None:
    top = "module top;\n  initial $display(`W);\nendmodule\n"
    why = _why(tmp_path, {"tgt.core": CORE, "top.v": top})
    assert why.startswith("tgt.core:4 sets parameter W=?"), why


def test_a_tops_setting_whose_elaboration_holds_no_target_builds_nothing(
    tmp_path: Path,
) -> None:
    assert _why(tmp_path, {"soc.v": SOC, "tb/tb.v": TB}) == ""


def test_a_tops_elaboration_missing_a_module_the_repository_defines_is_none(
    tmp_path: Path,
) -> None:
    """The target's parent lives in a file the build does not read: slang sees an unknown
    module where the repository defines one, so the target may be below it (fail closed);
    an unknown top is no elaboration either."""
    soc = SOC.replace("    tgt u(.a(a), .y(y));", "    mid u(.a(a), .y(y));")
    mid = "module mid(input [7:0] a, output [7:0] y);\n  tgt u(.a(a), .y(y));\nendmodule\n"
    _why(tmp_path, {"soc.v": soc, "tb/mid.v": mid})
    design = load_design(tmp_path / "tgt.v", "tgt", ProjectConfig(exclude=("tb/*",)), root=tmp_path)
    assert _passed_down(design, "soc", (("FAST", "0"),)) is None
    assert _passed_down(design, "nosuch", (("FAST", "0"),)) is None
    (tmp_path / "tb" / "mid.v").unlink()  # a vendor cell: defined nowhere here
    design = load_design(tmp_path / "tgt.v", "tgt", ProjectConfig(exclude=("tb/*",)), root=tmp_path)
    assert _passed_down(design, "soc", (("FAST", "0"),)) == []
