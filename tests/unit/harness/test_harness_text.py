"""Unit tests: comment blanking, module renaming, reference text, screening (no tools)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.harness import (
    REF_SUFFIX,
    blank_comments,
    reference_text,
    rename_modules,
    screen_candidate,
)

SRC = """`timescale 1ns/1ps
`define W 4
// top instantiates sub twice; a signal is called sub_n and an instance is called sub
module top #(parameter N = 2) (input [3:0] a, output [3:0] y);
  wire sub_n; /* module sub ( */
  sub #(.K(1)) sub (.x(a[0]), .y(y[0]));
  sub u_sub2 [1:0] (.x(a[2:1]), .y(y[2:1]));
  leaf l0(.q(y[3]));
  assign sub_n = 1'b0;
endmodule : top
module sub #(parameter K = 0) (input x, output y);
  assign y = ~x;
endmodule
module leaf(output q); assign q = 1'b1; endmodule
module unused(output q); assign q = 1'b0; endmodule
"""


def _module(
    path: Path, text: str, name: str, ports: tuple[Port, ...] = (), instances: tuple[str, ...] = ()
) -> Module:
    start = text.index(f"module {name}")
    end = text.index("endmodule", start) + len("endmodule")
    if text[end:].startswith(" : "):
        end += len(" : ") + len(name)
    return Module(
        name, path, text.count("\n", 0, start) + 1, start, end, ports, instances=instances
    )


def make_design(tmp_path: Path, text: str = SRC) -> Design:
    """A Design built by hand (no frontend needed)."""
    f = tmp_path / "top.v"
    f.write_text(text)
    top = _module(
        f, text, "top", (Port("a", "input", 4, 3, 0), Port("y", "output", 4, 3, 0)), ("sub", "leaf")
    )
    mods = {
        m.name: m
        for m in (
            top,
            _module(f, text, "sub"),
            _module(f, text, "leaf"),
            _module(f, text, "unused"),
        )
    }
    return Design(tmp_path, top, SourceSet(tmp_path, (f,)), mods, (f,), ("sub", "leaf"))


_PORTS = (Port("a", "input", 4, 3, 0), Port("y", "output", 4, 3, 0))


def file_design(tmp_path: Path, text: str, names: tuple[str, ...] = ("top",)) -> Design:
    """``text`` as ``top.v`` and a design of its modules ``names`` (ports ``a`` and ``y``
    each), built by hand; ``top`` is the target."""
    f = tmp_path / "top.v"
    f.write_text(text)
    mods = {name: _module(f, text, name, _PORTS) for name in names}
    return Design(tmp_path, mods["top"], SourceSet(tmp_path, (f,)), mods, (f,), ())


def test_blank_comments_keeps_offsets() -> None:
    text = 'a // $finish\nb /* x\n y */ c "str $display" d'
    out = blank_comments(text)
    assert len(out) == len(text)
    assert out.count("\n") == text.count("\n")
    assert "$finish" not in out and "$display" not in out
    assert out.split() == ["a", "b", "c", '"', '"', "d"]
    assert "$display" in blank_comments(text, strings=False)


def test_rename_modules_only_types_and_declarations() -> None:
    out = rename_modules(SRC, {"sub": "sub__r", "top": "top__r", "leaf": "leaf__r"})
    assert "module top__r #(" in out
    assert "endmodule : top__r" in out
    assert "sub__r #(.K(1)) sub (" in out  # type renamed, instance name kept
    assert "sub__r u_sub2 [1:0]" in out
    assert "leaf__r l0(" in out
    assert "wire sub_n;" in out and "assign sub_n" in out
    assert "/* module sub ( */" in out  # comments untouched
    assert "module unused" in out


def test_reference_text_renames_closure(tmp_path: Path) -> None:
    d = make_design(tmp_path)
    ref = reference_text(d)
    assert f"module top{REF_SUFFIX}" in ref
    assert f"module sub{REF_SUFFIX}" in ref
    assert f"leaf{REF_SUFFIX} l0" in ref
    assert "module unused" not in ref
    assert "`define W 4" in ref and "`timescale 1ns/1ps" in ref
    # no unrenamed declaration of a closure module remains
    code = blank_comments(ref)
    for name in ("top", "sub", "leaf"):
        assert f"module {name} " not in code and f"module {name}(" not in code


CLEAN = """`timescale 1ns/1ps
module top(input [3:0] a, output [3:0] y);
  // a comment that says $finish and `include "x" and initial
  localparam W = $clog2(16);
  assign y = $unsigned(~a) + W[3:0];
  sub u (.x(a[0]), .y());
