"""Directives a new file leaves in force, judged on the text a build reads (red team w39 F5):
a taking back in a dead ``ifdef`` branch, a macro body or an escaped identifier is none."""

from __future__ import annotations

from pathlib import Path

from rtlopt.check._file_screen import directive_problems

H = "module helper(input i, output o);\n  assign o = i;\nendmodule\n"


def _lines(text: str) -> list[int]:
    return sorted(line for line, _ in directive_problems(text))


def test_a_taking_back_only_some_configurations_read_takes_nothing_back() -> None:
    dead = H + "`unconnected_drive pull1\n`ifdef NEVER_DEFINED\n`nounconnected_drive\n`endif\n"
    found = directive_problems(dead)
    assert [ln for ln, _ in found] == [4]
    assert "pull1 in force after the file in some configuration" in found[0][1]
    other = "`default_nettype tri1\n`ifndef SYNTHESIS\n`else\n`default_nettype wire\n`endif\n"
    assert _lines(other) == [1]
    cell = "`celldefine\n`ifdef A\n`elsif B\n`else\n`endcelldefine\n`endif\n"
    assert _lines(cell) == [1]
    keywords = '`begin_keywords "1364-2005"\n`ifdef A\n`end_keywords\n`endif\n'
    assert _lines(keywords) == [1]


def test_a_directive_in_a_macro_body_or_an_escaped_identifier_is_no_taking_back() -> None:
    macro = H + "`unconnected_drive pull1\n`define NO_DRIVE `nounconnected_drive\n"
    found = directive_problems(macro)
    assert _lines(macro) == [4, 5]
    assert any("in a macro body" in msg for _, msg in found)
    escaped = H + "`unconnected_drive pull1\nwire \\x`nounconnected_drive ;\n"
    assert _lines(escaped) == [4, 5]
    # a macro named like the directive: iverilog reads the later `nounconnected_drive as it
    renamed = "`define nounconnected_drive\n`unconnected_drive pull1\n`nounconnected_drive\n" + H
    assert _lines(renamed) == [1]


def test_a_taking_back_every_configuration_reads_is_no_finding() -> None:
    assert directive_problems("`default_nettype none\n" + H + "`default_nettype wire\n") == []
    pair = "`ifdef SIM\n`unconnected_drive pull0\n`endif\n" + H
    assert directive_problems(pair + "`ifdef SIM\n`nounconnected_drive\n`endif\n") == []
    assert _lines(pair + "`ifndef SIM\n`nounconnected_drive\n`endif\n") == [2]
    inside = "`ifdef SIM\n`celldefine\n" + H + "`endcelldefine\n`else\n`endif\n"
    assert directive_problems(inside) == []
    # the file defines the macro it tests: only the branch a build reads counts
    assert directive_problems("`define SIM\n`ifndef SIM\n`unconnected_drive pull0\n`endif\n") == []


def test_unbalanced_conditionals_and_many_macros_fail_closed() -> None:
    assert _lines("`ifdef A\n" + H) == [1]
    assert _lines("`endif\n" + H) == [1]
    many = "".join(f"`ifdef M{i}\n`endif\n" for i in range(9))
    found = directive_problems(
        "`unconnected_drive pull1\n" + many + "`ifdef X\n`nounconnected_drive\n`endif\n"
    )
    assert [ln for ln, _ in found] == [20] and "branches of this conditional" in found[0][1]


def test_a_line_directive_is_a_finding_in_a_new_file_and_a_macro_body() -> None:
    # `line renames the file and renumbers the lines __FILE__ / __LINE__ and messages read
    placed = H + '`line 1 "other.v" 0\n'
    found = directive_problems(placed)
    assert [ln for ln, _ in found] == [4], found
    assert found[0][1].startswith("`line sets the file name and line number"), found
    assert _lines(H + '`define AT `line 7 "x.v" 0\n') == [4]


def test_a_line_directive_an_edited_file_already_held_is_no_new_finding(tmp_path: Path) -> None:
    from rtlopt.check._file_screen import new_problems
    from rtlopt.frontend._depgraph import design_graph

    old = '`line 1 "gen.v" 0\n' + H
    (tmp_path / "h.v").write_text(old)
    graph = design_graph(tmp_path)
    assert new_problems("h.v", old, old.replace("assign o = i;", "assign o = ~~i;"), graph) == []
    assert [ln for ln, _ in new_problems("h.v", H, old, graph)] == [1]
    assert new_problems("h.v", None, H, graph) == []
