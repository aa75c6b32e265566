"""What a file declares in its compilation unit's scope (``frontend/_unit_decls.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.errors import DesignError
from rtlopt.frontend._unit_decls import unit_declarations, unit_scope_text

UNIT = """// every kind of unit-scope declaration
localparam int W = 4, V = 3;
typedef enum {EA, EB} e_t;
function automatic [7:0] F(input [7:0] x); F = x + 4; endfunction
task T; endtask
wire [3:0] n;
logic v;
let L(x) = x + 1;
class C; int q; endclass
import p::X;
import q::*;
module m; localparam int INNER = 1; endmodule
package pk; localparam int Z = 1; endpackage
interface ii; logic in_if; endinterface
"""


def test_every_declaration_outside_the_design_units_is_named(tmp_path: Path) -> None:
    scope = unit_declarations(tmp_path / "u.inc", UNIT)
    names = {(d.name, d.kind) for d in scope.declarations}
    assert {n for n, _ in names} == {
        "W", "V", "EA", "EB", "e_t", "F", "T", "n", "v", "L", "C", "X", "q",
    }  # fmt: skip
    assert ("q", "WildcardImport") in names and ("X", "ExplicitImport") in names
    assert {d.line for d in scope.declarations if d.name in ("W", "V")} == {2}
    assert scope.unreadable == ""


def test_design_units_and_directives_alone_declare_nothing(tmp_path: Path) -> None:
    text = (
        "`timescale 1ns/1ps\n`define A 1\n(* keep *) module m; wire w; endmodule\n"
        "package p; localparam int W = 8; endpackage\n"
    )
    assert not unit_scope_text(text).strip()
    assert unit_declarations(tmp_path / "m.v", text).declarations == ()


def test_a_macro_or_header_it_cannot_read_at_unit_scope_is_unreadable(tmp_path: Path) -> None:
    macro = unit_declarations(tmp_path / "a.inc", "`DECL_W\nmodule m; endmodule\n")
    assert "line 1: a macro defined elsewhere" in macro.unreadable
    header = unit_declarations(tmp_path / "b.inc", '`include "absent.svh"\n')
    assert "an include it cannot open" in header.unreadable
    # a macro the file defines itself is read: its declaration is named
    own = unit_declarations(tmp_path / "c.inc", "`define D localparam int Q = 1;\n`D\n")
    assert [d.name for d in own.declarations] == ["Q"] and own.unreadable == ""
    # a header beside the file is read where it is included
    (tmp_path / "h.svh").write_text("typedef logic [3:0] h_t;\n")
    inc = unit_declarations(tmp_path / "d.sv", '`include "h.svh"\n')
    assert [d.name for d in inc.declarations] == ["h_t"]


def test_the_rule_reads_the_words_of_the_macros_a_text_uses() -> None:
    from rtlopt.evaluate._unit_scope import _with_macros

    macros = {"MW": {"W", "INNER"}, "INNER": {"V"}, "OTHER": {"Q"}}
    assert _with_macros({"a"}, "assign y = a + `MW;", macros) == {"a", "W", "INNER", "V"}


def test_a_crash_of_slang_is_an_error_naming_the_file(tmp_path: Path) -> None:
    """slang (pyslang 12) crashes on this unit-scope text: the child process reading it dies,
    rtlopt does not; the error names the file and what to do."""
    with pytest.raises(DesignError) as got:
        unit_declarations(tmp_path / "junk.inc", "a+b\n")
    text = got.value.one_line()
    assert "junk.inc" in text and "slang crashed" in text and "\n" not in text
    assert unit_declarations(tmp_path / "ok.inc", "localparam int W = 4;\n").declarations


def test_files_read_together_name_the_one_slang_crashes_on(tmp_path: Path) -> None:
    """One child reads many files; where slang crashes there, each file is read alone and
    the error names the one it crashes on."""
    from rtlopt.frontend._unit_decls import read_unit_scopes

    good = [(tmp_path / f"g{i}.inc", f"localparam int G{i} = {i};\n", ()) for i in range(3)]
    bad = (tmp_path / "bad.inc", "a+b\n", ())
    read_unit_scopes([*good, bad])
    for path, text, _ in good:
        assert [d.name for d in unit_declarations(path, text).declarations] == [f"G{path.stem[1:]}"]
    with pytest.raises(DesignError, match=r"bad\.inc"):
        unit_declarations(bad[0], bad[1])
