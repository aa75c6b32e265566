"""Clock and reset inference through parse_text (pyslang)."""

from __future__ import annotations

import re

import pytest

from rtlopt.errors import DesignError, PluginError
from rtlopt.frontend import FRONTENDS, parse_text
from rtlopt.frontend.model import Module


def _one(text: str, name: str) -> Module:
    return {m.name: m for m in parse_text(text)}[name]


@pytest.mark.parametrize(
    ("always", "resets", "low"),
    [
        (
            "always @(posedge clk or negedge rst_n) if (!rst_n) q <= 0; else q <= d;",
            ["rst_n"],
            True,
        ),
        (
            "always @(posedge clk or negedge rst_n) begin if (~rst_n) q <= 0; else q <= d; end",
            ["rst_n"],
            True,
        ),
        ("always @(posedge clk or posedge rst) if (rst) q <= 0; else q <= d;", ["rst"], False),
        (
            "always @(posedge clk or posedge arst) if (arst == 1'b1) q <= 0; else q <= d;",
            ["arst"],
            False,
        ),
        (
            "always @(posedge clk, negedge arst_n) if (arst_n == 0) q <= 0; else q <= d;",
            ["arst_n"],
            True,
        ),
        ("always @(posedge clk) if (reset) q <= 0; else q <= d;", ["reset"], False),
        ("always @(posedge clk) begin if (!resetn) q <= 0; else q <= d; end", ["resetn"], True),
        ("always @(posedge clk) if (en) q <= d;", [], False),
    ],
)
def test_reset_styles(always: str, resets: list[str], low: bool) -> None:
    found = re.findall(r"\b(rst_n|rst|arst|arst_n|reset|resetn)\b", always)
    names = ["clk", "d", *dict.fromkeys(found)]
    if "en)" in always:
        names.append("en")
    ports = ", ".join(f"input {n}" for n in names)
    m = _one(f"module m({ports}, output reg q);\n{always}\nendmodule\n", "m")
    assert m.clocks == ("clk",)
    assert list(m.resets) == resets
    for r in resets:
        assert m.reset_active_low[r] is low


def test_negedge_clock_and_two_domains() -> None:
    m = _one(
        """module m(input wclk, input rclk, input wrstn, input d, output reg a, output reg b);
    always @(negedge wclk or negedge wrstn) if (!wrstn) a <= 0; else a <= d;
    always @(posedge rclk) b <= a;
    endmodule""",
        "m",
    )
    assert m.clocks == ("wclk", "rclk")
    assert m.resets == ("wrstn",) and m.reset_active_low["wrstn"]


def test_roles_through_submodule_ports() -> None:
    text = """
    module ff(input c, input r_n, input d, output reg q);
      always @(posedge c or negedge r_n) if (!r_n) q <= 0; else q <= d;
    endmodule
    module top(input sys_clock, input sys_res, input d, output q);
      ff u0(.c(sys_clock), .r_n(sys_res), .d(d), .q(q));
    endmodule
    module top2(input k, input r, input d, output q);
      ff u1(k, r, d, q);
    endmodule
    """
    top = _one(text, "top")
    assert top.clocks == ("sys_clock",) and top.resets == ("sys_res",)
    assert top.reset_active_low["sys_res"] is True
    assert top.instances == ("ff",)
    top2 = _one(text, "top2")
    assert top2.clocks == ("k",) and top2.resets == ("r",)


def test_combinational_has_no_clock_and_name_fallback() -> None:
    comb = _one("module c(input [3:0] a, output [3:0] y); assign y = ~a; endmodule", "c")
    assert comb.clocks == () and comb.resets == () and not comb.is_sequential
    # a combinational module with an unused clock port stays combinational: names are hints
    unused = _one(
        "module u(input clk, input rst_n, input a, output y); assign y = ~a; endmodule", "u"
    )
    assert unused.clocks == () and unused.resets == () and not unused.is_sequential
    # clock only named, its use hidden in a module rtlopt cannot see into (a vendor cell)
    named = _one(
        "module n(input clk, input rst_n, input d, output y); "
        "VENDOR_DFF u (.CK(clk), .RN(rst_n), .D(d), .Q(y)); endmodule",
        "n",
    )
    assert named.clocks == ("clk",) and named.resets == ("rst_n",)
    assert named.reset_active_low["rst_n"] is True


