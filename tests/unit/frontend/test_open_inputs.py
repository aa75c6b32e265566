"""Inputs of the target the repository's design feeds x or z (red team w36 F16): an instance
leaves one unconnected (z, read as x) or ties it to a value with x/z bits, while the proofs
and rtlopt's simulation drive every input with 0 or 1 only."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.frontend._open_inputs import open_inputs, open_inputs_reason

M = """module m(input [7:0] a, input b, input [1:0] c, output reg [7:0] y);
  always @* begin if (b && c != 2'b11) y = a; else y = 8'd0; end
endmodule
"""


def _found(tmp_path: Path, body: str, decls: str = "") -> list[tuple[str, str, int, str]]:
    (tmp_path / "m.v").write_text(M)
    top = (
        "module top(input [7:0] a, input b, input [1:0] c, output [7:0] y);\n"
        f"{decls}  {body}\nendmodule\n"
    )
    (tmp_path / "top.v").write_text(top)
    design = load_design(tmp_path / "m.v", "m", ProjectConfig())
    return [(o.instance, o.port, o.line, o.value) for o in open_inputs(design)]


@pytest.mark.parametrize(
    ("body", "port"),
    [
        ("m u(.a(a), .b(), .c(c), .y(y));", "b"),  # explicitly connected to nothing
        ("m u(.a(a), .c(c), .y(y));", "b"),  # a named connection left out
        ("m u(a, , c, y);", "b"),  # an empty ordered connection
        ("m u(a, b);", "c"),  # fewer ordered connections than ports
        ("m u(.a, .b, .y);", "c"),  # implicit named connections: c left out
    ],
)
def test_an_unconnected_input_is_found(tmp_path: Path, body: str, port: str) -> None:
    found = _found(tmp_path, body)
    assert [(i, p, line) for i, p, line, _ in found] == [("top.u", port, 2)], found
    assert found[0][3] == ""


@pytest.mark.parametrize(
    ("body", "decls", "port"),
    [
        ("m u(.a(a), .b(1'bx), .c(c), .y(y));", "", "b"),
        ("m u(.a(a), .b('z), .c(c), .y(y));", "", "b"),
        ("m u(.a(a), .b(b), .c({c[0], 1'bz}), .y(y));", "", "c"),  # one bit of a concatenation
        ("m u(.a(a), .b(b), .c(c[0] ? 2'b0x : 2'b00), .y(y));", "", "c"),
        ("m u(.a(a), .b(b), .c(PX), .y(y));", "  localparam [1:0] PX = 2'b1x;\n", "c"),
    ],
)
def test_an_input_tied_to_x_or_z_bits_is_found(
    tmp_path: Path, body: str, decls: str, port: str
) -> None:
    found = _found(tmp_path, body, decls)
    assert [(i, p) for i, p, _, _ in found] == [("top.u", port)], found
    assert found[0][3], found  # the value as slang prints it


@pytest.mark.parametrize(
    "body",
    [
        "m u(.a(a), .b(b), .c(c), .y(y));",
        "m u(.*);",  # every port finds its net
        "m u(a, b, c, y);",
        "m u(.a(a), .b(1'b0), .c(2'd3), .y());",  # constants, an output left open
        "m u(.a(a), .b(c === 2'b00), .c(c), .y(y));",  # a defined value
        "m u(.a(a), .b(c === 2'b1x), .c(c), .y(y));",  # x compared as a value
    ],
)
def test_inputs_the_repository_drives_are_not_found(tmp_path: Path, body: str) -> None:
    assert _found(tmp_path, body) == []


def test_instances_below_generate_blocks_and_parents_are_named(tmp_path: Path) -> None:
    body = "for (genvar i = 0; i < 2; i++) begin : g\n    mid u(.a(a), .y());\n  end"
    (tmp_path / "mid.v").write_text(
        "module mid(input [7:0] a, output [7:0] y);\n  m u_m(a, 1'b1, , y);\nendmodule\n"
    )
    found = _found(tmp_path, body)
    assert [(i, p) for i, p, _, _ in found] == [("top.g[0].u.u_m", "c"), ("top.g[1].u.u_m", "c")]


def test_an_input_a_parent_passes_on_from_its_own_open_input_is_found(tmp_path: Path) -> None:
    (tmp_path / "mid.v").write_text(
        "module mid(input [7:0] a, input b, output [7:0] y);\n"
        "  m u_m(.a(a), .b(b), .c(2'b00), .y(y));\nendmodule\n"
    )
    (tmp_path / "m.v").write_text(M)
    top = "module top(input [7:0] a, input b, output [7:0] y, output [7:0] z);\n{}\nendmodule\n"
    (tmp_path / "top.v").write_text(top.format("  mid u(.a(a), .y(y));"))
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)
    found = open_inputs(design)
    assert [(o.instance, o.definition, o.port, o.reaches) for o in found] == [
        ("top.u", "mid", "b", "top.u.u_m.b")
    ], found
    why = open_inputs_reason(design)
    assert "instance top.u of mid (top.v, line 2) leaves input 'b' unconnected" in why, why
    assert "which reaches input 'b' of m (top.u.u_m)" in why, why
    # the parent's instance connects it (a top's own inputs are the environment's)
    (tmp_path / "top.v").write_text(top.format("  mid u(.a(a), .b(b), .y(y));"))
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)
    assert open_inputs(design) == []


def test_the_reason_names_the_instance_port_file_line_and_fix(tmp_path: Path) -> None:
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "rtl").mkdir()
    (tmp_path / "rtl" / "top.v").write_text(
        "module top(input [7:0] a, output [7:0] y);\n\n  m u(.a(a), .b(), .c(2'b00), .y(y));\n"
        "endmodule\n"
    )
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)
    why = open_inputs_reason(design)
    assert "instance top.u of m (rtl/top.v, line 3)" in why, why
    assert "leaves input 'b' unconnected" in why and "connect 'b' of top.u" in why, why
    (tmp_path / "rtl" / "top.v").write_text(
        "module top(input [7:0] a, output [7:0] y);\n  m u(.a(a), .b(1'b1), .c(2'b00), .y(y));\n"
        "endmodule\n"
    )
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)
    assert open_inputs_reason(design) == ""


@pytest.mark.parametrize(
    ("decls", "value"),
    [
        ("  wire w;\n", ""),  # nothing drives it
        ("  reg w;\n", ""),  # a variable never assigned
        ("  wire w;\n  assign w = 1'bx;\n", "1'bx"),
        ("  wire w = 'z;\n", "1'bz"),  # a net's declaration assignment
        ("  reg w;\n  initial w = 1'bx;\n", "1'bx"),
        ("  reg w;\n  always @* w = 1'bx;\n", "1'bx"),
        ("  wire w;\n  assign w = c[0] ? 1'bz : 1'bx;\n", "1'bz"),
        ("  wire w;\n  assign w = c[1] ? b : 1'bx;\n", "1'bx"),  # x bits in one branch
    ],
)
def test_an_input_connected_to_a_net_nothing_or_only_x_drives_is_found(
    tmp_path: Path, decls: str, value: str
) -> None:
    found = _found(tmp_path, "m u(.a(a), .b(w), .c(c), .y(y));", decls)
    assert [(i, p, v) for i, p, _, v in found] == [("top.u", "b", value)], found


@pytest.mark.parametrize(
    "decls",
    [
        "  wire w;\n  vendor_buf vb(.A(b), .Z(w));\n",  # a cell the repository does not define
        "  wire w;\n  vendor_buf vb(b, w);\n",
        "  wire w;\n  sub s(.i(b), .o(w));\n",  # an output of a submodule
        "  wire w;\n  if (1) begin : g\n    sub s(.i(b), .o(w));\n  end\n",
        "  reg w;\n  always @* w = b;\n",
        "  reg w;\n  task t; w = b; endtask\n  always @* t();\n",
        "  wire w;\n  if (1) begin : g\n    assign w = b;\n  end\n",  # a generate branch
        "  reg w;\n  initial force w = b;\n",
        "  wire w = b;\n",
        "  reg w = 1'b0;\n",
        "  reg w;\n  initial w = 1'bx;\n  always @(posedge a[0]) w <= b;\n",  # x then defined
        "  wire w;\n  assign w = (b === 1'bx) ? 1'b0 : b;\n",  # x compared, not driven
        "  wire w;\n  and g1(w, b, c[0]);\n",  # a gate's output
        "  wire w;\n  pullup(w);\n",
        "  tri0 w;\n",  # reads 0 undriven
        "  supply1 w;\n",
        "  bit w;\n",  # two-state: 0 undriven
        "  bus_if bi();\n  bus_drv d(.p(bi));\n  wire w = bi.sig;\n",  # through a modport
    ],
)
def test_an_input_connected_to_a_driven_net_is_not_found(tmp_path: Path, decls: str) -> None:
    (tmp_path / "sub.v").write_text("module sub(input i, output o);\n  assign o = i;\nendmodule\n")
    (tmp_path / "bus.sv").write_text(
        "interface bus_if;\n  logic sig;\n  modport mp(output sig);\nendinterface\n"
        "module bus_drv(bus_if.mp p);\n  assign p.sig = 1'b1;\nendmodule\n"
    )
    assert _found(tmp_path, "m u(.a(a), .b(w), .c(c), .y(y));", decls) == []


def test_an_interface_signal_connected_directly_is_judged(tmp_path: Path) -> None:
    (tmp_path / "bus.sv").write_text(
        "interface bus_if;\n  logic sig;\n  modport mp(output sig);\nendinterface\n"
        "module bus_drv(bus_if.mp p);\n  assign p.sig = 1'b1;\nendmodule\n"
    )
    body = "m u(.a(a), .b(bi.sig), .c(c), .y(y));"
    assert _found(tmp_path, body, "  bus_if bi();\n  bus_drv d(.p(bi));\n") == []
    found = _found(tmp_path, body, "  bus_if bi();\n")
    assert [(i, p, v) for i, p, _, v in found] == [("top.u", "b", "")], found


def test_a_net_driven_by_a_hierarchical_assignment_is_not_found(tmp_path: Path) -> None:
    (tmp_path / "drv.v").write_text("module drv;\n  assign top.w = 1'b1;\nendmodule\n")
    assert _found(tmp_path, "m u(.a(a), .b(w), .c(c), .y(y));", "  wire w;\n") == []


def test_an_undriven_net_two_parents_up_is_named_with_its_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "mid.v").write_text(
        "module mid(input [7:0] a, input b, output [7:0] y);\n"
        "  m u_m(.a(a), .b(b), .c(2'b00), .y(y));\nendmodule\n"
    )
    (tmp_path / "upper.v").write_text(
        "module upper(input [7:0] a, input b, output [7:0] y);\n"
        "  mid u_mid(.a(a), .b(b), .y(y));\nendmodule\n"
    )
    (tmp_path / "top.v").write_text(
        "module top(input [7:0] a, output [7:0] y);\n  wire nb;\n"
        "  upper u(.a(a), .b(nb), .y(y));\nendmodule\n"
    )
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)
    found = open_inputs(design)
    assert [(o.instance, o.port, o.net, o.net_line, o.reaches) for o in found] == [
        ("top.u", "b", "nb", 2, "top.u.u_mid.u_m.b")
    ], found
    why = open_inputs_reason(design)
    assert "instance top.u of upper (top.v, line 3) connects input 'b' to 'nb'" in why, why
    assert "(top.v, line 2), which nothing drives" in why, why
    assert "which reaches input 'b' of m (top.u.u_mid.u_m)" in why, why
    assert "drive 'nb' with a defined value in top.v" in why, why
