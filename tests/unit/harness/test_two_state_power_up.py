"""Unit tests: a 2-state variable powers up at 0 in every simulator (IEEE 1800 6.8), a
power-up value the power-up rules read (no tools)."""

from __future__ import annotations

import pytest

from rtlopt.harness import power_up_difference
from rtlopt.harness._semantics import power_up_values
from rtlopt.harness._two_state import TWO_STATE, UNKNOWN_STATE

PKG = (
    "package p;\n  typedef bit [7:0] b_t;\n  typedef logic [7:0] l_t;\n"
    "  typedef enum {A, B} e_t;\n  typedef enum logic [1:0] {C, D} f_t;\n"
    "  typedef struct packed { bit x; logic [2:0] y; } s_t;\nendpackage\n"
)


def _counter(decl: str) -> str:
    return (
        f"module m import p::*; (input logic clk, output logic [7:0] y);\n  {decl}\n"
        "  always_ff @(posedge clk) c <= c + 1;\n  assign y = c;\nendmodule\n"
    )


@pytest.mark.parametrize(
    "decl",
    [
        "bit [7:0] c;",
        "byte c;",
        "shortint c;",
        "int c;",
        "longint c;",
        "b_t c;",
        "p::b_t c;",
        "e_t c;",
        "s_t c;",
        "bit [7:0] c [0:3];",
        "real c;",
    ],
)
def test_a_2_state_variable_states_the_power_up_value_0(decl: str) -> None:
    assert power_up_values(PKG + _counter(decl))["m"] == {"c": (TWO_STATE,)}


@pytest.mark.parametrize(
    "decl", ["logic [7:0] c;", "reg [7:0] c;", "integer c;", "l_t c;", "f_t c;", "var [7:0] c;"]
)
def test_a_4_state_variable_states_none(decl: str) -> None:
    assert power_up_values(PKG + _counter(decl))["m"] == {}


def test_ports_blocks_and_initializers() -> None:
    text = (
        "module m(input logic clk, output bit [7:0] y, output int z);\n  bit k = 1;\n"
        "  always_ff @(posedge clk) begin int t; t = 1; end\n"
        "  function int f(int a); int b; return a; endfunction\n"
        "  for (genvar g = 0; g < 2; g++) begin : gen bit gb; end\nendmodule\n"
    )
    found = power_up_values(text)["m"]
    assert found == {"y": (TWO_STATE,), "z": (TWO_STATE,), "k": ("1",), "t": (TWO_STATE,),
                     "gb": (TWO_STATE,)}  # fmt: skip
    # a type this text does not define may be 2-state
    assert power_up_values("module n; x_t q; endmodule\n")["n"] == {"q": (UNKNOWN_STATE,)}


def test_bit_to_logic_changes_the_power_up_value() -> None:
    """The one-word change ``bit`` -> ``logic``: every simulator starts the reference's
    counter at 0 and the candidate's at x; it is unchecked, whatever the proof shows."""
    ref = PKG + _counter("bit [7:0] c;")
    why = power_up_difference(PKG + _counter("logic [7:0] c;"), ref, hierarchy=["m"])
    assert "c in m loses its power-up value '0 (2-state)" in why, why
    # an int-based enum turned into a 2-bit logic state
    why = power_up_difference(PKG + _counter("logic [1:0] c;"), PKG + _counter("e_t c;"))
    assert "loses its power-up value" in why, why
    # kept, with a new 4-state register taking its role: stated, so not proven either
    kept = _counter("bit [7:0] c;\n  logic [7:0] n;").replace("assign y = c;", "assign y = n;")
    assert "has the power-up value '0 (2-state)" in power_up_difference(
        PKG + kept, ref, hierarchy=["m"]
    )


def test_a_candidate_type_not_known_to_its_reading_binds_nothing() -> None:
    """The candidate's reading may not hold the package: its unknown types are not read as
    values (a 0 where the reference has none refines it); the reference's are."""
    ref = PKG + _counter("l_t c;")
    assert power_up_difference(_counter("l_t c;"), ref, hierarchy=["m"]) == ""
    assert UNKNOWN_STATE.split(":")[0] in power_up_difference(
        _counter("l_t c;"), _counter("l_t c;"), hierarchy=["m"]
    )


@pytest.mark.parametrize(
    "body, stated",
    [
        ("always_ff @(posedge clk) for (i = 0; i < 4; i++) q[i] <= d[i];", False),
        ("always_comb for (i = 0; i < 4; i = i + 1) q[i] = d[i];", False),
        # read after the loop: the last value, but also the power-up value before it runs
        ("always_ff @(posedge clk) begin for (i = 0; i < 4; i++) q[i] <= d[i]; y <= i; end", True),
        ("always_ff @(posedge clk) for (i = i; i < 4; i++) q[i] <= d[i];", True),
        ("always @(posedge clk) for (i = 0; i < 4; i++) begin @(clk); q[i] <= d[i]; end", True),
        ("assign y = i;", True),
    ],
)
def test_a_loop_index_never_shows_its_power_up_value(body: str, stated: bool) -> None:
    """``int i;`` used only as a ``for`` index set to a constant first (cv32e40p's
    hwloop_regs) is not named; any other use is."""
    text = (
        "module m(input logic clk, input logic [3:0] d, output logic [3:0] q, output int y);\n"
        f"  int unsigned i;\n  {body}\nendmodule\n"
    )
    assert ("i" in power_up_values(text)["m"]) is stated


def test_an_anonymous_enum_states_its_variable_not_its_members() -> None:
    """``enum {A, B} v;``: v powers up 0; A and B are constants (the message names v)."""
    text = (
        "module m(input logic clk, output int y);\n  enum {A, B} v;\n"
        "  always_ff @(posedge clk) v <= B;\n  assign y = v;\nendmodule\n"
    )
    found = power_up_values(text)["m"]
    assert found["v"] == (TWO_STATE,) and not {"A", "B"} & found.keys(), found