@pytest.mark.parametrize(
    ("body", "resets"),
    [
        # forces every register to a constant: a reset, whatever its name
        (
            "always @(posedge clk) if (clear) begin q <= {W{1'b0}}; v <= IDLE; end "
            "else begin q <= d; v <= 1'b1; end",
            {"clear": False},
        ),
        (
            "always @(posedge clk) if (!RES) begin q <= 4'hF; v <= 0; end else begin q <= d; v <= 1; end",
            {"RES": True},
        ),
        # loads data: an enable, not a reset
        (
            "always @(posedge clk) if (clear) begin q <= d; v <= 0; end else begin q <= q + 1; v <= 1; "
            "end",
            {},
        ),
        # forces the one register it reaches; v is data it never reaches: a reset
        (
            "always @(posedge clk) begin if (clear) q <= 0; else q <= d; v <= d[0]; end",
            {"clear": False},
        ),
        # reaches v as data too: not a reset
        ("always @(posedge clk) begin if (clear) q <= 0; else q <= d; v <= clear; end", {}),
        # a later statement gives a forced register data: not forced
        ("always @(posedge clk) begin if (clear) q <= 0; q <= d; end", {}),
        # a last `if` that overrides the data assigned before it: a reset
        ("always @(posedge clk) begin q <= d; v <= d[1]; if (!RES) q <= 4'h0; end", {"RES": True}),
    ],
)
def test_reset_found_by_structure(body: str, resets: dict[str, bool]) -> None:
    ports = "input clk, input clear, input RES, input [3:0] d, output reg [3:0] q, output reg v"
    m = _one(
        f"module s #(parameter W = 4) ({ports}); localparam IDLE = 1'b0; {body} endmodule", "s"
    )
    assert m.clocks == ("clk",)
    assert dict(m.reset_active_low) == resets


def test_roles_overridden_by_configuration() -> None:
    from rtlopt.errors import ConfigError
    from rtlopt.frontend import override_roles

    m = _one(
        "module o(input ck_a, input kill, input [3:0] d, output reg [3:0] q); "
        "always @(posedge ck_a) q <= kill ? d : 4'd0; endmodule",
        "o",
    )
    assert m.clocks == ("ck_a",) and m.resets == ()
    o = override_roles(m, (), ("kill:low",))
    assert o.clocks == ("ck_a",) and o.resets == ("kill",) and o.reset_active_low == {"kill": True}
    with pytest.raises(ConfigError, match="'d' is not a 1-bit input"):
        override_roles(m, ("d",), ())
    with pytest.raises(ConfigError, match="needs its active level"):
        override_roles(m, (), ("kill",))
    with pytest.raises(ConfigError, match="both a clock and a reset"):
        override_roles(m, ("kill",), ("kill:high",))


def test_ports_params_widths_signedness() -> None:
    m = _one(
        """module p #(parameter W = 4, parameter D = W * 2)
      (input signed [W-1:0] a, input [D:1] b, output reg [$clog2(D)-1:0] c, inout e);
      localparam L = 3;
    endmodule""",
        "p",
    )
    got = [(p.name, p.direction, p.width, p.msb, p.lsb, p.signed, p.is_reg) for p in m.ports]
    assert got == [
        ("a", "input", 4, 3, 0, True, False),
        ("b", "input", 8, 8, 1, False, False),
        ("c", "output", 3, 2, 0, False, True),
        ("e", "inout", 1, 0, 0, False, False),
    ]
    assert [(q.name, q.value, q.local) for q in m.parameters] == [
        ("W", "4", False),
        ("D", "W * 2", False),
        ("L", "3", True),
    ]


