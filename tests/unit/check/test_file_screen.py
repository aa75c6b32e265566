"""The screen rules that need no base, on added and edited files (red team w37 F4; round 79
cases 15, 22, 25)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.check._closure import made_directives
from rtlopt.check._file_screen import file_problems, new_problems
from rtlopt.frontend._depgraph import DesignGraph, design_graph
from rtlopt.verilog_delays import has_delay

TOP = "`ifndef W\n`define W 8\n`endif\nmodule top(output [`W-1:0] y);\n  assign y = 0;\nendmodule\n"


def _graph(tmp_path: Path, files: dict[str, str]) -> DesignGraph:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return design_graph(tmp_path)


def test_a_macro_another_file_reads_without_including_it_is_a_finding(tmp_path: Path) -> None:
    new = "module h;\nendmodule\n`define W 16\n"
    graph = _graph(tmp_path, {"top.v": TOP, "h.v": new})
    assert [ln for ln, msg in new_problems("h.v", None, new, graph) if "macro W" in msg] == [3]
    # an edited file: only a definition it changes, and only where no filelist fixes the order
    old = "module h;\nendmodule\n`define W 8\n"
    assert [ln for ln, _ in new_problems("h.v", old, new, graph)] == [3]
    assert new_problems("h.v", old, new, graph, ordered=True) == []
    assert new_problems("h.v", new, "// h\n" + new, graph) == []


def test_a_header_its_reader_includes_is_no_finding(tmp_path: Path) -> None:
    top = '`include "w.vh"\n' + TOP
    graph = _graph(tmp_path, {"top.v": top, "w.vh": "`define W 16\n"})
    assert new_problems("w.vh", None, "`define W 16\n", graph) == []


def test_struct_and_interface_writes_are_no_hierarchical_reach(tmp_path: Path) -> None:
    text = (
        "module n(input clk, my_if bus);\n  pair_t s;\n"
        "  always_ff @(posedge clk) begin s.a <= 1'b1; bus.req <= s.a; end\nendmodule\n"
    )
    assert file_problems("n.sv", text, _graph(tmp_path, {"n.sv": text})) == []
    hier = "module n;\n  initial top.u.q = 1'b1;\n  m own();\n  initial own.q = 1'b1;\nendmodule\n"
    top = "module top;\n  m u();\nendmodule\nmodule m;\n  reg q;\nendmodule\n"
    found = file_problems("n.v", hier, _graph(tmp_path, {"top.v": top, "n.v": hier}))
    assert [(ln, "top.u.q" in msg) for ln, msg in found] == [(2, True)]  # not its own instance
    force = "module n;\n  initial force u.q = 1'b0;\nendmodule\n"  # u: another file's
    found = file_problems("n.v", force, _graph(tmp_path, {"n.v": force}))
    assert {ln for ln, _ in found} == {2} and found[0][1].startswith("force reaches")
    own = "module n;\n  m v();\n  initial force v.q = 1'b0;\nendmodule\n"  # its own instance
    assert file_problems("n.v", own, _graph(tmp_path, {"n.v": own})) == []


def test_directives_taken_back_before_the_end_are_no_finding(tmp_path: Path) -> None:
    text = "`default_nettype tri1\n`celldefine\nmodule n;\nendmodule\n`endcelldefine\n"
    graph = _graph(tmp_path, {"n.v": text})
    assert file_problems("n.v", text + "`default_nettype wire\n", graph) == []
    assert [ln for ln, _ in file_problems("n.v", text, graph)] == [1]
    assert "resets every directive" in file_problems("n.v", "`resetall\n", graph)[0][1]


def test_a_timescale_counts_only_where_another_file_states_none(tmp_path: Path) -> None:
    ts = "`timescale 1ns/1ps\n"
    new = ts + "module n;\nendmodule\n"
    delay = "module m;\n  initial #5 $display;\nendmodule\n"
    graph = _graph(tmp_path, {"m.v": delay, "n.v": new})
    assert "in force in m.v" in file_problems("n.v", new, graph)[0][1]
    graph = _graph(tmp_path, {"m.v": ts + delay, "n.v": new})
    assert file_problems("n.v", new, graph) == []


def test_an_edited_file_is_held_only_to_what_its_base_does_not_have(tmp_path: Path) -> None:
    old = "module n;\nendmodule\n`default_nettype tri1\n"
    graph = _graph(tmp_path, {"n.v": old})
    assert new_problems("n.v", old, "// moved\n" + old, graph) == []
    assert [ln for ln, _ in new_problems("n.v", None, old, graph)] == [3]
    found = new_problems("n.v", old, old + "wire leak;\n", graph)
    assert [msg.startswith("text outside modules") for _, msg in found] == [True]


def test_a_file_that_is_a_link_to_the_new_one_is_no_other_reader(tmp_path: Path) -> None:
    text = "`define W 8\nmodule m(output [`W-1:0] y);\n  assign y = 0;\nendmodule\n"
    graph = _graph(tmp_path, {"lib/m_copy.vh": text})
    (tmp_path / "m.v").symlink_to("lib/m_copy.vh")
    graph = design_graph(tmp_path)
    assert new_problems("lib/m_copy.vh", None, text, graph) == []


def test_an_attribute_before_a_module_is_no_text_outside_it(tmp_path: Path) -> None:
    text = "(* no_ungroup *)\nmodule n;\nendmodule\n"
    assert file_problems("n.v", text, _graph(tmp_path, {"n.v": text})) == []


def test_a_macro_a_new_file_calls_is_screened_in_its_definition(tmp_path: Path) -> None:
    # a body another file defines that forces or writes into the design, or that holds a
    # directive, is a finding where a new file calls it (also through another macro)
    defs = (
        "`define POKE force tb.t.u.y = 8'd7;\n"
        "`define VIA `POKE\n"
        "`define SAFE(x) assert (x);\n"
        "`define ND `default_nettype tri1\n"
    )
    files = {"top.v": TOP, "defs.vh": defs}
    for call, hit in [
        ("`POKE", True),
        ("`VIA", True),
        ("`ND", True),
        ("always @* `SAFE(1'b1)", False),
    ]:
        new = f"module h;\n  initial begin end\n  {call}\nendmodule\n"
        graph = _graph(tmp_path, {**files, "h.v": new})
        found = [msg for _ln, msg in file_problems("h.v", new, graph) if "expands to" in msg]
        assert bool(found) == hit, (call, found)


@pytest.mark.parametrize(
    ("code", "delay"),
    [
        ("always #(5) c = ~c;", True),
        ("initial begin # (2.5) a = 1; end", True),
        ("assign #DLY y = a;", True),
        ("always #`TCK c = ~c;", True),
        ("wire #(2) w = a;", True),
        ("q <= #1 d;", True),
        ("sub #(8) u(a, y);", False),
        ("sub #8 u(a, y);", False),
        ("module m #(parameter W = 1) ();", False),
        ("module m import p::*; #(parameter W = 1) ();", False),
        ("assert property (a |-> ##[0:2] b);", False),
    ],
)
def test_a_delay_in_any_spelling_is_one(code: str, delay: bool) -> None:
    """Round 79 case 15: the timescale rule's reading of another file's delays."""
    assert has_delay(code) is delay


def test_a_define_a_macro_call_makes_is_the_files_define(tmp_path: Path) -> None:
    """Round 79 cases 22, 25: ```MK(INC, 8'd2)`` is a ```define INC`` m.v reads."""
    mk = "`define MK(n, v) `define n v\n"
    graph = _graph(
        tmp_path,
        {
            "m.v": "module m(output [7:0] y);\n  assign y = `INC;\nendmodule\n",
            "a_defs.v": mk + "`MK(INC, 8'd1)\n",
        },
    )
    found = new_problems("a_defs.v", mk + "`MK(INC, 8'd1)\n", mk + "`MK(INC, 8'd2)\n", graph)
    assert (2, "the macro INC is also read by m.v") in [(ln, m.split(",")[0]) for ln, m in found]
    made = made_directives("`define DEF `define\n`DEF INC 8'd2\n")
    assert made.splitlines()[1].strip() == "`define INC 8'd2"
