"""Red team w24 F1/F2: power-up values the tools read but the rules did not.

- F1: a header included inside a module states a value only in its context (a macro the
  target's file defines, the initializer of the declaration around the ```include``): the
  unit is now read as slang reads it (headers and macros expanded, the design's defines and
  include folders), and what cannot be read so fails closed.
- F2: a value held outside modules (an interface, a package, ``$unit``, a class, a program,
  a checker) counts as a stated power-up value, under both power-up models.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.harness._powered import text_power_up, unit_power_up
from rtlopt.harness._semantics import power_up_difference, power_up_values, strip_initial_values

HEAD = "module m (input clk, input [31:0] k, output [7:0] y);\n"
TAIL = (
    "  always @(posedge clk) c <= c + 8'd1;\n"
    "  assign y = (k == 32'h01234567) ? c : 8'd0;\nendmodule\n"
)
MACRO = "`define PU initial c = 8'd0;\n" + HEAD + '  reg [7:0] c;\n  `include "m_init.vh"\n' + TAIL
SPLIT = HEAD + '  reg [7:0] c\n  `include "m_init.vh"\n  ;\n' + TAIL
PLAIN = HEAD + "  reg [7:0] c;\n" + TAIL


def _design(tmp_path: Path, files: dict[str, str], target: str = "rtl/m.v") -> Design:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return load_design(tmp_path / target, "m", Config().project, root=tmp_path)


@pytest.mark.parametrize(
    ("ref", "header"), [(MACRO, "`PU\n"), (SPLIT, "= 8'd0\n")], ids=["macro", "split"]
)
def test_a_header_states_a_value_in_its_context(tmp_path: Path, ref: str, header: str) -> None:
    d = _design(tmp_path, {"rtl/m.v": ref, "rtl/m_init.vh": header})
    read = unit_power_up(d)
    assert read["m"] == {"c": ("8\0'd\0" + "0",)}, read
    why = power_up_difference(text_power_up(PLAIN, d), read, hierarchy=["m"])
    assert "c in m loses its power-up value 8'd0" in why, why
    # a candidate keeping the include reads the same header beside the target's file
    assert text_power_up(ref, d)["m"] == read["m"]


def test_a_header_of_macros_only_is_read_without_values(tmp_path: Path) -> None:
    ops = "`define OP_A 7'd3\n`define OP_B 7'd5\n"
    ref = HEAD + '`include "ops.vh"\n  reg [7:0] c;\n  wire w = k[6:0] == `OP_A;\n' + TAIL
    d = _design(tmp_path, {"rtl/m.v": ref, "rtl/ops.vh": ops})
    assert unit_power_up(d) == {"m": {}}
    assert power_up_difference(text_power_up(ref, d), unit_power_up(d), hierarchy=["m"]) == ""


@pytest.mark.parametrize(
    "files",
    [
        {"rtl/m_init.vh": "`PU\n"},  # the macro undefined: slang names it
        {"rtl/m_init.vh": "= 8'd0 +\n"},  # a fragment that does not parse
        {"rtl/m_init.vh": None},  # not found
        {"sub/m_init.vh": "initial c = 8'd0;\n", "sub/u.v": "module u;\nendmodule\n"},
    ],
    ids=["undefined-macro", "parse-error", "missing", "namesake"],
)
def test_what_cannot_be_read_as_the_tools_read_it_fails_closed(
    tmp_path: Path, files: dict[str, str | None]
) -> None:
    d = _design(tmp_path, {"rtl/m.v": SPLIT, "rtl/m_init.vh": "\n"})
    for rel, text in files.items():  # changed once the design is read
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        if text is None:
            (tmp_path / rel).unlink()
        else:
            (tmp_path / rel).write_text(text)
    if "sub/u.v" in files:  # a file of the design in another folder
        d = load_design(tmp_path / "rtl/m.v", "m", Config().project, root=tmp_path)
    with pytest.raises(RuntimeError):
        unit_power_up(d)
    with pytest.raises(RuntimeError):
        text_power_up(SPLIT, d)


def test_values_outside_modules_are_power_up_values() -> None:
    text = (
        "interface cnt_if; logic [7:0] c = 8'd0; endinterface\n"
        "package p; logic [3:0] q = 4'd1; localparam int K = 3; endpackage\n"
        "logic u = 1'b1;\n"
        "class C; static int s = 2; function int f(); int t = 1; return t; endfunction endclass\n"
        "program pr; int z; initial z = 5; endprogram\n"
        "checker ck; logic v = 1'b0; endchecker\n"
        "module m; cnt_if i(); endmodule\n"
    )
    got = power_up_values(text)
    assert set(got) == {
        "interface cnt_if",
        "package p",
        "$unit",
        "class C",
        "program pr",
        "checker ck",
        "m",
    }, got
    assert got["m"] == {} and set(got["package p"]) == {"q"} and set(got["class C"]) == {"s"}


def test_an_interface_value_is_stated_for_the_hierarchy() -> None:
    ref = "interface cnt_if;\n  logic [7:0] c = 8'd0;\nendinterface\n" + HEAD + TAIL
    # named where no formal check proves it; with one, the plan states it (the proof from
    # the stated values runs: test_honored_values_outside_the_module_texts_are_stated)
    why = power_up_difference(PLAIN, ref, hierarchy=["m"], unproven=True)
    assert "c in interface cnt_if has the power-up value 8'd0" in why, why
    assert power_up_difference(PLAIN, ref, hierarchy=["m"]) == ""


def test_initial_values_of_every_module_of_a_text_are_blanked() -> None:
    text = "module a; reg x = 1; endmodule\nmodule b; reg y = 2; initial y = 3; endmodule\n"
    assert strip_initial_values(text) == text.replace(" = 1", "    ").replace(
        " = 2", "    "
    ).replace("initial y = 3;", " " * len("initial y = 3;"))


@pytest.mark.parametrize(
    "files",
    [
        {"rtl/m.v": "interface cnt_if; logic [7:0] c = 8'd0; endinterface\n" + PLAIN},
        {"rtl/m.v": SPLIT, "rtl/m_init.vh": "= 8'd0\n"},
    ],
    ids=["interface", "header"],
)
def test_honored_values_outside_the_module_texts_are_stated(
    tmp_path: Path, files: dict[str, str]
) -> None:
    # the plan names them: the proof from the stated power-up values runs (alone under
    # honor, beside the proof from unknown registers under ignore)
    from rtlopt.formal.plan import plan_formal

    d = _design(tmp_path, files)
    plan = plan_formal(d, [PLAIN], initial_values="honor")
    assert plan.mode != "unsupported" and plan.honor, plan
    assert plan.stated and "c in" in plan.stated[0], plan
    # under ignore the unit is not read again (the text rule compared both sides' values):
    # the reference as the proof reads it (preprocessed: the header expanded) names them
    ref = files["rtl/m.v"].replace('`include "m_init.vh"', files.get("rtl/m_init.vh", ""))
    ignored = plan_formal(d, [PLAIN], initial_values="ignore", reference=ref)
    assert ignored.stated and "c in" in ignored.stated[0] and not ignored.honor, ignored


def test_primitives_and_struct_defaults_state_values_enum_members_do_not() -> None:
    text = (
        "primitive p (q, clk, d); output reg q; input clk, d; initial q = 1'b0;\n"
        "  table r 0 : ? : 0; r 1 : ? : 1; endtable\nendprimitive\n"
        "package k; typedef struct { logic [7:0] c = 8'd5; } s_t; endpackage\n"
        "module m; typedef enum logic [1:0] {A = 0, B = 2} e_t; e_t s; endmodule\n"
    )
    got = power_up_values(text)
    assert got["m"] == {}, got  # enumeration members are constants
    assert set(got["primitive p"]) == {"q"} and set(got["package k"]) == {"c"}, got
    assert "initial" not in strip_initial_values(text)
