"""The screen of added and edited files with their headers, in any spelling and any suffix
(red team w39 F1-F4, F13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.check._build_options import option_problems
from rtlopt.check._closure import expansions, inline_headers, verilog_view
from rtlopt.check._hier_refs import hierarchical_writes
from rtlopt.check._screen_files import Resolver, screened_text, text_problems
from rtlopt.frontend._depgraph import DesignGraph, design_graph
from rtlopt.verilog import blank_comments

TOP = (
    "`ifndef INC\n`define INC 8'd1\n`endif\n"
    "module top(output [7:0] z);\n  m u();\n  assign z = `INC;\nendmodule\n"
    "module m;\n  reg [7:0] c;\nendmodule\n"
)


def _graph(tmp_path: Path, files: dict[str, str]) -> DesignGraph:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return design_graph(tmp_path)


@pytest.mark.parametrize(
    "line",
    [
        "initial \\top .u.c = 1;",
        "initial top.u.c += 1;",
        "initial top.u.c++;",
        "initial {top.u.c} = 1;",
        "initial ld(top.u.c);",
        'initial n = $sscanf("1", "%h", top.u.c);',
        "always @* m2 i(.o(top.u.c));",
        "initial top.u.c = 1;",
    ],
)
def test_a_reference_into_the_design_is_a_write_unless_only_read(line: str) -> None:
    code = blank_comments(f"module h;\n  {line}\nendmodule\n")
    assert [ln for ln, _ in hierarchical_writes(code, {"top", "u"})] == [2]


@pytest.mark.parametrize(
    "line",
    [
        "initial x = top.u.c;",
        "always @(posedge top.u.c) x <= 1;",
        'initial $display("%h", top.u.c);',
        "initial $dumpvars(0, top.u);",
        "wire w = top.u.c == 1 ? a[top.u.c] : 0;",
        "initial if (top.u.c) x = 1;",
        "initial other.c = 1;",  # not a name of the design
    ],
)
def test_a_read_or_a_name_outside_the_design_is_no_finding(line: str) -> None:
    code = blank_comments(f"module h;\n  reg x;\n  {line}\nendmodule\n")
    assert hierarchical_writes(code, {"top", "u"}) == []


def test_only_the_holding_module_declares_its_own_names() -> None:
    own = "module h;\n  reg [7:0] top;\n  top_t top2;\n  initial top.c = 1;\nendmodule\n"
    assert hierarchical_writes(blank_comments(own), {"top"}) == []
    decoy = "module h;\n  initial top.u.c = 1;\nendmodule\nmodule d;\n  reg [7:0] top;\nendmodule\n"
    assert [ln for ln, _ in hierarchical_writes(blank_comments(decoy), {"top"})] == [2]
    inst = "module h;\n  m top();\n  initial top.c = 1;\nendmodule\n"
    assert hierarchical_writes(blank_comments(inst), {"top"}) == []


def test_headers_are_inlined_where_included_and_lines_traced() -> None:
    texts = {"inc/a.vh": '`define A 1\n`include "b.vh"\n', "inc/b.vh": "wire b;\n"}

    def resolve(name: str) -> dict[str, str]:
        return {k: v for k, v in texts.items() if k.endswith("/" + name)}

    inl = inline_headers('module h;\n`include "a.vh"\n`include "nope.vh"\nendmodule\n', resolve)
    lines = inl.text.split("\n")
    at = lines.index("wire b;") + 1
    assert inl.where(at) == (2, "inc/b.vh", 1)
    assert set(inl.headers) == {"inc/a.vh", "inc/b.vh"}
    assert [ln for ln, _ in inl.unresolved] == [3]
    loop = inline_headers('`include "a.vh"\n', lambda n: {"a.vh": '`include "a.vh"\n'})
    assert loop.headers == {"a.vh": '`include "a.vh"\n'}


def test_own_macros_are_expanded_once_per_definition() -> None:
    text = "`ifdef X\n`define W(p) p.c\n`else\n`define W(p) q\n`endif\ninitial `W(top.u) = 1;\n"
    variants = expansions(text)
    assert len(variants) == 2 and "initial top.u.c = 1;" in variants[0]
    assert all(v.count("\n") == text.count("\n") for v in variants)


def test_the_verilog_view_of_prose_keeps_modules_and_directives_only() -> None:
    text = "# notes\nSee top.u.c here.\n`define INC 2\nwire leak;\nmodule p;\nendmodule\ntail\n"
    view = verilog_view(text)
    assert view.split("\n") == [
        "       ", "                 ", "`define INC 2", "wire leak;", "module p;", "endmodule", "    ", ""
    ]  # fmt: skip


def test_an_unchanged_header_counts_as_the_new_files_text(tmp_path: Path) -> None:
    graph = _graph(
        tmp_path,
        {"top.v": TOP, "inc/alt.vh": "`define INC 8'd2\n", "inc/dbg.vh": "initial top.u.c = 1;\n"},
    )
    resolve = Resolver(tmp_path)
    new = 'module h;\n`include "alt.vh"\n`include "dbg.vh"\nendmodule\n'
    (tmp_path / "h.v").write_text(new)
    graph = design_graph(tmp_path)
    found = text_problems("h.v", None, new, graph, resolve, verilog=True)
    assert [ln for ln, m in found if "macro INC" in m and "inc/alt.vh" in m] == [2]
    assert [ln for ln, m in found if "top.u.c" in m and "inc/dbg.vh at line 1" in m] == [3]
    # an edit that keeps the includes adds nothing
    assert text_problems("h.v", new, new + "// x\n", graph, resolve, verilog=True) == []


def test_a_text_of_another_suffix_is_screened_by_its_verilog_view(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"top.v": TOP})
    resolve = Resolver(tmp_path)
    poke = "Some prose about top.u.c.\nmodule p;\n  initial top.u.c = 1;\nendmodule\n"
    found = text_problems("v/p.md", None, poke, graph, resolve, verilog=False)
    assert [ln for ln, _ in found] == [3]
    readme = "# x\nEdit `top.v`, see top.u.c; run `make`.\n- import it; bind it\n"
    assert text_problems("README.md", None, readme, graph, resolve, verilog=False) == []


def test_changed_build_options_are_findings() -> None:
    old = "sim:\n\tiverilog -g2012 -Iinc -o s.vvp *.v\n"
    assert option_problems("Makefile", old, old.replace("-g2012", "-g2012 -Wall")) == []
    assert option_problems("Makefile", old, old + "clean:\n\trm -f s.vvp\n") == []
    found = option_problems("Makefile", old, old.replace("-g2012", "-g2012 -DINC=2"))
    assert [ln for ln, _ in found] == [2] and "-DINC=2" in found[0][1]
    assert [ln for ln, _ in option_problems("Makefile", old, old.replace(" -Iinc", ""))] == [2]
    moved = old.replace("-Iinc", "-Ilocal -Iinc")
    assert [ln for ln, _ in option_problems("Makefile", old, moved)] == [2]
    flags = "VFLAGS += \\\n  -y lib\n"
    assert [ln for ln, _ in option_problems("build.mk", None, flags)] == [1]
    assert [ln for ln, _ in option_problems("run.sh", None, "xrun +define+X=1 top.sv\n")] == [1]


def test_sources_a_build_file_adds_and_description_keys_are_findings() -> None:
    """An unchanged probe the build now compiles was never screened as a new file; a
    FuseSoC or Bender key sets defines, parameters or files without a command-line option."""
    old = "sim:\n\tiverilog -g2012 -Iinc -o s.vvp top.v tb/tb.v\n"
    added = old.replace("tb/tb.v", "tb/tb.v sim/probe.v")
    found = option_problems("Makefile", old, added)
    assert [ln for ln, _ in found] == [2] and "sim/probe.v" in found[0][1]
    assert [ln for ln, _ in option_problems("Makefile", "SRCS = a.v\n", "SRCS = a.v *.sva\n")]
    assert option_problems("Makefile", old, old + "# see top.v\nclean:\n\trm -f s.vvp\n") == []
    core = "filesets:\n  rtl:\n    files: [top.v]\n"
    assert option_problems("top.core", core, core + "parameters:\n  W: {datatype: int}\n")
    assert option_problems("Bender.yml", "sources: [a.sv]\n", "sources: [a.sv, b.sv]\n")
    assert option_problems("README.md", "see top.v\n", "see top.v and tb/probe.v\n") == []


def test_binary_files_are_not_read(tmp_path: Path) -> None:
    """Only a recognised binary format (a magic number) is binary; a NUL alone is no binary."""
    (tmp_path / "a.bin").write_bytes(b"\x7fELF\2\1\1\0" + b"\0" * 64 + b"module p; endmodule")
    (tmp_path / "n.v").write_bytes(b"\0module p; endmodule")
    (tmp_path / "a.txt").write_text("module p; endmodule\n")
    assert screened_text(tmp_path / "a.bin") is None
    assert screened_text(tmp_path / "n.v") == " module p; endmodule"
    assert screened_text(tmp_path / "a.txt") == "module p; endmodule\n"


def test_a_header_other_unchanged_files_include_brings_no_macro_finding(tmp_path: Path) -> None:
    """Its macros were in the build before; one only this change's files include is new."""
    hdr = "`define INC 8'd2\n"
    new = '`include "alt.vh"\nmodule h;\nendmodule\n'
    files = {"top.v": TOP, "inc/alt.vh": hdr, "h.v": new, "g.v": new.replace("h;", "g;")}
    graph = _graph(tmp_path, files)
    resolve = Resolver(tmp_path)
    both = frozenset({"h.v", "g.v"})
    found = text_problems("h.v", None, new, graph, resolve, verilog=True, changed=both)
    assert [ln for ln, m in found if "macro INC" in m] == [1]
    found = text_problems(
        "h.v", None, new, graph, resolve, verilog=True, changed=frozenset({"h.v"})
    )
    assert found == []  # g.v, unchanged, includes it too


def test_a_continued_definition_ending_in_a_comment_is_no_text_outside_modules(
    tmp_path: Path,
) -> None:
    from rtlopt.check._file_screen import outside_problems

    text = "`define A(x) \\\n  initial begin // note \\\n    #1; \\\n  end\nmodule h;\nendmodule\n"
    assert outside_problems(text) == []


def test_a_conditional_or_uncompiled_includer_is_no_earlier_reading(tmp_path: Path) -> None:
    hdr = "`define INC 8'd2\n"
    new = '`include "alt.vh"\nmodule h;\nendmodule\n'
    for other in (
        '`ifdef NEVER\n`include "alt.vh"\n`endif\nmodule g;\nendmodule\n',  # never read
        '`include "alt.vh"\n',  # a header nothing includes
    ):
        files = {"top.v": TOP, "inc/alt.vh": hdr, "h.v": new, "g.vh": other}
        graph = _graph(tmp_path, files)
        found = text_problems(
            "h.v", None, new, graph, Resolver(tmp_path), verilog=True, changed=frozenset({"h.v"})
        )
        assert [ln for ln, m in found if "macro INC" in m] == [1], other
