"""Where the tools may give the target other parameter values than slang's elaboration: slang's
diagnostics and the constructs the tools read differently (red team 34, F6), and Yosys's own
values (F4c), each named by file and line; a parent the tools read alike names nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.frontend._param_agree import disagreements
from rtlopt.frontend._param_yosys import parse_const, same_value

M = """module m #(parameter [7:0] K = 8'd1) (input [7:0] a, output [7:0] y);
  assign y = a + K;
endmodule
"""
#: A body parameter beside a header parameter list: local to slang, overridable elsewhere.
BODY = """module m #(parameter A = 1) (input [7:0] a, output [7:0] y);
  parameter [7:0] K = 8'd1;
  assign y = a + K;
endmodule
"""


def _top(inst: str) -> str:
    return f"module top(input [7:0] a, output [7:0] y);\n  {inst}\nendmodule\n"


#: form -> (the target's module, the parent's instance, what the first reason says)
FORMS = {
    "duplicate": (M, "m #(.K(8'd200), .K(8'd99)) u(.a(a), .y(y));", "overridden twice"),
    "twodp": (
        M,
        "m u(.a(a), .y(y)); defparam u.K = 8'd200; defparam u.K = 8'd99;",
        "overridden twice",
    ),
    "dpover": (M, "m #(.K(8'd200)) u(.a(a), .y(y)); defparam u.K = 8'd99;", "overridden twice"),
    "bigdec": (M, "m #(.K(123456789012 >> 32)) u(.a(a), .y(y));", "wider than 32 bits"),
    "bodyparam": (BODY, "m #(.A(1), .K(8'd99)) u(.a(a), .y(y));", "a body parameter of m"),
    "bodydp": (BODY, "m u(.a(a), .y(y)); defparam u.K = 8'd99;", "a body parameter of m"),
}


def _design(tmp_path: Path, module: str, inst: str) -> object:
    (tmp_path / "m.v").write_text(module)
    (tmp_path / "top.v").write_text(_top(inst))
    return load_design(tmp_path / "m.v", "m", ProjectConfig())


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_form_the_tools_elaborate_differently_is_named_by_file_and_line(
    tmp_path: Path, form: str
) -> None:
    module, inst, why = FORMS[form]
    got = disagreements(_design(tmp_path, module, inst), yosys=False)  # type: ignore[arg-type]
    assert got.reasons, form
    assert got.reasons[0].startswith(f"{tmp_path / 'top.v'}:"), got.reasons
    assert why in got.reasons[0], got.reasons


@pytest.mark.parametrize(
    ("form", "code"),
    [
        ("duplicate", "duplicate assignment for parameter 'K'"),
        ("twodp", "already has a defparam override applied"),
        ("bigdec", "overflows 32 bits"),
        ("bodyparam", "can't assign a value to a localparam"),
        ("bodydp", "cannot be the target of a defparam"),
    ],
)
def test_slangs_own_diagnostic_on_a_parents_override_is_a_reason(
    tmp_path: Path, form: str, code: str
) -> None:
    module, inst, _why = FORMS[form]
    got = disagreements(_design(tmp_path, module, inst), yosys=False)  # type: ignore[arg-type]
    assert any("slang reports" in r and code in r for r in got.reasons), got.reasons


def test_overrides_the_tools_read_alike_name_nothing(tmp_path: Path) -> None:
    inst = "m #(.K(8'd200)) u(.a(a), .y(y));\n  m u2(.a(a), .y());\n  m #(8'd3) u3(.a(a), .y());"
    got = disagreements(_design(tmp_path, M, inst), yosys=False)  # type: ignore[arg-type]
    assert got.reasons == []
    assert sorted(v["K"] for v in got.values) == [  # type: ignore[type-var]
        (8, "00000001"),
        (8, "00000011"),
        (8, "11001000"),
    ]


def test_a_body_parameter_nobody_overrides_names_nothing(tmp_path: Path) -> None:
    got = disagreements(_design(tmp_path, BODY, "m #(.A(2)) u(.a(a), .y(y));"), yosys=False)  # type: ignore[arg-type]
    assert got.reasons == []


def test_a_target_nothing_instantiates_has_no_parents_to_doubt(tmp_path: Path) -> None:
    (tmp_path / "m.v").write_text(M)
    got = disagreements(load_design(tmp_path / "m.v", "m", ProjectConfig()), yosys=False)
    assert got.reasons == [] and got.values == [{"K": (8, "00000001")}]


def test_rtlil_constants_and_their_comparison() -> None:
    assert parse_const("8'00010000") == (8, "00010000")
    assert parse_const("1") == (32, "0" * 31 + "1")
    assert parse_const('"ab"') == (16, "0110000101100010")
    assert parse_const("4'x") == (4, "000x")
    assert same_value((8, "00010000"), (8, "00010000"))
    assert not same_value((8, "00010000"), (8, "11110000"))
    assert same_value((8, "00000011"), (32, "0" * 30 + "11"))  # the same non-negative number
    assert not same_value((8, "11111111"), (32, "0" * 24 + "1" * 8))  # -1 or 255: unknown
    assert not same_value(None, (8, "00000001"))


@pytest.mark.tools
@pytest.mark.parametrize(
    ("inst", "yosys", "slang"),
    [
        # Yosys 0.23's read_verilog reads the fill literal in a parameter value as 1
        ("m #(.K('1)) u(.a(a), .y(y));", "K=8'h1", "K=8'hff"),
        # ... and 'sh8000_0000 >>> 27 as 16 (slang and iverilog: 240)
        ("m #(.K('sh8000_0000 >>> 27)) u(.a(a), .y(y));", "K=8'h10", "K=8'hf0"),
        # dpover: Yosys keeps the #() value, slang (and iverilog) the defparam's
        ("m #(.K(8'd200)) u(.a(a), .y(y)); defparam u.K = 8'd99;", "K=8'hc8", "K=8'h63"),
    ],
)
def test_yosys_values_slang_does_not_elaborate_are_named(
    tmp_path: Path, inst: str, yosys: str, slang: str
) -> None:
    got = disagreements(_design(tmp_path, M, inst))  # type: ignore[arg-type]
    line = next((r for r in got.reasons if r.startswith("Yosys")), "")
    assert f"with {yosys}," in line and f"slang: {slang}" in line, got.reasons
    assert got.notes == []


@pytest.mark.tools
def test_yosys_and_slang_agreeing_name_nothing(tmp_path: Path) -> None:
    inst = (
        "m #(.K(8'd200)) u(.a(a), .y(y));\n  m u2(.a(a), .y());\n  m #(.K(3 + 4)) u3(.a(a), .y());"
    )
    got = disagreements(_design(tmp_path, M, inst))  # type: ignore[arg-type]
    assert got.reasons == [] and got.notes == []


@pytest.mark.tools
def test_a_repository_yosys_cannot_read_is_noted_not_doubted(tmp_path: Path) -> None:
    top = _top("m #(.K(8'd3)) u(.a(a), .y(y));").replace(
        "endmodule", "  typedef struct packed { logic a; } s_t;\n  s_t q = s_t'(0);\nendmodule"
    )
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top.sv").write_text(top)
    got = disagreements(load_design(tmp_path / "m.v", "m", ProjectConfig()))
    assert got.reasons == []
    assert any("not cross-checked with Yosys" in n for n in got.notes), got.notes


@pytest.mark.tools
@pytest.mark.parametrize(
    "inst",
    [
        "m #(.K($bits(s_t))) u(.a(a), .y(y));",
        "m #(.K(8'd1 + 8'd2)) u(.a(a), .y(y));",
        "m u(.a(a), .y(y)); defparam u.K = 8'd3;",
    ],
    ids=["bits", "expression", "defparam"],
)
def test_a_verilog_repository_yosys_cannot_read_leaves_an_override_unchecked(
    tmp_path: Path, inst: str
) -> None:
    # red team 36: the cross-check that cannot run was a note, and the values went unchecked
    top = _F1_STRUCT + _top(inst).replace("endmodule", "  s_t q = s_t'(0);\nendmodule")
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top.v").write_text(top)
    got = disagreements(load_design(tmp_path / "m.v", "m", ProjectConfig()))
    assert any("not cross-checked with Yosys" in r for r in got.reasons), (got.reasons, got.notes)


@pytest.mark.tools
def test_a_systemverilog_repository_yosys_cannot_read_is_noted(tmp_path: Path) -> None:
    # Yosys builds none of it (rtlopt reads it through slang): ibex's parents pass '0 and
    # struct literals to ibex_csr, and Yosys 0.23 cannot parse ibex_pkg
    inst = "m #(.K(8'd1 + 8'd2)) u(.a(a), .y(y));"
    top = _top(inst).replace(
        "endmodule", "  typedef logic [1:0] s_t;\n  s_t q = s_t'(0);\nendmodule"
    )
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top.sv").write_text(top)
    got = disagreements(load_design(tmp_path / "m.v", "m", ProjectConfig()))
    assert got.reasons == [], got.reasons
    assert any("not cross-checked with Yosys" in n for n in got.notes), got.notes


#: A struct whose field list a macro chooses (red team 36 F1): its width is no plain value.
_F1_STRUCT = (
    "typedef struct packed {\n  logic a;\n`ifndef SYNTHESIS\n  logic [198:0] dbg;\n`endif\n} s_t;\n"
)


@pytest.mark.tools
def test_the_width_of_a_plain_type_is_noted_not_doubted(tmp_path: Path) -> None:
    top = "typedef struct packed { logic a; logic [6:0] b; } s_t;\n" + _top(
        "m #(.K($bits(s_t))) u(.a(a), .y(y));"
    ).replace("endmodule", "  s_t q = s_t'(0);\nendmodule")
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top.sv").write_text(top)
    got = disagreements(load_design(tmp_path / "m.v", "m", ProjectConfig()))
    assert got.reasons == [] and got.notes, (got.reasons, got.notes)


@pytest.mark.parametrize(
    ("decl", "arg", "doubted"),
    [
        ("wire [199:0] w;", "w", True),
        ("reg [199:0] w;", "w", True),
        ("wire [199:0] w;", "w[3:0]", True),
        ("typedef logic [199:0] w_t;", "w_t", False),
    ],
)
def test_an_array_query_of_a_signal_in_a_value_is_a_reason(
    tmp_path: Path, decl: str, arg: str, doubted: bool
) -> None:
    # red team 36 F2: iverilog 11 reads $bits of a net or variable in a constant as 0
    top = _top(f"{decl}\n  m #(.K($bits({arg}))) u(.a(a), .y(y));")
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top.sv").write_text(top)
    got = disagreements(load_design(tmp_path / "m.v", "m", ProjectConfig()), yosys=False)
    hit = [r for r in got.reasons if "array query" in r]
    assert bool(hit) == doubted, got.reasons
    if doubted:
        assert hit[0].startswith(f"{tmp_path / 'top.sv'}:3: $bits("), hit


@pytest.mark.tools
def test_a_parents_parameter_its_own_parent_overrides_is_no_plain_value(tmp_path: Path) -> None:
    # the target's `.K(W)` names the parent's W: its default is a number, its value is not
    mid = (
        "module mid #(parameter [7:0] W = 8'd1) (input [7:0] a, output [7:0] y);\n"
        "  m #(.K(W)) u(.a(a), .y(y));\nendmodule\n"
    )
    top = (
        "typedef struct packed { logic a; logic [6:0] b; } s_t;\n"
        "module top(input [7:0] a, output [7:0] y);\n  s_t q = s_t'(0);\n"
        "  mid #(.W(8'd1 + 8'd199)) u(.a(a), .y(y));\nendmodule\n"
    )
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "mid.v").write_text(mid)
    (tmp_path / "top.v").write_text(top)
    got = disagreements(load_design(tmp_path / "m.v", "m", ProjectConfig()))
    assert any("not cross-checked with Yosys" in r for r in got.reasons), (got.reasons, got.notes)
