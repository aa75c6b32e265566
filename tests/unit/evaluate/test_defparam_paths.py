"""A ``defparam`` in a branch another build reads leaves the target unchecked only where its path
reaches the target (red team w33 F1-F3; hdl-util/hdmi's ``serializer.sv``, whose Altera branch
sets the parameters of a vendor primitive). Real frontend, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._reach import repository_reach
from rtlopt.frontend import load_design

M = """module m #(parameter [7:0] K = 8'd1) (input [7:0] a, output [7:0] y);
  assign y = a + K;
endmodule
"""
MID = """module mid #(parameter [7:0] P = 8'd1) (input [7:0] a, output [7:0] y);
  m #(.K(P)) u(.a(a), .y(y));
endmodule
"""
LEAF = """module leaf #(parameter W = 1) (input [7:0] a, output [7:0] y);
  assign y = a + W;
endmodule
"""
#: hdmi's serializer.sv in short: a vendor primitive and its defparams in an Altera branch
SER = """module ser(input clk, input [7:0] a, output o);
`ifdef ALTERA_RESERVED_QIS
  altlvds_tx ALTLVDS_TX_component (.tx_in(a), .tx_inclock(clk), .tx_out(o));
  defparam
    ALTLVDS_TX_component.center_align_msb = "UNUSED",
    // ALTLVDS_TX_component.data_rate = "800.0 Mbps",
    ALTLVDS_TX_component.number_of_channels = 4,
    ALTLVDS_TX_component.inclock_period = int'(10000000.0 / (25.0 * 10.0));
`else
  assign o = clk;
`endif
endmodule
"""


def _reach(tmp: Path, top: str, **more: str) -> str:
    for name, text in {"m.v": M, "mid.v": MID, "leaf.v": LEAF, **more, "top.v": top}.items():
        (tmp / name).write_text(text)
    return repository_reach(load_design(tmp / "m.v", "m", ProjectConfig()))


def _top(body: str) -> str:
    return (
        "module top(input clk, input [7:0] a, output [7:0] y, output o);\n"
        f"  mid mu(.a(a), .y(y));\n{body}endmodule\n"
    )


def _sim(body: str) -> str:
    return f"`ifdef SIMULATION\n{body}`endif\n"


@pytest.mark.parametrize(
    ("top", "more"),
    [
        # the vendor primitive's defparams in another file: it cannot hold an instance of m
        (_top("  ser s(.clk(clk), .a(a), .o(o));\n"), {"ser.v": SER}),
        # the same in the file that instantiates the target's parent
        (_top(SER.split("\n", 1)[1].rsplit("endmodule", 1)[0]), {}),
        # a repository module whose hierarchy has no instance of m
        (_top("  leaf lf(.a(a), .y());\n" + _sim("  defparam lf.W = 3;\n")), {}),
    ],
)
def test_a_defparam_that_cannot_reach_the_target_is_no_reach(
    tmp_path: Path, top: str, more: dict[str, str]
) -> None:
    assert _reach(tmp_path, top, **more) == ""


@pytest.mark.parametrize(
    ("top", "shown"),
    [
        # F1: a parent's parameter the parent hands on by #(.K(P))
        (_top(_sim("  defparam mu.P = 8'd200;\n")), "top.v:4: a branch another build reads"),
        (_top(_sim("  defparam mu.P = 8'd200;\n")), "(mu.P) on mid, which is or may hold"),
        # two levels up, and an instance only the other build declares
        (
            "module hi(input [7:0] a, output [7:0] y); mid mx(.a(a), .y(y)); endmodule\n"
            + _top(_sim("  hi h(.a(a), .y());\n  defparam h.mx.P = 8'd200;\n")),
            "(h.mx.P) on mid",
        ),
        # an instance whose module differs between the readings
        (
            _top(
                "`ifdef FPGA\n  mid\n`else\n  leaf\n`endif\n  lu(.a(a), .y());\n"
                + _sim("  defparam top.lu.P = 2;\n")
            ),
            "on mid",
        ),
        # F2a, F2b: the escaped spelling of a name is the name
        (_top("  m \\u (.a(a), .y());\n" + _sim("  defparam u.K = 8'd200;\n")), "(u.K) whose"),
        (_top("  m u(.a(a), .y());\n" + _sim("  defparam \\u .K = 8'd200;\n")), "(u.K) whose"),
        # F2c: the keyword outside the branch, the assignment inside
        (
            _top("  leaf v();\n  defparam\n" + _sim("    mu.P = 8'd200,\n") + "    v.W = 1;\n"),
            "(mu.P) on mid",
        ),
        # F3: the second instance of a statement, an array of instances
        (
            _top("  m v(.a(a), .y()), u(.a(a), .y());\n" + _sim("  defparam u.K = 8'd200;\n")),
            "(u.K)",
        ),
        (
            _top("  mid ma[1:0](.a(a), .y());\n" + _sim("  defparam ma[0].P = 8'd200;\n")),
            "(ma.P) on mid",
        ),
        # an absolute path, from the module's name or from $root
        (_top(_sim("  defparam top.mu.P = 8'd200;\n")), "(top.mu.P) on mid"),
        (_top(_sim("  defparam $root.top.mu.u.K = 8'd200;\n")), "passes through an instance"),
        # a defparam in the target's hierarchy
        (_top(_sim("  defparam mu.u.K = 8'd200;\n")), "(mu.u.K) whose path passes through"),
    ],
)
def test_a_defparam_that_reaches_the_target_is_found(tmp_path: Path, top: str, shown: str) -> None:
    why = _reach(tmp_path, top)
    assert shown in why and "holds a defparam" in why, why


