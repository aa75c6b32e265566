"""The repository reaching into the target where the proof does not look (red team w30 F6,
F8): a hierarchical name into an instance of the target, an instance or ``defparam`` only a
simulator reads. Real frontend, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._reach import repository_reach
from rtlopt.frontend import load_design

M = """module m #(parameter [7:0] K = 8'd1) (input clk, input [7:0] a, output [7:0] y);
  reg [7:0] c;
  always @(posedge clk) c <= c + 8'd1;
  assign y = a + K + c;
endmodule
"""


def _reach(tmp: Path, top: str) -> str:
    (tmp / "m.v").write_text(M)
    (tmp / "top.v").write_text(top)
    return repository_reach(load_design(tmp / "m.v", "m", ProjectConfig()))


def _top(body: str) -> str:
    return (
        "module top(input clk, input [7:0] a, output [7:0] y);\n"
        f"  m u(.clk(clk), .a(a), .y(y));\n{body}endmodule\n"
    )


def test_a_hierarchical_name_into_the_target_is_found(tmp_path: Path) -> None:
    why = _reach(tmp_path, _top("`ifndef SYNTHESIS\n  initial u.c = 8'h5a;\n`endif\n"))
    assert why.startswith("top.v:4:") and "(u.c)" in why, why


def test_ports_comments_and_plain_instances_are_no_reach(tmp_path: Path) -> None:
    assert _reach(tmp_path, _top("  wire [7:0] w = u.y;\n  // u.c is not read\n")) == ""
    (tmp_path / "b").mkdir()
    # an unconditional defparam is a parameterization the repository's reading sees
    assert _reach(tmp_path / "b", _top("  defparam u.K = 8'd200;\n")) == ""


def test_a_parameterization_only_a_simulator_reads_is_found(tmp_path: Path) -> None:
    why = _reach(tmp_path, _top("`ifndef SYNTHESIS\n  defparam u.K = 8'd200;\n`endif\n"))
    assert "a simulator's reading (SYNTHESIS undefined)" in why, why
    (tmp_path / "i").mkdir()
    inst = (
        "module top(input clk, input [7:0] a, output [7:0] y);\n`ifdef __ICARUS__\n"
        "  m #(.K(8'd200)) u(.clk(clk), .a(a), .y(y));\n`else\n"
        "  m u(.clk(clk), .a(a), .y(y));\n`endif\nendmodule\n"
    )
    assert "__ICARUS__ defined" in _reach(tmp_path / "i", inst)


def test_another_builds_parameterization_is_found(tmp_path: Path) -> None:
    """Red team w30 F8b: a build macro the repository's defines leave unset."""
    why = _reach(tmp_path, _top("`ifdef SIMULATION\n  defparam u.K = 8'd200;\n`endif\n"))
    assert "a branch another build reads (SIMULATION tested) holds a defparam" in why, why
    # red team w33: a defparam on a parent's parameter that the parent hands on, or with its
    # keyword outside the branch: any defparam in a file another build reads otherwise
    (tmp_path / "o").mkdir()
    parent = "module mid #(parameter [7:0] P = 1) (); m #(.K(P)) u(); endmodule\n" + _top(
        "  mid mu();\n`ifdef SIMULATION\n  defparam mu.P = 2;\n`endif\n"
    )
    assert "holds a defparam" in _reach(tmp_path / "o", parent)
    (tmp_path / "k").mkdir()
    split = _top("  defparam\n`ifdef SIMULATION\n    u.K = 8'd200,\n`endif\n    u.K = 8'd1;\n")
    why = _reach(tmp_path / "k", split)
    assert "holds a defparam" in why or "(u.K)" in why, why
    (tmp_path / "i").mkdir()
    inst = (
        "module top(input clk, input [7:0] a, output [7:0] y);\n`ifdef FPGA\n"
        "  m #(.K(8'd3)) u(.clk(clk), .a(a), .y(y));\n`else\n"
        "  m u(.clk(clk), .a(a), .y(y));\n`endif\nendmodule\n"
    )
    assert "holds an instance of m" in _reach(tmp_path / "i", inst)


