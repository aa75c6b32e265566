"""The candidate must compile in every language mode and directive state a build of the
repository may compile the target in, where the repository's module compiles
(``evaluate/_build_modes.py``): a Verilog generation (``iverilog -g2005``, Icarus's default,
Yosys ``read_verilog`` without ``-sv``) and a ```default_nettype none`` a file compiled
before it leaves in force."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.evaluate import _build_modes as bm

pytestmark = pytest.mark.tools

REF = "module mux(input s, input [3:0] a, b, output [3:0] y);\n  assign y = s ? a : b;\nendmodule\n"
SV = (
    "module mux(input logic s, input logic [3:0] a, b, output logic [3:0] y);\n"
    "  always_comb y = s ? a : b;\nendmodule\n"
)
IMPLICIT = (
    "module mux(input s, input [3:0] a, b, output [3:0] y);\n"
    "  assign sel = s;\n  assign y = sel ? a : b;\nendmodule\n"
)
SUB = (
    "module mux(input s, input [3:0] a, b, output [3:0] y);\n"
    "  inner u(.s(s), .a(a), .b(b), .y(y));\nendmodule\n"
)


@pytest.mark.parametrize(
    ("text", "gens"),
    [
        ("sim:\n\tiverilog -g2005 -o s.vvp *.v\n", {"2005"}),
        ("sim:\n\tiverilog -o s.vvp *.v\n", {"2005"}),  # Icarus's default generation
        ("IVFLAGS = -g2001-noconfig\n", {"2001"}),
        ("sim:\n\tiverilog -g2012 -o s.vvp *.v\n", set()),
        ("read_verilog mux.v\nsynth\n", {"2005"}),
        ("read_verilog -sv mux.v\n", set()),
        ("read -vlog95 mux.v\n", {"1995"}),
        ("verilator --language 1364-2001 --lint-only mux.v\n", {"2001"}),
    ],
)
def test_generations_a_build_names(text: str, gens: set[str]) -> None:
    assert bm.modes_named([text])[0] == gens


def test_nettype_any_text_writes() -> None:
    assert bm.modes_named(["`default_nettype none\nmodule t; endmodule\n"])[1] == {"none"}
    assert [m[0] for m in bm.build_modes(["`default_nettype wire\n"])] == []
    assert [m[0] for m in bm.build_modes(["`default_nettype tri0\n"])] == ["`default_nettype tri0"]


def test_sv_candidate_refused_under_a_verilog_generation(tmp_path: Path) -> None:
    why = bm.mode_refusal(REF, SV, ["sim:\n\tiverilog -g2005 *.v\n"], tmp_path)
    assert "-g2005" in why and "Verilog generation" in why
    assert bm.mode_refusal(REF, SV, ["sim:\n\tiverilog -g2012 *.v\n"], tmp_path) == ""
    # the repository's own module is SystemVerilog: no build compiles it so
    assert (
        bm.mode_refusal(SV, SV.replace("? a : b", "? a : b "), ["iverilog x.v\n"], tmp_path) == ""
    )


def test_implicit_net_refused_under_nettype_none(tmp_path: Path) -> None:
    texts = ["module tb; endmodule\n`default_nettype none\n"]
    why = bm.mode_refusal(REF, IMPLICIT, texts, tmp_path)
    assert "`default_nettype none" in why and "implicit net" in why
    assert bm.mode_refusal(REF, IMPLICIT, ["module tb; endmodule\n"], tmp_path) == ""
    assert bm.mode_refusal(REF, REF, texts, tmp_path) == ""


def test_missing_submodules_are_no_error(tmp_path: Path) -> None:
    texts = ["iverilog -g2005 x.v\n`default_nettype none\n"]
    assert bm.mode_refusal(REF, SUB, texts, tmp_path) == ""
    assert bm.mode_refusal(SUB, REF, texts, tmp_path) == ""