endmodule
"""


@pytest.mark.parametrize(
    "snippet, needle",
    [
        ('`include "/etc/passwd"', "`include"),
        ("`define X 1", "`define"),
        ("`ifdef X\n`endif", "`ifdef"),
        ("`UNDEFINED_MACRO", "not defined"),
        ('initial $display("RTLOPT x RESULT vectors=1 checks=1 mismatches=0");', "$display"),
        ("initial $finish;", "$finish"),
        ("always @(*) $stop;", "$stop"),
        ('integer f; always @(*) f = $fopen("/tmp/x");', "$fopen"),
        ("wire r = $random;", "$random"),
        ("initial begin end", "initial"),
        ("always @(*) force y = 0;", "force"),
        ("wire t = rtlopt_tb.errors_;", "testbench"),
        ("wire t = u_ref.y;", "hierarchical"),
        (f"top{REF_SUFFIX} u2 (.a(a));", "renamed reference"),
        (f"module top{REF_SUFFIX}(input a); endmodule", "reserved"),
        ("module rtlopt_tb; endmodule", "testbench"),
        ('import "DPI-C" function int f();', "DPI"),
        ("bind top sub u3 (.x(a[0]));", "bind"),
        ("always #5 y = ~y;", "delay"),
        ("wire q = $root.rtlopt_tb.x;", "$root"),
    ],
)
def test_screen_rejects(tmp_path: Path, snippet: str, needle: str) -> None:
    d = make_design(tmp_path)
    text = CLEAN.replace("endmodule", snippet + "\nendmodule", 1)
    problems = screen_candidate(text, d)
    assert problems, snippet
    assert any(needle.lower() in p.lower() for p in problems), problems
    line = CLEAN.count("\n", 0, CLEAN.index("endmodule")) + 1
    assert any(p.startswith(f"line {line}:") for p in problems), problems


def test_screen_accepts_clean_and_repo_macros(tmp_path: Path) -> None:
    d = make_design(tmp_path)
    assert screen_candidate(CLEAN, d) == []
    assert screen_candidate(CLEAN.replace("W[3:0]", "`W"), d) == []  # `W defined in top.v
    assert screen_candidate("module top #(.P(1)) (); endmodule".replace("#(.P(1)) ", ""), d) == []
    assert (
        screen_candidate(
            "module top(input a, output y); sub #(.K(2)) s(.x(a), .y(y)); endmodule", d
        )
        == []
    )


def test_screen_size_limit(tmp_path: Path) -> None:
    d = make_design(tmp_path)
    assert screen_candidate(CLEAN, d, max_bytes=10)


def test_screen_initial_allowed_only_when_reference_uses_it(tmp_path: Path) -> None:
    cand = CLEAN.replace("endmodule", "reg [3:0] rom [0:1];\ninitial rom[0] = 4'd1;\nendmodule")
    assert any("initial" in p for p in screen_candidate(cand, make_design(tmp_path)))
    rom_src = SRC.replace(
        "assign sub_n = 1'b0;", "reg r;\n  initial r = 1'b0;\n  assign sub_n = r;"
    )
    (tmp_path / "rom").mkdir()
    d = make_design(tmp_path / "rom", rom_src)
    assert screen_candidate(cand, d) == []
    # still no system tasks inside it
    bad = cand.replace("rom[0] = 4'd1;", "$finish;")
    assert any("$finish" in p for p in screen_candidate(bad, d))


DIRECTIVE_SRC = """`timescale 1ns/1ps
`include "defs.vh"
`define W 4
`ifdef YOSYS
`define TOOL 1
`endif
module top (input [3:0] a, output [3:0] y);
`ifdef FAST
  assign y = ~a;
`else
  assign y = a ^ 4'hf;
