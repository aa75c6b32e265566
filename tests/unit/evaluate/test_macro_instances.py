"""A macro standing where an instance names its module (:mod:`rtlopt.evaluate._macro_instances`):
what counts as one, and which instances may be of the target."""

from __future__ import annotations

from rtlopt.evaluate._macro_instances import _definitions, _given, _may_be, macro_cells


def _cells(code: str) -> list[str]:
    return [name for _at, _end, name, _args in macro_cells(code)]


def test_a_macro_naming_an_instances_module_is_found() -> None:
    code = (
        "module top;\n  `CORE #(.K(8'd200)) u(.a(a), .y(y));\n  `CELL(x) v [1:0] (.a(a));\n"
        "  `PLAIN w(a, y);\nendmodule\n"
    )
    assert _cells(code) == ["CORE", "CELL", "PLAIN"]


def test_macro_statements_are_no_instances() -> None:
    code = (
        "module top;\n  `ASSERT(A, a |-> b)\n  if (P) begin end\n  `FF(q, d, '0)\n"
        "  `FF(r, q, '0)\n  `KEEP reg [7:0] x;\n  `CSR(id)\n  x[0] = 1'b0;\nendmodule\n"
    )
    assert _cells(code) == []


def test_an_instance_connecting_a_name_the_target_lacks_is_not_of_it() -> None:
    code = "`CORE #(.K(1)) u(.a(a), .y(y));"
    end = code.index(" #")
    assert _may_be(code, end, {"K"}, {"a", "y"})
    assert not _may_be(code, end, {"W"}, {"a", "y"})
    assert not _may_be(code, end, {"K"}, {"a", "z"})
    assert _may_be("`CORE u(.*);", 5, set(), {"b"})
    assert _may_be("`CORE u(a, y);", 5, set(), {"b"})


def test_a_definition_through_a_macro_only_a_build_defines_gives_no_module() -> None:
    code = "`define CORE `IMPL\n`define NAME m\n`define BOTH `NAME\n"
    visible = _definitions(code)
    assert not _given("CORE", visible)  # IMPL: only a build's -DIMPL=...
    assert _given("NAME", visible) and _given("BOTH", visible)
    assert not _given("OTHER", visible)
