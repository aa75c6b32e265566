"""The one Verilog text module: the lexer's edge cases and what is built on it."""

from __future__ import annotations

import re

from rtlopt.verilog import (
    CONDITIONAL_DIRECTIVES,
    DIRECTIVES,
    MACRO_DIRECTIVES,
    OTHER_DIRECTIVES,
    PARAMETER_SCAN_DIRECTIVES,
    PASS_THROUGH_DIRECTIVES,
    PREPROCESSOR_DIRECTIVES,
    alternation,
    blank_comments,
    comments,
    first_module_start,
    module_declarations,
    module_spans,
    normalize_source,
    normalized_hash,
    rename_declaration,
    rename_modules,
    scan,
    source_hash,
)


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(kind, text[a:b]) for kind, a, b in scan(text)]


def test_escaped_identifier_holding_a_line_comment_start_is_code() -> None:
    text = "wire \\a//b ;\nassign \\a//b  = x; // real\n"
    out = blank_comments(text)
    assert out.count("\\a//b") == 2  # both uses survive
    assert "real" not in out and "x;" in out
    assert comments(text) == [(text.index("// real"), "// real")]


def test_escaped_identifier_holding_a_quote_does_not_open_a_string() -> None:
    text = 'wire \\a"b ;\nassign y = x; // c\nwire z;\n'
    out = blank_comments(text)
    assert "assign y = x;" in out and "wire z;" in out and "// c" not in out
    assert ("escaped", '\\a"b') in _kinds(text)
    assert not [k for k, _ in _kinds(text) if k == "string"]


def test_string_holding_a_block_comment_start_is_not_a_comment() -> None:
    text = 'initial $display("/* not a comment");\nwire kept;\n// */ gone\n'
    out = blank_comments(text)
    assert "wire kept;" in out and "gone" not in out
    assert '$display("' in out and "not a comment" not in out  # quotes stay, contents go
    assert blank_comments(text, strings=False).count("/* not a comment") == 1


def test_block_comments_do_not_nest() -> None:
    text = "/* outer /* inner */ wire after;\n/* a\n// b\n*/ wire last;\n"
    out = blank_comments(text)
    assert "wire after;" in out and "wire last;" in out
    assert "outer" not in out and "inner" not in out and "// b" not in out
    assert out.count("\n") == text.count("\n") and len(out) == len(text)


def test_attributes_and_star_sensitivity_are_code() -> None:
    text = '(* keep *) reg r;\nalways @(*) r = a;\n(* src = "x.v:1" *) wire w;\n'
    out = blank_comments(text)
    assert "(* keep *) reg r;" in out and "always @(*) r = a;" in out
    assert '(* src = "' in out and "x.v:1" not in out and "wire w;" in out
    assert comments(text) == []


def test_unterminated_string_and_comment_end_at_line_or_text_end() -> None:
    assert blank_comments('x = "abc\ny;') == 'x = "   \ny;'
    assert blank_comments('x = "abc') == 'x = "   '
    assert blank_comments("a /* open") == "a        "


def test_escaped_quote_inside_a_string() -> None:
    text = 'initial $display("a\\"b // c");\nwire w; // d\n'
    out = blank_comments(text)
    assert "wire w;" in out and "// d" not in out and "// c" not in out


def test_module_spans_ignore_comments_strings_and_escaped_names() -> None:
    text = (
        "// module fake;\n/* module nope; endmodule */\n"
        'module a; initial $display("endmodule"); endmodule\n'
        "module \\b//c (input x); endmodule\n"
    )
    spans = module_spans(text)
    assert [s.name for s in spans] == ["a", "\\b//c"]
    assert text[spans[0].start : spans[0].end].endswith("endmodule")
    assert spans[1].line == 4


def test_module_declarations_find_unfinished_modules() -> None:
    text = "// module ghost\nmodule top(input a);\nmodule half(output y);\n  assign y ="
    assert [n for n, _ in module_declarations(text)] == ["top", "half"]
    assert module_spans(text) == []


def test_first_module_start_in_an_answer() -> None:
    answer = "Here it is:\n```verilog\nmodule m(input a); endmodule\n```"
    assert answer[first_module_start(answer) or 0 :].startswith("module m(")
    assert first_module_start("no verilog here") is None


def test_rename_declaration_skips_comments_and_strings() -> None:
    text = '// module old\ninitial $display("module old");\nmodule old(input a); endmodule\n'
    out = rename_declaration(text, "old", "new")
    assert out.count("module new(") == 1 and "// module old" in out
    assert '"module old"' in out
    assert rename_declaration(text, "absent", "x") == text


def test_rename_modules_declarations_instances_and_labels_only() -> None:
    text = (
        "module sub(input a); endmodule\n"
        "module top(input sub); sub u (.a(sub)); // sub\nendmodule : top\n"
    )
    out = rename_modules(text, {"sub": "sub_r", "top": "top_r"})
    assert "module sub_r(" in out and "sub_r u (.a(sub))" in out
    assert "module top_r(input sub)" in out and "endmodule : top_r" in out
    assert "// sub" in out


def test_normalized_hash_keeps_escaped_identifiers_whole() -> None:
    """``\\a =x`` and ``\\a= x`` are different programs (the space ends the identifier)."""
    a, b = "assign \\a =x;", "assign \\a= x;"
    assert normalized_hash(a) != normalized_hash(b)
    assert normalize_source("wire \\a//b  ;  // c") == "wire \\a//b ;"


def test_normalized_hash_ignores_comment_markers_only_outside_strings() -> None:
    a = 'initial $display("// x");'
    assert normalized_hash(a) != normalized_hash('initial $display("// y");')
    assert normalized_hash(a) == normalized_hash('initial  $display("// x");  // z')
    assert source_hash(a) != source_hash(a + "\n")


def test_directive_groups_are_disjoint_and_make_up_the_whole_list() -> None:
    groups = [CONDITIONAL_DIRECTIVES, MACRO_DIRECTIVES, PASS_THROUGH_DIRECTIVES, OTHER_DIRECTIVES]
    words = [w for g in groups for w in g] + ["include"]
    assert len(words) == len(set(words)) == len(DIRECTIVES)
    assert set(words) == DIRECTIVES
    assert set(PREPROCESSOR_DIRECTIVES) == {*CONDITIONAL_DIRECTIVES, *MACRO_DIRECTIVES, "include"}
    assert PARAMETER_SCAN_DIRECTIVES < DIRECTIVES
    assert "undefineall" not in PARAMETER_SCAN_DIRECTIVES and "define" in PARAMETER_SCAN_DIRECTIVES


def test_alternation_matches_whole_words_and_is_order_free() -> None:
    pattern = alternation(["else", "elsif", "undef", "undefineall", "__FILE__"])
    assert pattern == alternation(["__FILE__", "undefineall", "undef", "elsif", "else"])
    # longest first: without a word boundary after it, the longer word still wins
    assert [m.group(0) for m in re.finditer(pattern, "`elsif `undefineall `else")] == [
        "elsif",
        "undefineall",
        "else",
    ]
    assert re.fullmatch(alternation(["a.b"]), "a.b") and not re.fullmatch(
        alternation(["a.b"]), "axb"
    )
