from __future__ import annotations

from rtlopt.evaluate._sources import blank_spans, normalize_source, source_hash


def test_hash_ignores_comments_and_whitespace_but_not_strings() -> None:
    a = "module m(input a, output b);\n  assign b = a; // copy\nendmodule\n"
    b = "module m(input a,output b); /* x */ assign b = a;\n\nendmodule"
    assert source_hash(a) == source_hash(b)
    assert source_hash(a) != source_hash(a.replace("= a", "= ~a"))
    assert normalize_source('initial $display("a  // b");') == 'initial $display("a  // b");'


def test_blank_spans_keeps_lines() -> None:
    text = "module a;\nendmodule\nmodule b;\nendmodule\n"
    out = blank_spans(text, [(0, text.index("module b"))])
    assert out.count("\n") == text.count("\n")
    assert "module a" not in out and "module b;" in out