@pytest.mark.parametrize(
    ("top", "shown"),
    [
        # red team w31 F4: an escaped instance name, parameters three parentheses deep, a
        # hierarchical name a macro builds, an instance a macro writes
        (
            "module top(input clk, input [7:0] a, output [7:0] y);\n"
            "  m \\u0 (.clk(clk), .a(a), .y(y));\n  initial \\u0 .c = 8'h5a;\nendmodule\n",
            "(\\u0 .c)",
        ),
        (
            _top("").replace("m u(", "m #(.K(((8'd1)))) u(")
            + "module t2; initial top.u.c = 0; endmodule\n",
            "(u.c)",
        ),
        ("`define P u\n" + _top("  initial `P.c = 8'h5a;\n"), "(`P.c)"),
        (
            "`define INST(n) m n\nmodule top(input clk, input [7:0] a, output [7:0] y);\n"
            "  `INST(u) (.clk(clk), .a(a), .y(y));\n  initial u.c = 8'h5a;\nendmodule\n",
            "(u.c)",  # the elaborated instance (before: "a macro names m")
        ),
        # red team w31 F7: a port written from outside is state
        (_top("  initial u.y = 8'h5a;\n"), "(u.y)"),
        (_top("  initial force u.y = 8'h5a;\n"), "(u.y)"),
    ],
)
def test_reaches_the_regexes_once_missed(tmp_path: Path, top: str, shown: str) -> None:
    assert shown in _reach(tmp_path, top)


@pytest.mark.parametrize(
    ("top", "shown"),
    [
        # red team w32 F1: a macro pastes the target's name, or builds the instance's name
        (
            "`define MK(p) p``\nmodule top(input clk, input [7:0] a, output [7:0] y);\n"
            "  `MK(m) u(.clk(clk), .a(a), .y(y));\n  initial u.c = 8'h5a;\nendmodule\n",
            "a macro pastes tokens into a name that may be m",
        ),
        (
            "`define N(x) x\nmodule top(input clk, input [7:0] a, output [7:0] y);\n"
            "  m `N(u) (.clk(clk), .a(a), .y(y));\n  initial u.c = 8'h5a;\nendmodule\n",
            "an instance of m whose name a macro builds",
        ),
    ],
)
def test_names_a_macro_builds_fail_closed(tmp_path: Path, top: str, shown: str) -> None:
    assert shown in _reach(tmp_path, top)


@pytest.mark.parametrize(
    "top",
    [
        # red team w33 F4: the second instance of a statement, an escaped spelling of a name
        "module top(input clk, input [7:0] a, output [7:0] y, output [7:0] z);\n"
        "  m v(.clk(clk), .a(a), .y(z)), u(.clk(clk), .a(a), .y(y));\n"
        "  initial u.c = 8'h5a;\nendmodule\n",
        _top("  initial \\u .c = 8'h5a;\n"),
        _top("")
        .replace("m u(", "m \\u (")
        .replace("endmodule", "  initial u.c = 8'h5a;\nendmodule"),
    ],
)
def test_every_instance_and_spelling_is_found(tmp_path: Path, top: str) -> None:
    assert "by a hierarchical name" in _reach(tmp_path, top)


def test_an_include_folder_holds_design_text_only_where_a_header_may_be(tmp_path: Path) -> None:
    # picosoc's Makefile names simpleuart.v: not a hierarchical name into an instance u
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "Makefile").write_text("SRC = u.c top.v\n")
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top.v").write_text(_top(""))
    cfg = ProjectConfig(include_dirs=("inc",))
    assert repository_reach(load_design(tmp_path / "m.v", "m", cfg)) == ""
    # a header of any name that a source includes is read, and so is one with a header suffix
    for name in ("odd.txt", "pre.vh"):
        (tmp_path / "inc" / name).write_text("initial u.c = 8'h5a;\n")
        top = _top("") if name == "pre.vh" else _top('`include "odd.txt"\n')
        (tmp_path / "top.v").write_text(top)
        why = repository_reach(load_design(tmp_path / "m.v", "m", cfg))
        assert why.startswith(f"{name}:1:"), why
        (tmp_path / "inc" / name).unlink()


