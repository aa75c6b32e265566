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
        "  wire w;\n  sub s(.i(b), .o(w));\n",  # an output of a submodule
        "  wire w;\n  if (1) begin : g\n    sub s(.i(b), .o(w));\n  end\n",
        "  reg w;\n  always @* w = b;\n",
        "  reg w;\n  task t; w = b; endtask\n  always_comb t();\n",
        "  wire w;\n  if (1) begin : g\n    assign w = b;\n  end\n",  # a generate branch
        "  reg w;\n  initial force w = b;\n",
        "  wire w = b;\n",
        "  reg w = 1'b0;\n",
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


W8 = "  wire [7:0] w;\n"
SUBS = (
    "module sub(input i, output o);\n  assign o = i;\nendmodule\n"
    "module sub8(input i, output [7:0] o);\n  assign o = {8{i}};\nendmodule\n"
    "module nodrv(input i, output o);\nendmodule\n"
    "module xdrv(input i, output o);\n  assign o = 1'bx;\nendmodule\n"
    "module half(input i, output [7:0] o);\n  assign o[3:0] = {4{i}};\nendmodule\n"
    "module deep(input i, output o);\n  nodrv n(.i(i), .o(o));\nendmodule\n"
    "module deepok(input i, output o);\n  sub s(.i(i), .o(o));\nendmodule\n"
)


def _net_found(tmp_path: Path, decls: str, conn: str = "w[4]") -> list[tuple[str, str, str]]:
    (tmp_path / "sub.v").write_text(SUBS)
    found = _found(tmp_path, f"m u(.a(a), .b({conn}), .c(c), .y(y));", decls)
    return [(i, p, v) for i, p, _, v in found]


@pytest.mark.parametrize(
    ("decls", "conn"),
    [
        (W8 + "  assign w[3:0] = a[3:0];\n", "w[4]"),  # bits 7:4 left z
        (W8 + "  assign w[3:0] = a[3:0];\n", "w[7]"),
        (W8 + "  assign w[3:0] = a[3:0];\n", "^w"),  # every bit read
        (W8 + "  assign w[3:0] = a[3:0];\n  assign w[7:5] = a[7:5];\n", "w[4]"),  # a gap
        (W8 + "  assign w[0 +: 4] = a[3:0];\n", "w[6]"),
        (W8 + "  assign w[7 -: 3] = a[3:0];\n", "w[4]"),
        (W8 + "  assign w[3:0] = a[3:0];\n  assign w[7:4] = 4'bxxxx;\n", "w[4]"),  # x bits
        ("  wire [3:0][1:0] w;\n  assign w[1] = c;\n", "w[2][0]"),  # packed dimensions
        ("  reg [7:0] w;\n  always @* w[c] = b;\n", "w[4]"),  # an index that is not constant
        ("  logic [7:0] w [0:3];\n  assign w[1] = a;\n", "w[2][4]"),  # another element
        (
            "  typedef struct packed { logic [3:0] f; logic [3:0] g; } s_t;\n  s_t w;\n"
            "  assign w.g = a[3:0];\n",
            "w.f[2]",  # another member
        ),
    ],
)
def test_an_input_connected_to_bits_nothing_drives_is_found(
    tmp_path: Path, decls: str, conn: str
) -> None:
    found = _net_found(tmp_path, decls, conn)
    assert [(i, p) for i, p, _ in found] == [("top.u", "b")], found


@pytest.mark.parametrize(
    ("decls", "conn"),
    [
        (W8 + "  assign w[3:0] = a[3:0];\n", "w[2]"),  # only the driven bits are read
        (W8 + "  assign w[3:0] = a[3:0];\n  assign w[7:4] = a[7:4];\n", "w[4]"),  # in pieces
        (W8 + "  assign w[7:5] = a[7:5];\n  assign w[4] = b;\n  assign w[3:0] = c;\n", "^w"),
        (W8 + "  assign w[0 +: 4] = c;\n  assign w[4 +: 4] = c;\n", "w[6]"),
        (W8 + "  assign {w[7:4], w[3:0]} = a;\n", "w[6]"),  # a concatenation's pieces
        ("  wire [3:0][1:0] w;\n  assign w[3:2] = a[3:0];\n  assign w[1:0] = a;\n", "w[2][0]"),
        ("  reg [7:0] w;\n  always @* begin w = 8'd0; w[c] = b; end\n", "w[4]"),
        ("  wire [0:7] w;\n  assign w[0:3] = a[3:0];\n  assign w[4:7] = a[7:4];\n", "w[5]"),
        (W8 + "  for (genvar i = 0; i < 8; i++) begin : g\n    assign w[i] = a[i];\n  end\n", "^w"),
        ("  logic [7:0] w [0:3];\n  assign w[1] = a;\n", "w[1][4]"),  # an unpacked element
        (
            "  typedef struct packed { logic [3:0] f; logic [3:0] g; } s_t;\n  s_t w;\n"
            "  assign w.g = a[3:0];\n",
            "w.g[2]",
        ),
    ],
)
def test_an_input_connected_to_bits_driven_in_pieces_is_not_found(
    tmp_path: Path, decls: str, conn: str
) -> None:
    assert _net_found(tmp_path, decls, conn) == []


