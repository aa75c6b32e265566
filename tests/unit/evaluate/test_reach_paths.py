"""The grammar of a hierarchical name into the target (red team w39 F10): selects nest, a
macro that joins a formal with ``.`` builds a path."""

from __future__ import annotations

from rtlopt.evaluate._reach_paths import (
    Paths,
    built_path_uses,
    macro_argument_words,
    path_builders,
    skip_selects,
)


def test_a_select_holding_a_bracket_is_part_of_the_path() -> None:
    found = [m.group(0) for m in Paths({"u"}).finditer("tb.t.u[I[0]].c = 8'd7;")]
    assert found == ["u[I[0]].c"]
    m = Paths({"u"}).search("x = top.u [ a[b[1]] ] . sub[2].q;")
    assert m is not None and m.later == ("sub", "q") and m.group(1) == "sub"


def test_a_name_without_a_component_or_another_word_is_no_path() -> None:
    paths = Paths({"u", "m"})
    assert list(paths.finditer("m u(.a(a)); wire uu; assign x = mu.c; u [3] = 1;")) == []
    assert Paths(set()).search("u.c") is None and not Paths(set())


def test_the_module_name_and_root_are_anchors() -> None:
    assert [m.anchor for m in Paths({"m"}).finditer("$root.m.c = 1; \\m .d = 2;")] == ["m", "m"]


def test_skip_selects_nests_and_stops_at_the_rest() -> None:
    code = "u[a[1]][2] .c"
    assert code[skip_selects(code, 1)] == "."
    assert skip_selects("u[[[", 1) >= len("u[[[")  # unclosed: the rest is a select


def test_a_macro_joining_a_formal_with_a_dot_builds_a_path() -> None:
    defs = [
        ("AT", ["p", "n"], " p.n"),
        ("UNDER", ["n"], " `ROOT.n"),
        ("IDX", ["p", "i"], " p[i].c"),
        ("PASTE", ["p", "n"], " p``.``n"),
        ("CONN", ["p"], " .p(p)"),  # a named connection: no join
        ("SUM", ["a", "b"], " a + b"),
        ("INST", ["mod", "n"], " mod n(.clk(clk))"),
    ]
    assert path_builders(defs) == {"AT", "UNDER", "IDX", "PASTE"}


def test_a_use_of_a_path_builder_is_judged_by_its_arguments() -> None:
    code = "initial `AT(tb.x, q) = 1;\ninitial `AT(tb.t.u, c) = 8'd7;\n"
    uses = list(built_path_uses(code, {"AT"}, {"u", "c"}))
    assert [code.count("\n", 0, u.start()) for u in uses] == [1]
    assert list(built_path_uses("`AT(tb.x, q) = 1;", {"AT"}, {"u", "c"})) == []
    assert list(built_path_uses("`AT(`P, q) = 1;", {"AT"}, {"u"}))  # unknown expansion
    uses2 = list(macro_argument_words("`INST(m, u);\n`F((a[1]), {b, c})", None))
    assert [(name, words) for _, name, words in uses2] == [
        ("INST", {"m", "u"}),
        ("F", {"a", "b", "c"}),
    ]


def test_a_macro_handing_a_formal_to_a_builder_is_a_builder() -> None:
    defs = [("AT", ["p", "n"], " p.n"), ("OUTER", ["x"], " `AT(x, c) = 1"), ("NO", ["x"], " x")]
    assert path_builders(defs) == {"AT", "OUTER"}


def test_read_lines_are_the_lines_a_reading_surely_compiles() -> None:
    from rtlopt.evaluate._reach_names import read_lines

    text = (
        "`ifndef G\n`define G\n`define AT(p, n) \\\n  p.n\na\n`ifdef SIM\nb\n`else\nc\n"
        "`endif\n`ifdef OTHER\nd\n`endif\n`endif\n"
    )
    seen, bodies = read_lines(text, [set()], {"OTHER"})
    lines = text.split("\n")
    assert {lines[i - 1] for i in seen} - {""} == {"a", "c"}  # not b (SIM off), d (unsure)
    assert bodies == {2, 3, 4}
    seen, _ = read_lines(text, [{"SIM"}], set())
    assert {lines[i - 1] for i in seen} - {""} == {"a", "b"}
