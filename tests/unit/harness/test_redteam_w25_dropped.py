"""What the SystemVerilog view drops, judged in the text the tools read (red team w25): a
writing assertion in a header the reference includes, in an interface it instantiates or in a
package function it calls (F1), in a header a candidate includes (F2), and every compound
assignment kind as a write."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.harness import screen_candidate
from rtlopt.harness._dropped import dropped_problems
from rtlopt.verilog import blank_comments

PKG = "package k_pkg;\n  localparam logic [31:0] BAD = 32'h01234567;\nendpackage\n"
HEAD = "module m import k_pkg::*; (input logic [31:0] a, output logic [7:0] y);\n"
PLAIN = PKG + HEAD + "  assign y = a[7:0];\nendmodule\n"
WRITES = "assert (a != BAD) else y = 8'h00;\n"


def _design(tmp_path: Path, text: str) -> Design:
    f = tmp_path / "m.sv"
    f.write_text(text)
    start = text.index("module m ")
    end = text.index("endmodule", start) + len("endmodule")
    ports = (Port("a", "input", 32, 31, 0), Port("y", "output", 8, 7, 0))
    m = Module("m", f, text.count("\n", 0, start) + 1, start, end, ports)
    return Design(tmp_path, m, SourceSet(tmp_path, (f,)), {"m": m}, (f,))


@pytest.mark.parametrize(
    "op", ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "<<<=", ">>>="]
)
def test_every_compound_assignment_in_an_assertion_writes(op: str) -> None:
    text = "module m(input [7:0] a, output logic [7:0] y);\n  always_comb begin y = a;\n"
    text += f"  assert ((y {op} 8'h1) != 8'h5); end\nendmodule\n"
    found = [msg for _, _, msg in dropped_problems(blank_comments(text))]
    assert found and "assertion action" in found[0], (op, found)


@pytest.mark.parametrize("where", ["header", "interface", "package"])
def test_a_writing_assertion_the_reference_reads_outside_its_module_leaves_it_unchecked(
    tmp_path: Path, where: str
) -> None:
    """F1: a header included in a process, an interface the target instantiates, a package
    function it calls: the view drops the assertion, every simulator runs it."""
    if where == "header":
        (tmp_path / "chk.svh").write_text(WRITES)
        body = '  always_comb begin\n    y = a[7:0];\n    `include "chk.svh"\n  end\n'
        ref = PKG + HEAD + body + "endmodule\n"
    elif where == "interface":
        itf = "interface chk_if import k_pkg::*; (input logic [31:0] a);\n  logic [7:0] v;\n"
        itf += "  always_comb begin v = a[7:0]; " + WRITES + "  end\nendinterface\n"
        ref = PKG + itf + HEAD + "  chk_if i(.a(a));\n  assign y = i.v;\nendmodule\n"
    else:
        fn = "  function automatic logic [7:0] low(logic [31:0] a); low = a[7:0];\n"
        fn += "    assert (a != BAD) else low = 8'h00;\n  endfunction\n"
        ref = PKG.replace("endpackage", fn + "endpackage") + HEAD
        ref += "  assign y = low(a);\nendmodule\n"
    found = screen_candidate(PLAIN, _design(tmp_path, ref), dotted_names=True)
    assert found and "unchecked: the reference as the tools read it" in found[0], found
    assert "assertion action" in found[0]


def test_the_reference_reading_judges_its_hierarchy_and_fails_closed(tmp_path: Path) -> None:
    """A module outside the target's hierarchy is not elaborated: its assertion is not the
    reference's; a unit slang cannot read (an undefined macro) is unchecked."""
    other = "module other(input logic [31:0] a, output logic [7:0] y);\n  always_comb begin\n"
    other += "    y = a[7:0]; " + WRITES.replace("BAD", "32'h5") + "  end\nendmodule\n"
    assert screen_candidate(PLAIN, _design(tmp_path, other + PLAIN), dotted_names=True) == []
    broken = PLAIN.replace("endpackage", "  localparam int Q = `NOT_DEFINED;\nendpackage")
    found = screen_candidate(PLAIN, _design(tmp_path, broken), dotted_names=True)
    assert found and "unchecked: the reference cannot be read as the tools read it" in found[0]


