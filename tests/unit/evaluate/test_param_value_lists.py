"""A parameter value list of an instance of the target slang does not read whole
(``evaluate/_param_lists.py`` :func:`instance_lists`): a positional ``tgt #(37)`` in a text
the frontend does not elaborate (``.vt``, any name), a VHDL ``generic map (37)``, an SV
``config`` block's ``use #(.W(37))``, a macro value no text defines (```TBW`` with
``-DTBW=37``). Literal values become configurations that are checked; any other leaves
the change unchecked. Real frontend and slang, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_params import foreign_parameterizations
from rtlopt.frontend import load_design
from rtlopt.frontend._params import parameterizations

TGT = """module tgt #(parameter W = 8, parameter D = 2) (input [W-1:0] a, output [W-1:0] y);
  assign y = ~a;
endmodule
"""
VHDL = "architecture sim of tb is\nbegin\n  dut : entity work.tgt generic map ({}) port map (a, y);\nend;\n"


def _run(tmp: Path, files: dict[str, str]) -> tuple[list[str], str]:
    for rel, text in {"tgt.v": TGT, **files}.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_text(text)
    design = load_design(tmp / "tgt.v", "tgt", ProjectConfig())
    extra, why = foreign_parameterizations(design, TGT, parameterizations(design), {})
    return [p.label() for p in extra], why


@pytest.mark.parametrize(
    ("name", "text", "label"),
    [
        ("tgt.vt", "module t;\n  tgt #(37) i1 (a, y);\nendmodule\n", "W=37"),
        ("tgt.vt", "module t;\n  tgt #(37, 5) i1 (a, y);\nendmodule\n", "W=37, D=5"),
        ("net.vo", "module t;\n  tgt #(.w(37)) i1 (a, y);\nendmodule\n", "W=37"),
        ("tb.vhd", VHDL.format("37"), "W=37"),
        (  # a comment in the list sets nothing (picosoc's testbench explains its value)
            "tgt.vt",
            "module t;\n  tgt #(\n    // why (W) is 37\n    .W(37) /* D: default */\n  ) i1 (a, y);\nendmodule\n",
            "W=37",
        ),
        ("tb.vhd", VHDL.format("w => 37 -- narrow (in simulation)"), "W=37"),
        ("tb.vhd", VHDL.format("w => 37"), "W=37"),
        ("tb.vhd", VHDL.replace("work.tgt", "work.TGT").format("37"), "W=37"),
        (
            "cfg.sv",
            "config c;\n design work.tb;\n instance tb.dut use #(.W(37));\nendconfig\n",
            "W=37",
        ),
        ("cfg.sv", "config c;\n design work.tb;\n instance tb.dut use #(37);\nendconfig\n", "W=37"),
    ],
)
def test_literal_list_checked(tmp_path: Path, name: str, text: str, label: str) -> None:
    extra, why = _run(tmp_path, {name: text})
    assert why == "" and any(e.startswith(label) for e in extra), (extra, why)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("tgt.vt", "module t;\n  tgt #(`TBW) i1 (a, y);\nendmodule\n"),
        ("tgt.vt", "module t;\n  tgt #(N + 1) i1 (a, y);\nendmodule\n"),
        ("tb.vhd", VHDL.format("WIDTH_C")),
        ("tb.vhd", VHDL.format("37, 2, 9")),
        ("cfg.sv", "config c;\n design work.tb;\n instance tb.dut use #(3, 4, 5);\nendconfig\n"),
        (
            "tb.v",  # elaborated by the frontend: slang reads an undefined macro as nothing
            "module tb;\n  reg [7:0] a; wire [7:0] y;\n  tgt #(`TBW) dut(a, y);\nendmodule\n",
        ),
    ],
)
def test_unread_list_unchecked(tmp_path: Path, name: str, text: str) -> None:
    files = {name: text, "Makefile": "sim:\n\tiverilog -DTBW=37 tgt.v tb.v\n"}
    _, why = _run(tmp_path, files)
    assert name in why and "cannot read as a literal" in why


def test_module_header_copy_no_instance(tmp_path: Path) -> None:
    extra, why = _run(tmp_path, {"old/tgt.vt": TGT.replace("W = 8", "W = 9")})
    assert why == "" and extra == []


def test_defined_macro_read_by_slang(tmp_path: Path) -> None:
    tb = "`define TBW 16\nmodule tb;\n  reg [15:0] a; wire [15:0] y;\n  tgt #(`TBW) dut(a, y);\nendmodule\n"
    _, why = _run(tmp_path, {"tb.v": tb})
    assert why == ""


WRAP = """module wrap #(parameter WW = 8) (input [WW-1:0] a, output [WW-1:0] y);
  tgt #(.W(WW)) u (.a(a), .y(y));
endmodule
module top (input [7:0] a, output [7:0] y);
  wrap u (.a(a), .y(y));
endmodule
"""


def test_list_of_a_module_above_handed_down(tmp_path: Path) -> None:
    tb = "module t;\n  wrap #(37) i1 (a, y);\nendmodule\n"
    extra, why = _run(tmp_path, {"wrap.v": WRAP, "tb.vt": tb})
    assert why == "" and any(e.startswith("W=37") for e in extra), (extra, why)


def test_unread_list_of_a_module_above_unchecked(tmp_path: Path) -> None:
    tb = "module t;\n  wrap #(`WW) i1 (a, y);\nendmodule\n"
    _, why = _run(tmp_path, {"wrap.v": WRAP, "tb.vt": tb})
    assert "tb.vt:2" in why, why


def test_bare_value_and_documents(tmp_path: Path) -> None:
    tb = "module t;\n  tgt #37 i1 (a, y);\nendmodule\n"
    extra, why = _run(tmp_path, {"tb.vt": tb, "README.md": "Use `tgt #(`W) u (...)`.\n"})
    assert why == "" and any(e.startswith("W=37") for e in extra), (extra, why)


def test_unelaborable_file_with_a_list_unchecked(tmp_path: Path) -> None:
    tb = "module tb;\n  reg [7:0] a; wire [7:0] y;\n  localparam L = `TBW;\n  tgt #(L) dut(a, y);\nendmodule\n"
    _, why = _run(tmp_path, {"tb.v": tb})
    assert why.startswith("tb.v:4 sets parameters of an instance (tgt #(L))"), why
    assert "UnknownDirective" in why


def test_error_away_from_the_values_checked(tmp_path: Path) -> None:
    tb = '`include "missing.svh"\nmodule tb;\n  reg [7:0] a; wire [7:0] y;\n  tgt #(.W(8)) dut(a, y);\nendmodule\n'
    _, why = _run(tmp_path, {"tb.v": tb})
    assert why == "", why


def test_vhdl_component_renamed_generic_map_read(tmp_path: Path) -> None:
    vhd = (
        "architecture sim of tb is\n  component inverter end component;\n"
        "  for all : inverter use entity work.tgt;\nbegin\n"
        "  u : inverter generic map (37) port map (a, y);\nend;\n"
    )
    extra, why = _run(tmp_path, {"tb.vhd": vhd})
    assert why == "" and any(e.startswith("W=37") for e in extra), (extra, why)