@pytest.mark.parametrize(
    ("top", "shown"),
    [
        # a generate scope
        (
            _top(
                "  for (genvar i = 0; i < 1; i++) begin : g\n    leaf v(.a(a), .y());\n  end\n"
                + _sim("  defparam g[0].v.W = 2;\n")
            ),
            "g in g.v.W is no instance top declares",
        ),
        # an upward name, a name a macro writes, a module a macro writes
        (_top(_sim("  defparam zz.P = 2;\n")), "zz in zz.P is no instance top declares"),
        ("`define N mu\n" + _top(_sim("  defparam `N.P = 2;\n")), "does not parse"),
        (
            "`define T mid\n" + _top("  `T mz(.a(a), .y());\n" + _sim("  defparam mz.P = 2;\n")),
            "whose module a macro writes",
        ),
        # below a module the repository does not define
        (
            _top(_sim("  altlvds_tx c();\n  defparam c.inner.P = 2;\n")),
            "goes on below altlvds_tx",
        ),
        # the keyword a macro writes, a defparam outside every module
        ("`define DP defparam\n" + _top(_sim("  `DP mu.P = 2;\n")), "a macro writes a defparam"),
        (_top("") + _sim("defparam top.mu.P = 2;\n"), "holds a defparam outside every module"),
    ],
)
def test_a_path_that_cannot_be_walked_is_unchecked(tmp_path: Path, top: str, shown: str) -> None:
    why = _reach(tmp_path, top)
    assert shown in why, why


def test_a_defparam_in_the_targets_own_hierarchy_is_unchecked(tmp_path: Path) -> None:
    inner = "  leaf s(.a(a), .y());\n" + _sim("  defparam s.W = 2;\n")
    target = M.replace("endmodule", inner + "endmodule")
    (tmp_path / "m.v").write_text(target)
    for name, text in {"mid.v": MID, "leaf.v": LEAF, "top.v": _top("")}.items():
        (tmp_path / name).write_text(text)
    why = repository_reach(load_design(tmp_path / "m.v", "m", ProjectConfig()))
    assert "holds a defparam in m itself" in why, why


def test_a_statement_split_by_a_branch_is_read_whole(tmp_path: Path) -> None:
    """Red team w33 F2c on the target's own instance: the hierarchical-name rule finds it
    first; the defparam rule reads the statement in the reading that holds the branch."""
    from rtlopt.evaluate._defparam_paths import defparam_reach
    from rtlopt.verilog import blank_comments

    split = _top("  m u(.a(a), .y());\n  leaf v();\n  defparam\n" + _sim("    u.K = 8'd200,\n"))
    split = split.replace("endmodule", "    v.W = 1;\nendmodule")
    assert "(u.K)" in _reach(tmp_path, split)
    design = load_design(tmp_path / "m.v", "m", ProjectConfig())
    hit = defparam_reach(design, blank_comments(split))
    assert hit is not None and "(u.K) whose path passes through an instance of m" in hit[1], hit


