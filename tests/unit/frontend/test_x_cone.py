"""x that reaches an input of the target from upstream of the net it is connected to: the
walk of ``frontend/_open_inputs.py`` follows the fan-in cone of each connected net through
continuous assignments and always blocks (``assign w = r; always @* r = 1'bx;``), judging
every net and variable the drivers read with the same rules (x constants, undriven nets,
run-time x, system-task outputs, two drivers). A register's next value is followed; its
clock is not (its power-up x: ``test_x_precision.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.frontend._open_inputs import open_inputs_reason
from tests.unit.frontend.test_run_x import _design, _found


@pytest.mark.parametrize(
    "decls",
    [
        "  wire w; reg r;\n  assign w = r;\n  always @* r = 1'bx;\n",  # an x constant
        "  wire w, r;\n  assign w = r;\n",  # an undriven wire
        "  wire w, r, q;\n  assign w = r;\n  assign r = q & a[0];\n",  # two steps up
        "  wire w, r;\n  wire [3:0] v = 4'd5;\n  assign r = v[s];\n  assign w = r;\n",  # range
        '  wire w; reg v;\n  initial $value$plusargs("V=%d", v);\n  assign w = v;\n',  # task
        "  wire w, r;\n  assign r = a[0];\n  assign r = a[1];\n  assign w = r;\n",  # 2 drivers
        "  wire w, c; reg r;\n  always @* if (c) r = 1'b1; else r = 1'b0;\n  assign w = r;\n",
        "  wire w, u; reg r, clk;\n  always @(posedge clk) r <= u;\n  assign w = r;\n",  # D
    ],
)
def test_x_upstream_of_the_connected_net_is_found(tmp_path: Path, decls: str) -> None:
    assert _found(tmp_path, decls, "w") == [("top.u", "b")]


def test_the_reason_names_the_connected_net_and_the_x_source_upstream(tmp_path: Path) -> None:
    design = _design(tmp_path, "  wire w; reg r;\n  assign w = r;\n  always @* r = 1'bx;\n", "w")
    reason = open_inputs_reason(design)  # type: ignore[arg-type]
    assert "to 'w', which reads 'r'" in reason
    assert "1'bx" in reason


@pytest.mark.parametrize(("tie", "found"), [("1'bx", True), ("a[3]", False)])
def test_x_reaching_a_submodule_output_through_its_input_is_found(
    tmp_path: Path, tie: str, found: bool
) -> None:
    (tmp_path / "pass1.v").write_text(
        "module pass1(input i, output o);\n  wire t = ~i;\n  assign o = ~t;\nendmodule\n"
    )
    decls = f"  wire w, t;\n  assign t = {tie};\n  pass1 p0(.i(t), .o(w));\n"
    assert _found(tmp_path, decls, "w") == ([("top.u", "b")] if found else [])


@pytest.mark.parametrize(
    "decls",
    [
        "  wire w; reg r;\n  assign w = r;\n  always @* r = a[0] & s[1];\n",
        "  wire w, r, q;\n  assign q = ~a[2];\n  assign r = q | a[0];\n  assign w = r;\n",
        "  wire w; reg r = 1'b0, clk;\n  always @(posedge clk) r <= a[0];\n  assign w = r;\n",
        "  wire w; reg r, clk;\n  initial r = 1'b0;\n  always @(posedge clk) if (s[0]) r <= a[0];\n"
        "  assign w = r;\n",
        "  wire w, r;\n  wire [2:0] t = 3'bx;\n  assign r = a[1];\n  assign w = r;\n",  # t unread
        "  wire w; reg r, q;\n  always @* begin q = 1'bx; r = a[0]; end\n  assign w = r;\n",
        "  wire w; reg [1:0] r;\n  always @* begin r = 2'd0; r[0] = a[0]; end\n"
        "  assign w = r[1];\n",
    ],
)
def test_a_defined_upstream_cone_is_not_found(tmp_path: Path, decls: str) -> None:
    assert _found(tmp_path, decls, "w") == []