def test_parse_text_offsets_and_errors() -> None:
    text = "// c\nmodule a(input x, output y); assign y = x; endmodule\nmodule b(); endmodule\n"
    mods = parse_text(text)
    assert [m.name for m in mods] == ["a", "b"]
    assert text[mods[0].start : mods[0].end].startswith("module a(")
    assert text[mods[1].start : mods[1].end] == "module b(); endmodule"
    with pytest.raises(DesignError, match=r"candidate.v:2: syntax error"):
        parse_text("module a(input x);\n assign = ;\nendmodule\n")


def test_registry_names_and_unknown() -> None:
    assert {"pyslang", "pyverilog"} <= set(FRONTENDS.names())
    with pytest.raises(PluginError, match="known: .*pyslang"):
        parse_text("module a; endmodule", frontend="nope")


@pytest.mark.parametrize(
    ("body", "resets"),
    [
        # named like a reset, used as data: not a reset (the name alone never decides)
        ("always @(posedge clk) q <= d ^ {4{rst}};", {}),
        ("always @(posedge clk) if (rst) q <= d; else q <= ~d;", {}),
        ("always @(posedge clk) begin if (reset) q <= q + 1; end", {}),
        # forces the registers it reaches to constants; a data register it leaves alone holds
        (
            "always @(posedge clk) if (rst) begin q <= 0; end else begin q <= d; v <= d[0]; end",
            {"rst": False},
        ),
        # drives an asynchronous reset pin: a reset whatever it is called
        ("always @(posedge clk or negedge go) if (!go) q <= 0; else q <= d;", {"go": True}),
    ],
)
def test_reset_by_structure_never_by_name(body: str, resets: dict[str, bool]) -> None:
    ports = "input clk, input rst, input reset, input go, input [3:0] d, output reg [3:0] q"
    m = _one(f"module s({ports}, output reg v); {body} endmodule", "s")
    assert m.clocks == ("clk",)
    assert dict(m.reset_active_low) == resets


def test_reset_named_input_used_beside_an_opaque_cell_is_data() -> None:
    # an opaque cell and a reset-named input that the module's own logic also reads: data
    m = _one(
        "module n(input clk, input rst_n, input d, output y, output z); "
        "VENDOR_DFF u (.CK(clk), .RN(rst_n), .D(d), .Q(y)); assign z = d & rst_n; endmodule",
        "n",
    )
    assert m.clocks == ("clk",) and m.resets == ()


@pytest.mark.parametrize("frontend", ["pyslang", "pyverilog"])
def test_both_frontends_find_resets_by_the_same_structure(frontend: str) -> None:
    ports = "input clk, input rst, input clear, input [3:0] d, output reg [3:0] q, output reg v"
    cases = {
        "always @(posedge clk) if (rst) q <= 0; else q <= d;": {"rst": False},
        "always @(posedge clk) if (clear) begin q <= W; end else begin q <= d; v <= d[0]; end": {
            "clear": False
        },
        "always @(posedge clk) q <= d ^ {4{rst}};": {},
        "always @(posedge clk) begin if (rst) q <= 0; else q <= d; v <= d[0]; end": {"rst": False},
        "always @(posedge clk) begin if (rst) q <= 0; else q <= d; v <= d[0] ^ rst; end": {},
        "always @(posedge clk) begin v <= 0; if (!rst) v <= d[0]; else if (clear) q <= 0; end": {},
        "always @(posedge clk) begin v <= 1'b0; q <= d; if (clear) q <= 4'd0; end": {
            "clear": False
        },
        "always @(posedge clk) if (rst) q <= d; else q <= ~d;": {},
    }
    for body, resets in cases.items():
        text = f"module s #(parameter W = 4) ({ports}); {body} endmodule\n"
        (m,) = parse_text(text, "s.v", frontend=frontend)
        assert m.clocks == ("clk",), body
        assert dict(m.reset_active_low) == resets, (frontend, body)
