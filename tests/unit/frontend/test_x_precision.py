"""What the walk of ``frontend/_open_inputs.py`` must not misread as x, and the registers it
must find powering up x: an index of a procedural ``for`` loop is judged by the loop's
bounds (``frontend/_loops.py``), bits a loop assigns are driven, an x arm of a ``?:`` chain
or an x ``default`` of a ``case`` no 0/1 value of the selectors reaches is no x source
(``frontend/_reach.py``), and a register without reset or initial value powers up x
(``frontend/_powerup.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.frontend._open_inputs import open_inputs, open_inputs_reason
from tests.unit.frontend.test_run_x import _design, _found

T16 = "  wire [15:0] t = {a, a};\n  reg r;\n"


@pytest.mark.parametrize(
    "decls",
    [
        T16 + "  always @* begin r = 1'b0; for (int i = 0; i < 16; i++) r = r ^ t[i]; end\n",
        T16 + "  integer k;\n  always @* begin r = 1'b0; for (k = 15; k >= 0; k = k - 1)"
        " r = r ^ t[k]; end\n",
        T16 + "  always @* begin r = 1'b0; for (int i = 0; i < 8; i++) r = r ^ t[15 - 2 * i];"
        " end\n",
        T16 + "  function f(input [15:0] v);\n    integer j;\n    begin f = 1'b0;"
        " for (j = 1; j < 16; j = j + 1) f = f ^ v[j]; end\n  endfunction\n"
        "  always @* r = f(t);\n",
    ],
)
def test_a_loop_index_within_the_loop_bounds_is_in_range(tmp_path: Path, decls: str) -> None:
    assert _found(tmp_path, decls, "r") == []


def test_a_loop_index_past_the_range_is_still_x(tmp_path: Path) -> None:
    decls = T16 + "  always @* begin r = 1'b0; for (int i = 0; i < 17; i++) r = r ^ t[i]; end\n"
    assert _found(tmp_path, decls, "r") == [("top.u", "b")]


@pytest.mark.parametrize(
    ("decls", "conn", "found"),
    [
        ("  reg [15:0] v;\n  always @* for (int i = 0; i < 16; i++) v[i] = a[0];\n", "v[5]", []),
        ("  reg [15:0] v;\n  always @* for (int i = 0; i < 8; i++) v[2 * i] = a[0];\n", "v[4]", []),
        # every other bit only: v[5] is not driven
        (
            "  reg [15:0] v;\n  always @* for (int i = 0; i < 8; i++) v[2 * i] = a[0];\n",
            "v[5]",
            [("top.u", "b")],
        ),
    ],
)
def test_bits_a_loop_assigns_are_driven(
    tmp_path: Path, decls: str, conn: str, found: list[tuple[str, str]]
) -> None:
    assert _found(tmp_path, decls, conn) == found


CHAIN = (
    "  wire w = (s[1:0] == 2'd0) ? a[0] : (s[1:0] == 2'd1) ? a[1] :\n"
    "           (s[1:0] == 2'd2) ? a[2] : {last} 1'bx;\n"
)
CASE = (
    "  reg w;\n  always @* case (s[1:0])\n    2'd0: w = a[0];\n    2'd1: w = a[1];\n"
    "    2'd2: w = a[2];\n{last}    default: w = 1'bx;\n  endcase\n"
)


@pytest.mark.parametrize(
    ("decls", "found"),
    [
        (CHAIN.format(last="(s[1:0] == 2'd3) ? a[3] :"), []),  # every value covered
        (CHAIN.format(last="(s[1:0] == 2'd3) ? 1'bx :"), [("top.u", "b")]),  # s = 3 picks x
        (CHAIN.format(last="(s[0] & s[2]) ? a[3] :"), [("top.u", "b")]),  # s = 3 reaches x
        (CASE.format(last="    2'd3: w = a[3];\n"), []),
        (CASE.format(last=""), [("top.u", "b")]),  # s = 3 takes the default
    ],
)
def test_an_x_arm_is_x_only_when_some_value_reaches_it(
    tmp_path: Path, decls: str, found: list[tuple[str, str]]
) -> None:
    assert _found(tmp_path, decls, "w") == found


def test_a_register_without_reset_or_initial_value_powers_up_x(tmp_path: Path) -> None:
    decls = "  reg r;\n  always @(posedge a[7]) r <= a[0];\n"
    design = _design(tmp_path, decls, "r")
    found = open_inputs(design)  # type: ignore[arg-type]
    assert [(o.instance, o.port, o.kind, o.net) for o in found] == [("top.u", "b", "powerup", "r")]
    reason = open_inputs_reason(design)  # type: ignore[arg-type]
    assert "register 'r' (top.v, line 2) powers up x" in reason
    assert "top.v, line 3" in reason


def test_a_register_upstream_powers_up_x(tmp_path: Path) -> None:
    decls = "  reg q;\n  wire w = ~q;\n  always @(posedge a[7]) if (a[6]) q <= a[0];\n"
    design = _design(tmp_path, decls, "w")
    assert [o.kind for o in open_inputs(design)] == ["powerup"]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "decls",
    [
        # an asynchronous reset
        "  reg r;\n  always @(posedge a[7] or negedge s[0])\n"
        "    if (!s[0]) r <= a[1]; else r <= a[0];\n",
        # a synchronous reset to a constant
        "  reg r;\n  always @(posedge a[7]) if (s[1]) r <= 1'b0; else r <= a[0];\n",
        "  reg r = 1'b0;\n  always @(posedge a[7]) r <= a[0];\n",  # an initializer
        "  reg r;\n  initial r = 1'b0;\n  always @(posedge a[7]) r <= a[0];\n",  # initial
        "  reg r;\n  always @* r = a[0];\n",  # not a register
        "  bit r;\n  always @(posedge a[7]) r <= a[0];\n",  # two-state: powers up 0
    ],
)
def test_a_register_with_reset_or_initial_value_does_not_power_up_x(
    tmp_path: Path, decls: str
) -> None:
    assert _found(tmp_path, decls, "r") == []


SEL = "module sel(input [5:0] ra, output o);\n  wire [1:0] fp;\n  assign o = ra[5] ? fp[0] : ra[0];\nendmodule\n"


@pytest.mark.parametrize(
    ("drive", "found"),
    [
        ("f = 1'b0; if (FPU == 1 && s[0]) f = 1'b1;", []),  # the parameter turns the if off
        ("f = 1'b0; if (s[1]) f = 1'b0;", []),  # every write of f is 0
        ("f = 1'b0; if (s[1]) f = 1'b1;", [("top.u", "b")]),  # ra[5] = 1 reads fp
        ("f = 1'b0; if (FPU == 0 && s[0]) f = 1'b1;", [("top.u", "b")]),
    ],
)
def test_an_arm_a_selector_tied_through_ports_never_picks_is_not_read(
    tmp_path: Path, drive: str, found: list[tuple[str, str]]
) -> None:
    (tmp_path / "sel.v").write_text(SEL)
    decls = (
        f"  localparam FPU = 0;\n  wire w; reg f;\n  always @* begin {drive} end\n"
        "  sel k(.ra({f, a[4:0]}), .o(w));\n"
    )
    assert _found(tmp_path, decls, "w") == found
