"""The target's parameterizations in every reading: the values a parent passes under
```ifdef SYNTHESIS``, a simulator's macro or another build's macro are configurations too."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import _reading_params as rp
from rtlopt.frontend import load_design
from rtlopt.frontend._params import parameterizations
from tests.reading_designs import AGREE, FORMS, M

pytestmark = pytest.mark.tools  # slang


def _design(tmp_path: Path, files: dict[str, str]):
    for name, text in {"m.v": M, **files}.items():
        (tmp_path / name).write_text(text)
    return load_design(tmp_path / "m.v", None, Config().project)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_another_readings_value_is_a_configuration(tmp_path: Path, form: str) -> None:
    design = _design(tmp_path, FORMS[form])
    found = parameterizations(design)
    assert "8'd200" not in {v for pz in found for _, v in pz.values}  # synthesis: K = 1
    more = rp.reading_parameterizations(design, found)
    assert not more.unchecked
    assert [pz.values for pz in more.extra] == [(("K", "8'd200"),)], more
    assert all("(with " in w for pz in more.extra for w in pz.where)


def test_readings_that_agree_add_nothing_and_elaborate_nothing(tmp_path: Path) -> None:
    design = _design(tmp_path, AGREE)
    more = rp.reading_parameterizations(design, parameterizations(design))
    assert more == rp.ReadingParams()


def test_too_many_readings_leave_the_change_unchecked(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(rp, "MAX_READINGS", 1)
    design = _design(tmp_path, FORMS["sim"])
    top = (tmp_path / "top.v").read_text().replace("SIMULATION", "A_BUILD\n`elsif B_BUILD")
    (tmp_path / "top.v").write_text(top)
    design = _design(tmp_path, {"top.v": top})
    more = rp.reading_parameterizations(design, parameterizations(design))
    assert more.unchecked.startswith("top.v tests macro B_BUILD"), more.unchecked
    assert "exceed 1" in more.unchecked


def test_a_branch_that_only_reads_a_parameter_is_no_reading(tmp_path: Path) -> None:
    top = (
        "module top(input [7:0] a, output [7:0] y);\n  localparam [7:0] P = 8'd3;\n"
        "`ifdef FORMAL\n  wire [7:0] seen = P;\n`endif\n  m #(.K(P)) u(.a(a), .y(y));\nendmodule\n"
    )
    design = _design(tmp_path, {"top.v": top})
    files, above = rp._files_above(design)
    assert rp.reading_macros(design, files, above)[0] == set()


@pytest.mark.parametrize(
    "top",
    [
        # a constant function's body chosen by a macro
        "module top(input [7:0] a, output [7:0] y);\n  function [7:0] kf;\n    input x;\n"
        "`ifdef FAST\n    kf = 8'd200;\n`else\n    kf = 8'd1;\n`endif\n  endfunction\n"
        "  m #(.K(kf(1'b0))) u(.a(a), .y(y));\nendmodule\n",
        # a package imported by a macro's choice
        "package p1; localparam [7:0] KP = 8'd1; endpackage\n"
        "package p2; localparam [7:0] KP = 8'd200; endpackage\n"
        "module top(input [7:0] a, output [7:0] y);\n`ifdef FAST\n  import p2::*;\n`else\n"
        "  import p1::*;\n`endif\n  m #(.K(KP)) u(.a(a), .y(y));\nendmodule\n",
    ],
    ids=["function", "import"],
)
def test_a_value_a_function_or_an_import_chooses_is_a_configuration(
    tmp_path: Path, top: str
) -> None:
    design = _design(tmp_path, {"top.sv": top})
    more = rp.reading_parameterizations(design, parameterizations(design))
    assert [pz.values for pz in more.extra] == [(("K", "8'd200"),)], more


#: red team 36 F1: a branch inside a declaration a value reaches (a struct's field list, an
#: enum's members, a signal's type): its macro is a reading.
_STRUCT = (
    "typedef struct packed {\n  logic [0:0] a;\n`ifndef SYNTHESIS\n  logic [198:0] dbg;\n"
    "`endif\n} s_t;\n"
)


@pytest.mark.parametrize(
    "top",
    [
        _STRUCT + "module top(input [7:0] a, output [7:0] y);\n"
        "  m #(.K($bits(s_t))) u(.a(a), .y(y));\nendmodule\n",
        _STRUCT + "module top(input [7:0] a, output [7:0] y);\n  localparam int W = $bits(s_t);\n"
        "  m #(.K(W)) u(.a(a), .y(y));\nendmodule\n",
        "package p;\n" + _STRUCT + "endpackage\nmodule top(input [7:0] a, output [7:0] y);\n"
        "  m #(.K($bits(p::s_t))) u(.a(a), .y(y));\nendmodule\n",
        _STRUCT + "module top(input [7:0] a, output [7:0] y);\n  s_t w;\n"
        "  m #(.K($bits(w))) u(.a(a), .y(y));\nendmodule\n",
    ],
    ids=["bits", "localparam", "package", "signal"],
)
def test_a_branch_inside_a_type_a_value_reaches_is_a_reading(tmp_path: Path, top: str) -> None:
    design = _design(tmp_path, {"top.sv": top})
    found = parameterizations(design)
    more = rp.reading_parameterizations(design, found)
    assert not more.unchecked
    assert [pz.values for pz in more.extra] == [(("K", "8'd200"),)], more
