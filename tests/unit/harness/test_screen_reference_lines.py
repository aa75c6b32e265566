"""A rule the reference module breaks leaves every changed candidate unchecked; the message
names the line of the reference's file (a module below a header, other modules or a long
comment is not on the line its own text counts)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import Config
from rtlopt.frontend import load_design
from rtlopt.harness import screen_candidate

HEAD = "// a header\n// of four\n// lines\n\nmodule other(input a, output b);\n  assign b = a;\nendmodule\n\n"
PORTS = "module m(input logic [7:0] a, output logic [7:0] y);\n"


def _screen(tmp_path: Path, ref: str, view: bool) -> list[str]:
    f = tmp_path / "m.sv"
    f.write_text(HEAD + ref)
    design = load_design(f, "m", Config().project)
    assert design.target.line == (HEAD + ref).count("\n", 0, (HEAD + ref).index(PORTS)) + 1
    return screen_candidate(PORTS + "  assign y = a;\nendmodule\n", design, dotted_names=view)


def test_a_reference_reading_rule_names_the_file_line(tmp_path: Path) -> None:
    ref = PORTS + "  logic [7:0] t;\n  always @* begin\n    y = t;\n    t = a;\n  end\nendmodule\n"
    found = _screen(tmp_path, ref, False)
    line = HEAD.count("\n") + 4  # "y = t;"
    assert found and f"unchecked: the reference module, line {line}: 't' is read" in found[0], found


def test_a_reference_statement_the_view_drops_names_the_file_line(tmp_path: Path) -> None:
    ref = (
        PORTS
        + "  always_comb begin\n    y = a; assert (a != 8'hA5) else y = 8'h00;\n  end\nendmodule\n"
    )
    found = _screen(tmp_path, ref, True)
    line = HEAD.count("\n") + 3
    assert any(f"the reference module, line {line}: an assertion action" in f for f in found), found


def test_a_reference_qualifier_the_view_reads_names_the_file_line(tmp_path: Path) -> None:
    (tmp_path / "defs.svh").write_text("`define U unique\n")
    ref = (
        '`include "defs.svh"\n' + PORTS + "  always_comb begin\n    y = 0;\n"
        "    `U case (a[1:0]) 0: y = a; endcase\n  end\nendmodule\n"
    )
    found = _screen(tmp_path, ref, True)
    line = HEAD.count("\n") + 5
    assert any(f"the reference module, line {line}: a unique" in f for f in found), found