@pytest.mark.parametrize(
    "poke",
    [
        # red team w36 F8: a port register written in a form no assignment operator follows
        "  initial {u.y} = 8'd100;\n",
        "  initial u.y++;\n",
        "  initial ++u.y;\n",
        "  task load(output [7:0] v); v = 8'd100; endtask\n  initial load(u.y);\n",
        '  integer r;\n  initial r = $sscanf("5", "%d", u.y);\n',
        "  initial if (a) u.y = 1;\n",
    ],
)
def test_a_port_written_in_any_form_is_a_reach(tmp_path: Path, poke: str) -> None:
    assert "(u.y)" in _reach(tmp_path, _top(poke))


@pytest.mark.parametrize(
    "read",
    [
        "  wire [7:0] w = a + u.y;\n",
        "  reg [7:0] r;\n  always @(posedge u.y[0]) r <= (u.y == 8'd3) ? a : u.y;\n",
        '  initial if (u.y != 0) $display("%h", u.y);\n',
        "  reg [7:0] q [0:255];\n  wire [7:0] s = q[u.y];\n",
    ],
)
def test_a_port_only_read_is_no_reach(tmp_path: Path, read: str) -> None:
    assert _reach(tmp_path, _top(read)) == ""


@pytest.mark.parametrize("value", ["1", "8'd200", "W", "`W"])
def test_an_instance_with_a_parameter_value_without_parentheses(tmp_path: Path, value: str) -> None:
    # red team w36 F9/F10: ``m #200 u(...)``, which iverilog reads and Yosys and slang do not
    why = _reach(tmp_path, _top("").replace("m u(", f"m #{value} u("))
    assert "without parentheses" in why, why


@pytest.mark.parametrize("name", ["verif/poke.sva", "tb/poke.vt", "poke.txt"])
def test_a_hierarchical_name_in_any_text_file_is_found(tmp_path: Path, name: str) -> None:
    # red team w36 F5: a Makefile may compile a file of any name
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text("module poke; initial #15 tb.t.u.c = 8'd7; endmodule\n")
    why = _reach(tmp_path, _top(""))
    assert why.startswith(f"{Path(name).name}:1:") and "(u.c)" in why, why


def test_a_text_too_large_to_read_that_names_an_instance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # red team w36 F5: a source over the scan limit is judged by a byte search
    import rtlopt.evaluate._repo_texts as rt

    monkeypatch.setattr(rt, "_SCANNED_BYTES", 200)
    (tmp_path / "poke.v").write_text(
        "module poke; initial tb.t.u.c = 8'd7; endmodule\n" + "//\n" * 100
    )
    assert "too large" in _reach(tmp_path, _top(""))
    (tmp_path / "poke.v").write_text("module poke; endmodule\n" + "// x.y\n" * 100)
    assert _reach(tmp_path, _top("")) == ""


@pytest.mark.parametrize(
    ("body", "reach"),
    [
        ("`define PROBE(n, e) wire [7:0] n = e;\n  `PROBE(w, a & (u.y != 8'd3))\n", False),
        ("`define SET(x) initial x = 8'd1;\n  `SET(u.y)\n", True),
        ("`define PROBE(n, e) wire [7:0] n = e;\n  `PROBE(w, {u.y} = 1)\n", True),
        ("  `UNKNOWN(u.y)\n", True),  # a macro defined nowhere here: what it expands to
    ],
)
def test_a_port_in_a_macro_argument_is_judged_by_the_macro_body(
    tmp_path: Path, body: str, reach: bool
) -> None:
    why = _reach(tmp_path, _top(body))
    assert ("(u.y)" in why) == reach, why


@pytest.mark.parametrize("target", ["m", "top.u", "u"])
def test_a_bind_into_the_target_is_a_reach(tmp_path: Path, target: str) -> None:
    # a bound module sits inside the target: its ports connect to the target's own names
    (tmp_path / "poke.sv").write_text(
        f"module poke(output [7:0] x); assign x = 8'd7; endmodule\nbind {target} poke p(.x(c));\n"
    )
    assert "a bind directive" in _reach(tmp_path, _top(""))