def test_the_bits_nothing_drives_are_named(tmp_path: Path) -> None:
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top.v").write_text(
        "module top(input [7:0] a, input [1:0] c, output [7:0] y);\n  wire [7:0] w;\n"
        "  assign w[3:0] = a[3:0];\n  m u(.a(w), .b(c[0]), .c(c), .y(y));\nendmodule\n"
    )
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)
    why = open_inputs_reason(design)
    assert "connects input 'a' to 'w' (top.v, line 2), bits 7:4 of which nothing drives" in why


@pytest.mark.parametrize(
    ("decls", "value"),
    [
        ("  wire w;\n  nodrv s0(.i(b), .o(w));\n", ""),  # the body drives nothing
        ("  wire w;\n  xdrv s0(.i(b), .o(w));\n", "1'bx"),  # the body drives x only
        ("  wire w;\n  deep s0(.i(b), .o(w));\n", ""),  # two modules down
        ("  wire [7:0] w;\n  half s0(.i(b), .o(w));\n", ""),  # the body drives half
        ("  wire w;\n  if (1) begin : g\n    nodrv s0(.i(b), .o(w));\n  end\n", ""),
    ],
)
def test_an_input_connected_to_an_output_a_submodule_leaves_undriven_is_found(
    tmp_path: Path, decls: str, value: str
) -> None:
    conn = "w[4]" if "[7:0]" in decls else "w"
    assert _net_found(tmp_path, decls, conn) == [("top.u", "b", value)]


@pytest.mark.parametrize(
    "decls",
    [
        "  wire w;\n  sub s0(.i(b), .o(w));\n",  # the body drives it
        "  wire w;\n  deepok s0(.i(b), .o(w));\n",  # two modules down
        "  wire [7:0] w;\n  sub8 s0(.i(b), .o(w));\n",
        "  wire w;\n  nodrv s0(.i(b), .o());\n  assign w = b;\n",
    ],
)
def test_an_input_connected_to_an_output_a_submodule_drives_is_not_found(
    tmp_path: Path, decls: str
) -> None:
    assert _net_found(tmp_path, decls, "w") == []


IO = """module m(input [7:0] a, input b, input [1:0] c, inout io, output reg [7:0] y);
  assign io = c[0] ? b : 1'bz;
  always @* begin if (b && c != 2'b11) y = a; else y = 8'd0; end
endmodule
"""


@pytest.mark.parametrize(
    ("decls", "checked"),
    [
        ("", False),  # only the target's own inout: no driver for its input
        ("  assign w = a[0];\n", True),  # another driver
        ("  sub s0(.i(a[0]), .o(w));\n", True),
    ],
)
def test_the_targets_own_inout_does_not_drive_its_input(
    tmp_path: Path, decls: str, checked: bool
) -> None:
    (tmp_path / "sub.v").write_text(SUBS)
    (tmp_path / "m.v").write_text(IO)
    (tmp_path / "top.v").write_text(
        "module top(input [7:0] a, input [1:0] c, output [7:0] y);\n  wire w;\n"
        f"{decls}  m u(.a(a), .b(w), .c(c), .io(w), .y(y));\nendmodule\n"
    )
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)
    found = [(o.instance, o.port, o.net) for o in open_inputs(design)]
    assert found == ([] if checked else [("top.u", "b", "w"), ("top.u", "io", "w")]), found


def test_an_elaboration_that_cannot_be_walked_leaves_the_target_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rtlopt.frontend import _open_inputs

    def fails(self: object, inst: object, depth: int = 0, skip: object = ()) -> list[object]:
        raise ValueError("a form pyslang does not expose")

    monkeypatch.setattr(_open_inputs._Walk, "open", fails)
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top.v").write_text(
        "module top(input [7:0] a, output [7:0] y);\n  m u(.a(a), .b(1'b1), .c(2'b00), .y(y));\n"
        "endmodule\n"
    )
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)
    why = open_inputs_reason(design)
    assert "cannot be read" in why and "a form pyslang does not expose" in why, why


def test_an_output_declared_by_a_port_expression_is_not_taken_for_driven(tmp_path: Path) -> None:
    # the port's body is not followed (no net behind `.o(...)`): fail closed
    (tmp_path / "pe.v").write_text("module pexpr(input i, output .o(q));\n  wire q;\nendmodule\n")
    assert _net_found(tmp_path, "  wire w;\n  pexpr s0(.i(b), .o(w));\n", "w") == [
        ("top.u", "b", "")
    ]
