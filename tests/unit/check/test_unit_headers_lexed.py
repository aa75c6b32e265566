"""Design unit headers are found by the Verilog lexer's tokens, not a line regex: a name on
the line after its keyword, an attribute before it, a comment between (the gate's second
definition of a unit in a file the configured build does not read)."""

from rtlopt.check._foreign_units import foreign_findings, unit_definitions


def test_name_after_a_newline_and_comments() -> None:
    text = "// lib netlist\nmodule\n  /* site */ inv(a, y);\nendmodule\n"
    assert unit_definitions(text) == [(2, "module", "inv")]


def test_attribute_before_the_keyword() -> None:
    text = "(* keep_hierarchy *) module inv(input a, output y);\nalways @(*) ;\nendmodule\n"
    assert unit_definitions(text) == [(1, "module", "inv")]


def test_lifetime_escaped_name_and_other_keywords() -> None:
    text = "macromodule automatic\n\\inv (a);\nendmodule\nprimitive\n p (o, i);\n"
    assert unit_definitions(text) == [(1, "macromodule", "inv"), (4, "primitive", "p")]


def test_comment_or_string_makes_no_unit() -> None:
    text = '// module inv\n/* module inv */\ninitial $display("module inv");\n'
    assert unit_definitions(text) == []


def test_shadowing_file_is_a_finding() -> None:
    new = "(* keep *)\nmodule\ninv(input a, output y); assign y = a; endmodule\n"
    found = foreign_findings({"lib/inv.vg": "A"}, ["inv.v"], lambda rel: ("", new), ["inv"], {})
    assert found and "second definition of module inv" in found[0][1]


def test_keyword_spelled_by_a_macro() -> None:
    text = "`define MOD module\n`MOD\n  inv(input a, output y);\nendmodule\n"
    assert (2, "module", "inv") in unit_definitions(text)