def test_an_upward_name_that_is_also_a_modules_name_is_walked_both_ways(tmp_path: Path) -> None:
    """``leaf.P`` from a module below ``top`` names ``top``'s instance ``leaf`` (a ``mid``)
    as well as module ``leaf``."""
    inner = "module inner();\n" + _sim("  defparam leaf.P = 8'd200;\n") + "endmodule\n"
    top = _top("  mid leaf(.a(a), .y());\n  inner i();\n")
    assert "(leaf.P) on mid" in _reach(tmp_path, top, **{"inner.v": inner})


def test_a_bind_that_puts_the_target_into_a_module_reaches_through_it(tmp_path: Path) -> None:
    top = _top("  leaf lf(.a(a), .y());\n" + _sim("  defparam lf.W = 3;\n"))
    bind = "bind leaf m #(.K(W)) ub(.a(a), .y());\n"
    assert "may put m anywhere" in _reach(tmp_path, top, **{"bind.sv": bind})


def test_an_interface_the_target_reads_through_a_port_reaches_it(tmp_path: Path) -> None:
    (tmp_path / "m.sv").write_text(
        "interface bus_if #(parameter [7:0] W = 1) (); endinterface\n"
        "module m(bus_if b, input [7:0] a, output [7:0] y); assign y = a + b.W; endmodule\n"
    )
    (tmp_path / "top.sv").write_text(
        "module top(input [7:0] a, output [7:0] y);\n  bus_if bi();\n"
        "  m u(.b(bi), .a(a), .y(y));\n" + _sim("  defparam bi.W = 2;\n") + "endmodule\n"
    )
    why = repository_reach(load_design(tmp_path / "m.sv", "m", ProjectConfig()))
    assert "(bi.W) on bus_if, which m's hierarchy may read through an interface port" in why, why


def test_a_module_that_only_seems_a_vendor_primitive_is_unchecked(tmp_path: Path) -> None:
    """A module whose header a macro writes is none the spans read: a defparam landing on a
    module no scanned text defines counts only when nothing else may define it."""
    hdr = "`define HDR(n) module n(input [7:0] a);\n`HDR(wrap)\n  mid mw(.a(a), .y());\nendmodule\n"
    top = _top(_sim("  wrap w(.a(a));\n  defparam w.P = 2;\n"))
    why = _reach(tmp_path, top, **{"hdr.v": hdr})
    assert "lands on wrap: hdr.v defines a module this rule cannot read" in why, why


def test_a_module_a_file_outside_the_sources_defines_is_unchecked(tmp_path: Path) -> None:
    """``exclude`` keeps ``fpga/wrap.v`` out of the sources: another build may compile it."""
    (tmp_path / "fpga").mkdir()
    (tmp_path / "fpga" / "wrap.v").write_text(
        "module wrap #(parameter P = 1) (input [7:0] a); mid mw(.a(a), .y()); endmodule\n"
    )
    for name, text in {"m.v": M, "mid.v": MID, "leaf.v": LEAF}.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "top.v").write_text(_top(_sim("  wrap w(.a(a));\n  defparam w.P = 2;\n")))
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(exclude=("fpga/*",)))
    assert not any("fpga" in str(f) for f in design.sources.files)
    why = repository_reach(design)
    assert "lands on wrap: a file of the repository the sources do not list" in why, why


def test_a_module_a_dot_folder_defines_is_the_repositorys(tmp_path: Path) -> None:
    """Round 79 (dot folders): ``-y .lib`` reads ``.lib/wrap.v``; the frontend's scan skips
    the dot folder, the rule does not take its module for a vendor primitive."""
    (tmp_path / ".lib").mkdir()
    (tmp_path / ".lib" / "wrap.v").write_text(
        "module wrap #(parameter P = 1) (input [7:0] a); mid mw(.a(a), .y()); endmodule\n"
    )
    for name, text in {"m.v": M, "mid.v": MID, "leaf.v": LEAF}.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "top.v").write_text(_top(_sim("  wrap w(.a(a));\n  defparam w.P = 2;\n")))
    design = load_design(tmp_path / "m.v", "m", ProjectConfig())
    assert not any(".lib" in str(f) for f in design.sources.files)
    why = repository_reach(design)
    assert "lands on wrap: a file of the repository the sources do not list" in why, why