`endif
endmodule
"""


def test_a_continued_define_is_judged_with_its_continuation(tmp_path: Path) -> None:
    """A `define continued with a backslash is one directive: the repository's own is the
    candidate's to keep, and a candidate that keeps its first line but changes the line after
    the backslash (the macro's body) is screened out."""
    src = DIRECTIVE_SRC.replace("`ifdef YOSYS\n`define TOOL 1\n`endif\n", "")
    src = src.replace("`define W 4", "`define W 4\n`define MIX(x) \\\n  ((x) ^ 4'h5)")
    d = file_design(tmp_path, src)
    assert screen_candidate(src.replace("assign y = ~a;", "assign y = ~(a);"), d) == []
    changed = src.replace("((x) ^ 4'h5)", "((x) ^ 4'h6)")
    assert any("`define is not allowed" in p for p in screen_candidate(changed, d))


def test_screen_accepts_the_repositorys_own_directives(tmp_path: Path) -> None:
    """Self-evaluation: directives the target's file already holds are not the candidate's."""
    src = DIRECTIVE_SRC.replace("`ifdef YOSYS\n`define TOOL 1\n`endif\n", "")
    d = file_design(tmp_path, src)
    assert screen_candidate(src, d) == []
    # what a candidate adds is still screened, directive by directive
    added = src.replace("`define W 4", '`define W 4\n`include "/etc/passwd"')
    assert any("`include is not allowed" in p for p in screen_candidate(added, d))
    changed = src.replace("`define W 4", "`define W 5")
    assert any("`define is not allowed" in p for p in screen_candidate(changed, d))
    other = src.replace("`ifdef FAST", "`ifdef SLOW")
    assert any("`ifdef is not allowed" in p for p in screen_candidate(other, d))
    # an open conditional would swallow the reference compiled after the candidate
    open_if = src.replace("`endif\nendmodule", "endmodule")
    assert any("unbalanced" in p for p in screen_candidate(open_if, d))


def test_screen_rejects_conditionals_tools_disagree_on_even_from_the_repository(
    tmp_path: Path,
) -> None:
    d = file_design(tmp_path, DIRECTIVE_SRC)
    # identical text adds nothing to judge (issue 22): never refused
    assert screen_candidate(DIRECTIVE_SRC, d) == []
    # any other candidate keeping the conditional on YOSYS (Yosys defines it, iverilog not)
    changed = DIRECTIVE_SRC.replace("assign y = ~a;", "assign y = a ^ 4'b1111;")
    problems = screen_candidate(changed, d)
    assert problems == [
        "line 4: compiler directive `ifdef YOSYS is not allowed (tools disagree on that macro)"
    ]


def test_screen_allows_the_references_conditional_on_a_macro_no_tool_defines(
    tmp_path: Path,
) -> None:
    """`ifdef MODEL_TECH (ModelSim) in the reference: no tool rtlopt runs defines it, so it
    reads the same in every tool; kept by a candidate it is not a finding, added it is."""
    src = DIRECTIVE_SRC.replace("`ifdef YOSYS", "`ifdef MODEL_TECH")
    d = file_design(tmp_path, src)
    assert screen_candidate(src, d) == []
    changed = src.replace("assign y = ~a;", "assign y = a ^ 4'b1111;")
    assert screen_candidate(changed, d) == []
    added = changed.replace("`define W 4", "`define W 4\n`ifdef VCS\n`define V 1\n`endif")
    assert any("`ifdef VCS is not allowed" in p for p in screen_candidate(added, d))


def test_screen_reads_what_the_tools_read_of_a_whole_file_copy(tmp_path: Path) -> None:
    """Inactive branches and unchanged copies of other repository modules are not screened;
    what is active in the candidate's own target module still is."""
    src = """`ifdef FORMAL
  `define KEEP (* keep *)
`else
  `define KEEP
`endif
module other(input a, output y);
  (* parallel_case *) wire w = a;
  assign y = w;
endmodule
module top (input [3:0] a, output [3:0] y);
`ifdef DEBUG
  initial $display("debug");
`endif
  `KEEP wire [3:0] t = ~a;
  assign y = t;
endmodule
"""
    d = file_design(tmp_path, src, ("other", "top"))
    # an edited copy (an identical one adds nothing to judge and is never refused), as
    # `rtlopt check` judges a file: its other modules are the change's own
    edited = src.replace("assign y = t;", "assign y = t; // edited")
    assert screen_candidate(edited, d, whole_file=True) == []
    # turned on by the context, the same branch is screened
    on = dataclasses.replace(d, sources=dataclasses.replace(d.sources, defines={"DEBUG": ""}))
    # (the reference's own check kept word for word is passed over: kept_checks)
    other = edited.replace('$display("debug")', '$display("other")')
    assert any("$display is not" in p for p in screen_candidate(other, on, whole_file=True))
    # the candidate's own target module adding the attribute is screened
    added = src.replace("`KEEP wire", "(* keep *) wire")
    assert any("(* keep *)" in p for p in screen_candidate(added, d, whole_file=True))
    # a changed copy of the other module is the candidate's doing
    changed = src.replace("assign y = w;", "assign y = ~w;")
    assert any("parallel_case" in p for p in screen_candidate(changed, d, whole_file=True))
    # a candidate (evaluate, optimize) defines the target and new helpers only: the copy of
    # `other`, changed or not, would be written over the repository's
    for text in (edited, changed):
        assert any(
            p.startswith("line 6: module other is already a module of the repository (top.v)")
            for p in screen_candidate(text, d)
        )


def test_screen_allows_a_tool_conditional_in_an_inactive_branch(tmp_path: Path) -> None:
    """ibex's ``ifdef FORMAL / ifdef YOSYS / include ... / endif / endif``: no tool defines
    FORMAL, so no tool reads the inner conditional and none can disagree on it."""
    nested = DIRECTIVE_SRC.replace(
        "`ifdef YOSYS\n`define TOOL 1\n`endif\n",
        "`ifdef FORMAL\n  `ifdef YOSYS\n  `define TOOL 1\n  `endif\n`endif\n",
    )
    d = file_design(tmp_path, nested)
    assert screen_candidate(nested, d) == []
    # defined by the project: the branch is on, and the tools disagree again
    on = dataclasses.replace(d, sources=dataclasses.replace(d.sources, defines={"FORMAL": ""}))
    edited = nested.replace("assign y = ~a;", "assign y = ~a; // edited")
    assert screen_candidate(nested, on) == []  # identical text: nothing to judge
    assert screen_candidate(edited, on) == [
        "line 5: compiler directive `ifdef YOSYS is not allowed (tools disagree on that macro)"
    ]


def test_screen_refuses_a_module_the_repository_defines_in_another_file(tmp_path: Path) -> None:
    # `other` lives in its own file (others may instantiate it): a candidate carrying its own
    # `other` would redefine it for them once written back; so would a module of the target's
    # own file (a copy of the file, changed or not); a helper of a new name is the candidate's
    d = make_design(tmp_path)
    (tmp_path / "other.v").write_text(OTHER)
    other = _module(tmp_path / "other.v", OTHER, "other")
    d = dataclasses.replace(d, modules={**d.modules, "other": other})
    shadow = CLEAN + OTHER.replace("~x", "x")
    problems = screen_candidate(shadow, d)
    line = CLEAN.count("\n") + 1
    assert any(
        p.startswith(f"line {line}: module other is already a module of the repository (other.v)")
        and "give the helper a new name" in p
        for p in problems
    ), problems
    # an unchanged copy too: written back, the repository would define it twice
    assert any(ALREADY in p for p in screen_candidate(CLEAN + OTHER, d))
    assert screen_candidate(CLEAN + OTHER.replace("other", "helper"), d) == []
    copy = SRC.replace("assign y = ~x;", "assign y = x ^ 1'b1;")
    refused = screen_candidate(copy, d)
    assert {p.split()[3] for p in refused if ALREADY in p} == {"sub", "leaf", "unused"}, refused
    # `rtlopt check` judges the whole new file: its modules are the change's own
    assert not any(ALREADY in p for p in screen_candidate(copy, d, whole_file=True))


ALREADY = "already a module of the repository"


OTHER = "module other (input x, output y);\n  assign y = ~x;\nendmodule\n"


def test_screen_does_not_count_the_candidates_own_file_as_another(tmp_path: Path) -> None:
    # `rtlopt evaluate --candidate cand.v` of a file inside the repository: its helper is read
    # as a repository module of cand.v, which is the candidate itself
    d = make_design(tmp_path)
    cand = CLEAN + OTHER
    (tmp_path / "cand.v").write_text(cand)
    helper = _module(tmp_path / "cand.v", cand, "other")
    d = dataclasses.replace(d, modules={**d.modules, "other": helper})
    assert not any(ALREADY in p for p in screen_candidate(cand, d))
    assert any(ALREADY in p for p in screen_candidate(CLEAN + "\n" + OTHER, d))


ZIP_FILE = """`default_nettype none
module top (input wire [3:0] a, output wire [3:0] y);
  assign y = ~a;
endmodule
`ifndef YOSYS
`default_nettype wire
`endif
"""


@pytest.mark.parametrize(
    ("tail", "refused"),
    [
        ("`ifndef YOSYS\n`default_nettype wire\n`endif\n", False),  # ZipCPU's files end so
        ("`ifdef YOSYS\n`else\n  `default_nettype wire // after\n`endif\n", False),
        # code in the branch, or a module after it: the tools would read them differently
        ("`ifndef YOSYS\n`define TOOL 1\n`endif\n", True),
        ("`ifndef YOSYS\n`default_nettype wire\n`endif\nmodule h; endmodule\n", True),
    ],
)
def test_screen_allows_a_tool_conditional_of_pass_through_directives_after_the_module(
    tmp_path: Path, tail: str, refused: bool
) -> None:
    d = file_design(tmp_path, ZIP_FILE)
    head = ZIP_FILE[: ZIP_FILE.index("`ifndef")].replace("y = ~a;", "y = a ^ 4'hf;")
    found = [p for p in screen_candidate(head + tail, d) if "YOSYS" in p]
    assert bool(found) is refused, found


def test_screen_refuses_a_helper_named_like_a_cell_the_repository_instantiates(
    tmp_path: Path,
) -> None:
    # red team w36 F17: `CELLX` comes from a vendor library outside the repository (iverilog
    # -y); a candidate's helper of that name would become the design's other instances of it
    d = make_design(tmp_path)
    (tmp_path / "top.v").write_text(
        "module top(input a, output z);\n  CELLX c0(.i(a), .o(z));\nendmodule\n"
    )
    helper = CLEAN + OTHER.replace("other", "CELLX")
    line = CLEAN.count("\n") + 1
    problems = screen_candidate(helper, d)
    assert any(
        p.startswith(f"line {line}:") and "CELLX is instantiated or declared in top.v" in p
        for p in problems
    ), problems
    # a name nothing uses (a comment naming it aside) is the candidate's
    (tmp_path / "top.v").write_text("module top;\n  // CELLY c0();\nendmodule\n")
    assert screen_candidate(CLEAN + OTHER.replace("other", "CELLY"), d) == []