def test_a_candidate_is_judged_with_the_headers_it_includes(tmp_path: Path) -> None:
    """F2: a repository header holding a writing assertion, included by the candidate."""
    design = _design(tmp_path, PLAIN)
    (tmp_path / "chk.svh").write_text(WRITES)
    (tmp_path / "w.svh").write_text("localparam int W = 7;\n")
    body = '  always_comb begin\n    y = a[7:0];\n    `include "chk.svh"\n  end\n'
    cand = PKG + HEAD + body + "endmodule\n"
    found = screen_candidate(cand, design, dotted_names=True)
    assert any("assertion action" in f and "(its headers expanded)" in f for f in found), found
    # a header that holds nothing of that kind is judged clean
    clean = cand.replace('`include "chk.svh"', "").replace(
        "  always_comb", '`include "w.svh"\n  always_comb'
    )
    assert not any(
        "(its headers expanded)" in f for f in screen_candidate(clean, design, dotted_names=True)
    )
    # a header not found: the text cannot be read so
    lost = cand.replace("chk.svh", "nowhere.svh")
    found = screen_candidate(lost, design, dotted_names=True)
    assert any("cannot read this text with its headers expanded" in f for f in found), found


def test_a_guarded_header_read_twice_is_read_past(tmp_path: Path) -> None:
    """A header the target's file includes and the candidate includes again is skipped by
    slang behind its include guard (as by every tool): no reading fails on it, while a
    namesake of other contents in a folder a tool searches still does."""
    from rtlopt.harness._powered import text_power_up, text_read

    (tmp_path / "g.svh").write_text("`ifndef G_SVH\n`define G_SVH\n`define W 7\n`endif\n")
    ref = '`include "g.svh"\n' + PLAIN.replace("[7:0] y", "[`W:0] y")
    design = _design(tmp_path, ref)
    cand = ref.replace("a[7:0]", "a[`W:0]")
    assert text_power_up(cand, design) == {"m": {}}
    assert all("assign y = a[7:0];" in t for t in text_read(cand, design))
    other = tmp_path / "inc"
    other.mkdir()
    (other / "g.svh").write_text("`define W 3\n")
    design = _design(tmp_path, ref)
    design = Design(
        tmp_path,
        design.target,
        SourceSet(tmp_path, (tmp_path / "m.sv",), include_dirs=(other,)),
        design.modules,
        design.closure,
    )
    with pytest.raises(RuntimeError, match="other contents"):
        text_read(cand, design)


def test_a_repository_module_the_candidate_instantiates_is_judged_as_read(
    tmp_path: Path,
) -> None:
    """A module outside the reference's hierarchy, reached by the candidate (through another
    one too), holding a writing assertion in a header it includes."""
    (tmp_path / "chk.svh").write_text(WRITES)
    other = "module other import k_pkg::*; (input logic [31:0] a, output logic [7:0] y);\n"
    other += '  always_comb begin\n    y = a[7:0];\n    `include "chk.svh"\n  end\nendmodule\n'
    outer = "module outer(input logic [31:0] a, output logic [7:0] y);\n"
    outer += "  other u(.a(a), .y(y));\nendmodule\n"
    text = PKG + other + outer + HEAD + "  assign y = a[7:0];\nendmodule\n"
    design = _design(tmp_path, text)
    f = design.target.file
    ports = design.target.ports
    mods = {
        "m": design.target,
        "other": Module("other", f, 4, text.index("module other"), 0, ports),
        "outer": Module("outer", f, 10, text.index("module outer"), 0, ports, instances=("other",)),
    }
    design = Design(tmp_path, design.target, design.sources, mods, design.closure)
    assert screen_candidate(PLAIN, design, dotted_names=True) == []
    for inst in ("other u(.a(a), .y(y));", "outer u(.a(a), .y(y));"):
        cand = PKG + HEAD + f"  {inst}\nendmodule\n"
        found = screen_candidate(cand, design, dotted_names=True)
        assert any("a repository module the candidate instantiates" in x for x in found), found
    lost = dict(mods, gone=Module("gone", f, 1, 0, 0, ports))
    design = Design(tmp_path, design.target, design.sources, lost, design.closure)
    found = screen_candidate(
        PKG + HEAD + "  gone u(.a(a), .y(y));\nendmodule\n", design, dotted_names=True
    )
    assert any("cannot be judged (module gone is found in no reading)" in x for x in found), found
