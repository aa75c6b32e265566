"""Macro arguments the tools read differently (red team w20 F7): a stringified argument keeps
its line break, comments and blank runs in Yosys 0.23 ("p  q"), not in iverilog nor in the
preprocessed text the tools here read ("p q")."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.harness._hierarchy import DesignText
from rtlopt.harness._macro_args import (
    macro_argument_problems,
    odd_macro_calls,
    reference_macro_problems,
    string_argument_uses,
    stringified_arguments,
    unbalanced_macro_uses,
)

STRINGIFY = (
    "module tgt(input [63:0] a, output [63:0] y);\n"
    "  localparam [63:0] K = `S(p\n"
    "  q);\n"
    "  assign y = a ^ K;\n"
    "endmodule\n"
)
DEFINE = '`define S(x) `"x`"\n'


def _problems(new: str, define: str = DEFINE) -> list[tuple[int, str]]:
    return macro_argument_problems(new, lambda: [define])


def _reference(text: str, defs: str = DEFINE, name: str = "m.v") -> list[tuple[int, str]]:
    return reference_macro_problems([DesignText(Path(name), 1, text)], [], lambda: [defs])


@pytest.mark.parametrize(
    ("new", "found"),
    [
        (STRINGIFY.replace("  assign y = a ^ K;", "  assign y = K ^ a;"), True),  # kept: no pass
        (STRINGIFY.replace("  q);", "      q);"), True),  # re-indented inside the list
        (STRINGIFY.replace("  q);", "  /*1*/q);"), True),  # a comment inside it
        (STRINGIFY.replace("`S(p\n  q);", "`S(p q);"), False),  # plainly written
        (STRINGIFY.replace("`S(p\n  q);", "`S(p\tq);"), True),
    ],
)
def test_a_stringified_arguments_odd_blanks_are_screened(new: str, found: bool) -> None:
    problems = _problems(new)
    assert bool(problems) is found, problems
    assert all("read differently by the tools" in msg for _, msg in problems)


def test_an_argument_no_stringification_reaches_takes_any_blanks() -> None:
    plain = "`define S(x) (x)\n"
    assert not _problems(STRINGIFY.replace("  q);", "      q);"), plain)
    # passed on to another macro, it may be stringified there; an unknown macro likewise
    assert stringified_arguments(["`define S(x, y) `T(x) + y\n"]) == {"S": frozenset({0})}
    assert odd_macro_calls("`U(a,\n  b)")  # no definition: every argument
    risky = stringified_arguments(["`define A(n, p) n: assert (p) else `E(n)\n"])
    assert not odd_macro_calls("`A(Name, a &&\n    b)", risky)  # the property is no string
    # blanks at an argument's ends are dropped by every tool
    assert not odd_macro_calls("`S(a,  b )", {"S": frozenset({0, 1})})


def test_a_macro_that_opens_or_closes_an_argument_list_is_not_used_by_a_candidate() -> None:
    header = '`define S(x) `"x`"\n`define OPEN `S(\n`define CLOSE )\n`define W (8)\n'
    text = "  localparam [63:0] K = `OPEN p  q `CLOSE;\n  localparam W = `W; // `OPEN\n"
    found = unbalanced_macro_uses(text, lambda: [header])
    assert [line for line, _ in found] == [1, 1]
    assert "`OPEN" in found[0][1] and "`CLOSE" in found[1][1]
    assert unbalanced_macro_uses("  localparam W = `W;\n", lambda: [header]) == []
    # no macro used: the repository's texts are not read
    assert unbalanced_macro_uses("assign y = a;\n", lambda: pytest.fail("read")) == []


def test_a_macro_naming_its_argument_in_a_string_is_not_judged_on_either_side() -> None:
    # red team w21 F4: `define S(x) "x": iverilog -E substitutes ("p q"), Yosys does not ("x")
    defs = '`define S(x) "x"\n`define T(x) `"x`"\n`define U(y) {"x", y}\n'
    ref = "  localparam [63:0] K = `S(p q);\n"
    found = _reference(ref, defs)
    assert found and "unchecked: the reference design, m.v line 1, uses macro `S" in found[0][1]
    cand = string_argument_uses("  localparam [63:0] K = `S(p q);\n", lambda: [defs])
    assert [line for line, _ in cand] == [1] and "write the string out" in cand[0][1]
    # a stringification, and a string that names no argument, are read alike
    for call in ("`T(p q)", "`U(8'd1)"):
        assert string_argument_uses(f"  localparam K = {call};\n", lambda: [defs]) == []
        assert _reference(f"  localparam K = {call};\n", defs) == []
    # no macro called: the repository's texts are not read
    assert string_argument_uses("assign y = a;\n", lambda: pytest.fail("read")) == []
    assert (
        reference_macro_problems(
            [DesignText(Path("m.v"), 1, "assign y = a;\n")], [], lambda: pytest.fail("read")
        )
        == []
    )


def test_a_macro_using_a_string_substituting_macro_is_one_too() -> None:
    # red team w22 F4: `define KVAL `S(p q), used without an argument list
    defs = '`define S(x) "x"\n`define KVAL `S(p q)\n`define K2 `KVAL\n`define W 8\n'
    found = _reference("localparam K = `K2;\n", defs)
    assert found and "macro `K2" in found[0][1]
    assert string_argument_uses("localparam K = `K2;\n", lambda: [defs])
    assert string_argument_uses("localparam K = `W;\n", lambda: [defs]) == []
    assert _reference("localparam K = `W;\n", defs) == []
    # a definition is judged where it is used: one nobody uses is no use
    assert _reference(defs + "localparam K = `W;\n", defs) == []


@pytest.mark.parametrize(
    ("defs", "odd"),
    [
        ("`define\tASSUME\tassume\n", False),  # no argument list: `(...)` follows the macro
        ("`define ASSUME(x) assume(x)\n", False),  # arguments, none stringified
        ('`define ASSUME(x) $display(`"x`")\n', True),
        ('`define ASSUME assume\n`define ASSUME(x) `"x`"\n', True),  # one with a list
        ("`define ASSUME `CHECK\n", True),  # its body uses a macro (which may take them)
        ("", True),  # not defined here: every argument
    ],
    ids=["plain", "with-arguments", "stringified", "two-definitions", "macro-body", "unknown"],
)
def test_a_macro_without_an_argument_list_takes_no_arguments(defs: str, odd: bool) -> None:
    """Held-out gate trial 53: ZipCPU's ```ASSUME(i_wr   == $past(i_wr))`` with ```define
    ASSUME assume``, read as a call whose arguments a stringification may reach."""
    code = "module m;\n  always @* `ASSUME(i_wr   == $past(i_wr));\nendmodule\n"
    assert bool(odd_macro_calls(code, stringified_arguments([defs]))) is odd
