from __future__ import annotations

from rtlopt.verilog import blank_spans, normalize_source, normalized_hash, source_hash


def test_normalized_hash_ignores_comments_and_whitespace_but_not_strings() -> None:
    a = "module m(input a, output b);\n  assign b = a; // copy\nendmodule\n"
    b = "module m(input a,output b); /* x */ assign b = a;\n\nendmodule"
    assert normalized_hash(a) == normalized_hash(b)
    assert normalized_hash(a) != normalized_hash(a.replace("= a", "= ~a"))
    assert normalize_source('initial $display("a  // b");') == 'initial $display("a  // b");'


def test_source_hash_is_exact_bytes() -> None:
    """The cache key: a comment or a space makes a different candidate (a comment may be a
    tool directive), and operators that normalize alike stay apart."""
    a = "module m(input a, output b);\n  assign b = a; // copy\nendmodule\n"
    assert source_hash(a) == source_hash(str(a))
    assert source_hash(a) != source_hash(a.replace("// copy", "// synopsys translate_off"))
    assert source_hash(a) != source_hash(a + " ")
    x, y = "assign y = a+b;", "assign y = a + b ;"
    assert normalized_hash(x) == normalized_hash(y)
    assert source_hash(x) != source_hash(y)


def test_normalized_hash_keeps_tokens_apart() -> None:
    """Cosmetic variants only: a space that separates two operator tokens is kept."""
    assert normalized_hash("assign y = a && b;") != normalized_hash("assign y = a & &b;")
    assert normalize_source("assign y = ( a + b ) ;") == "assign y= (a+b) ;"


def test_blank_spans_keeps_lines() -> None:
    text = "module a;\nendmodule\nmodule b;\nendmodule\n"
    out = blank_spans(text, [(0, text.index("module b"))])
    assert out.count("\n") == text.count("\n")
    assert "module a" not in out and "module b;" in out
