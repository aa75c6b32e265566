"""The preprocessed unit (evaluate._preprocess) with the real ``iverilog -E``: the state a
candidate is read in, the pass-through directives around each text, and the line map that
keeps messages on the candidate's own lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate._preprocess import UnitText
from rtlopt.frontend import load_design
from rtlopt.harness import screen_preprocessed

pytestmark = pytest.mark.tools

SRC = """`default_nettype none
`define TWO_LINES(n) \\
  wire n``_a; \\
  wire n``_b;
module early (input wire a, output wire y);
`define INSIDE_EARLY 1
  assign y = a;
endmodule
module top (input wire [3:0] a, output wire [3:0] y);
`define INSIDE_TOP 1
  assign y = ~a;
endmodule
"""


@pytest.fixture
def unit(tmp_path: Path) -> UnitText:
    f = tmp_path / "top.v"
    f.write_text(SRC)
    design = load_design(f, "top", Config().project)
    return UnitText(design, tmp_path / "unit")


def test_the_line_map_names_the_candidates_own_line_after_an_expansion(
    unit: UnitText, tmp_path: Path
) -> None:
    cand = (
        "module top (input wire [3:0] a, output wire [3:0] y);\n"  # 1
        "  `TWO_LINES(x)\n"  # 2: three lines once expanded
        "  assign y = ~a;\n"  # 3
        '  integer f; initial f = $fopen("p", "w");\n'  # 4
        "endmodule\n"
    )
    pp = unit.candidate(cand, tmp_path)
    assert not pp.errors, pp.errors
    assert "wire x_a;" in pp.text and "`" not in pp.text.replace("`default_nettype", "")
    found = screen_preprocessed(pp.text, cand, unit.design)
    fopen = [pp.relabel(v) for v in found if "$fopen" in v]
    assert fopen and fopen[0].startswith("line 4:"), (found, pp.lines)


def test_a_candidate_reads_the_state_before_the_target_not_inside_it(
    unit: UnitText, tmp_path: Path
) -> None:
    # INSIDE_EARLY (set in an earlier module) is in force; INSIDE_TOP (set inside the
    # reference module itself) is not, and an unknown macro is an error, not nothing
    ok = unit.candidate(
        "module top (input wire [3:0] a, output wire [3:0] y);\n"
        "  assign y = ~a ^ {4{`INSIDE_EARLY == 2}};\nendmodule\n",
        tmp_path / "ok",
    )
    assert not ok.errors, ok.errors
    leak = unit.candidate(
        "module top (input wire [3:0] a, output wire [3:0] y);\n"
        "  assign y = ~a ^ `INSIDE_TOP;\nendmodule\n",
        tmp_path / "leak",
    )
    assert leak.errors and "INSIDE_TOP" in leak.errors[0] and leak.errors[0].startswith("line 2")


def test_each_text_carries_the_pass_through_state_it_is_read_in(
    unit: UnitText, tmp_path: Path
) -> None:
    pp = unit.candidate(
        "module top (input wire [3:0] a, output wire [3:0] y);\n  assign y = ~a;\nendmodule\n",
        tmp_path,
    )
    lines = [ln for ln in pp.text.splitlines() if ln.strip()]
    assert lines[0] == "`default_nettype none" and lines[-1] == "`default_nettype wire"
    ref = unit.reference_text()
    assert "module top__rtlopt_ref" in ref and "`default_nettype none" in ref
    assert "`define" not in ref and "`INSIDE" not in ref


def _shadowed(tmp_path: Path) -> UnitText:
    """A module including "op.vh", found beside it and, shadowed, in an include folder."""
    import dataclasses

    rtl, inc = tmp_path / "rtl", tmp_path / "include"
    rtl.mkdir()
    inc.mkdir()
    (rtl / "op.vh").write_text("  assign k = a ^ b;\n")
    (inc / "op.vh").write_text("  assign k = a & b;\n")
    (rtl / "top.v").write_text(SHADOWED)
    project = dataclasses.replace(Config().project, include_dirs=(str(inc),))
    return UnitText(load_design(rtl / "top.v", "top", project), tmp_path / "unit")


SHADOWED = """module top (input wire [3:0] a, input wire [3:0] b, output wire [3:0] y);
  wire [3:0] k;
`include "op.vh"
  assign y = k;
endmodule
"""


def test_a_candidates_include_reads_the_header_the_repositorys_module_reads(
    tmp_path: Path,
) -> None:
    # the candidate is read from a scratch folder: its relative include still names the header
    # beside the target's file (the unit's -grelative-include), not the include folder's
    unit = _shadowed(tmp_path)
    pp = unit.candidate(SHADOWED, tmp_path / "cand")
    assert not pp.errors, pp.errors
    assert "a ^ b" in pp.text and "a & b" not in pp.text
    assert "assign k = a ^ b;" in unit.reference_text()


def test_a_candidates_include_named_by_a_macro_or_found_nowhere_is_an_error(
    tmp_path: Path,
) -> None:
    unit = _shadowed(tmp_path)
    named = unit.candidate(SHADOWED.replace('"op.vh"', "`OP_FILE"), tmp_path / "named")
    assert named.errors and named.errors[0].startswith("line 3:") and "macro" in named.errors[0]
    gone = unit.candidate(SHADOWED.replace('"op.vh"', '"nowhere.vh"'), tmp_path / "gone")
    assert gone.errors and "nowhere.vh" in gone.errors[0]


def test_the_macros_a_header_from_an_include_folder_tests_are_read(tmp_path: Path) -> None:
    # the module includes "op.vh" found only in the include folder: its conditional's FAST
    # is a configuration of the module like one tested in the module's own text
    unit = _shadowed(tmp_path)
    (tmp_path / "rtl" / "op.vh").unlink()
    (tmp_path / "include" / "op.vh").write_text(
        "`ifdef FAST\n  assign k = a & b;\n`else\n  assign k = a ^ b;\n`endif\n"
    )
    unit.reference_off()
    assert "FAST" in unit.external_macros(SHADOWED)


@pytest.mark.parametrize(
    ("after", "refused"),
    [
        ("", False),
        ("`default_nettype none\n", False),  # the state the repository leaves already
        ("`default_nettype wire\n", True),
        ("`unconnected_drive pull1\n", True),
        ("`resetall\n", True),
        # the unit of the later files' delays: `#1` one second late in their simulation
        ("`timescale 1s/1ms\n", True),
        ("`celldefine\n", True),
    ],
)
def test_a_candidate_may_not_leave_later_files_another_pass_through_state(
    unit: UnitText, after: str, refused: bool
) -> None:
    # SRC sets `default_nettype none before the target: the files after it read none
    cand = "module top (input wire [3:0] a, output wire [3:0] y);\n  assign y = ~a;\nendmodule\n"
    why = unit.state_left(cand + after)
    assert bool(why) is refused, why
    if refused:
        assert after.split()[0].lstrip("`")[-8:] in why or "resetall" in after, why
    # in front of the module it reaches them too (and the module itself: a global directive,
    # ``_global_directives``, may be the reason given first)
    assert bool(unit.state_left(after + cand)) is refused


@pytest.mark.parametrize(
    ("cand_head", "refused"),
    [
        ("", False),
        ("`timescale 1 ns / 1 ps\n", False),  # the file's own, spaced otherwise
        ("`timescale 1ns/1ns\n", True),  # later files' delays rounded otherwise
        ("`timescale 1s/1ms\n", True),
    ],
)
def test_a_candidate_timescale_is_refused_only_where_it_differs_from_the_files(
    cand_head: str, refused: bool
) -> None:
    from rtlopt.evaluate._placement import state_left

    body = "module t (input a, output y);\n  assign y = a;\nendmodule\n"
    file_text = (
        "`timescale 1ns/1ps\n"
        + body
        + "module later (input c, output d);\n"
        + ("  assign #1 d = c;\nendmodule\n")
    )
    start = file_text.index("module t")
    span = (start, start + len(body))
    why = state_left(cand_head + body, file_text, span, [], "t")
    assert bool(why) is refused, why
    assert not refused or "timescale" in why


# ZipCPU's files: `default_nettype none before the module, and after it a `default_nettype wire
# that only the tools other than Yosys read; `rtlopt check` passes the whole file
ZIP_HEAD = "`default_nettype none\n// a registered inverter\n"
ZIP_MODULE = (
    "module inv (input wire i_clk, input wire [3:0] i_a, output reg [3:0] o_y);\n"
    "  always @(posedge i_clk) o_y <= ~i_a;\nendmodule\n"
)
ZIP_TAIL = "`ifndef YOSYS\n`default_nettype wire\n`endif\n"


@pytest.mark.parametrize(
    ("cand", "refused"),
    [
        (ZIP_MODULE, False),  # the module alone: the file's own tail still follows it
        (ZIP_HEAD + ZIP_MODULE + ZIP_TAIL, False),  # the file itself (self, or `check`)
        ("`default_nettype none\n" + ZIP_MODULE, False),
        # Yosys then reads the files after it with wire instead of none
        (ZIP_MODULE + "`default_nettype wire\n", True),
        # in the module's place (as written back): the file's own tail still follows it
        (ZIP_HEAD + ZIP_MODULE, False),
        # a copy of the file that ends otherwise: Yosys reads wire, the others none
        (ZIP_HEAD + ZIP_MODULE + "`ifdef YOSYS\n`default_nettype wire\n`endif\n", True),
        (ZIP_HEAD + ZIP_MODULE + ZIP_TAIL.replace("`default_nettype wire", "`celldefine"), True),
    ],
)
def test_the_state_a_candidate_leaves_is_read_with_the_files_conditional_tail(
    tmp_path: Path, cand: str, refused: bool
) -> None:
    f = tmp_path / "inv.v"
    f.write_text(ZIP_HEAD + ZIP_MODULE + ZIP_TAIL)
    unit = UnitText(load_design(f, "inv", Config().project), tmp_path / "unit")
    why = unit.state_left(cand)
    assert bool(why) is refused, why


HELPER = (
    "module helper (input [3:0] a, output [3:0] y);\n  assign t = a;\n  assign y = t;\nendmodule\n"
)


@pytest.mark.parametrize(
    ("cand", "refused"),
    [
        (ZIP_MODULE, False),
        # the file ends with `default_nettype none, but the helper after the module reads it
        # now, and its implicit net `t` no longer elaborates (held-out red team, wave 15)
        (ZIP_MODULE + "`default_nettype none\n", True),
    ],
)
def test_a_module_later_in_the_file_reads_the_state_the_candidate_leaves(
    tmp_path: Path, cand: str, refused: bool
) -> None:
    f = tmp_path / "inv.v"
    f.write_text(ZIP_MODULE + HELPER + "`default_nettype none\n")
    unit = UnitText(load_design(f, "inv", Config().project), tmp_path / "unit")
    why = unit.state_left(cand)
    assert bool(why) is refused, why


@pytest.mark.parametrize("used", ["instantiated", "library"])
def test_a_module_of_another_file_is_read_at_its_place_in_the_filelist(
    tmp_path: Path, used: str
) -> None:
    # files.f: defs.vh (OP is ^), top.v, mid.v (OP becomes &), alt.v: every build reads alt_op
    # as a & b, whether the target instantiates it (the closure reads alt.v before top.v) or
    # only a candidate does
    import dataclasses

    inst = "alt_op o (.a(a), .b(b), .y(y));" if used == "instantiated" else "assign y = a;"
    files = {
        "defs.vh": "`define OP ^\n",
        "top.v": f"module top (input [3:0] a, input [3:0] b, output [3:0] y);\n  {inst}\n"
        "endmodule\n",
        "mid.v": "module mid (input a, output y);\n  assign y = a;\nendmodule\n"
        "`undef OP\n`define OP &\n",
        "alt.v": "module alt_op (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "  assign y = a `OP b;\nendmodule\n",
        "files.f": "defs.vh\ntop.v\nmid.v\nalt.v\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    project = dataclasses.replace(Config().project, filelists=("files.f",))
    design = load_design(tmp_path / "top.v", "top", project, root=tmp_path)
    unit = UnitText(design, tmp_path / "unit")
    text = unit.reference_text() if used == "instantiated" else unit.library_text([], ["alt_op"])
    assert "a & b" in text and "a ^ b" not in text, text


def test_a_copy_of_the_targets_file_reads_the_headers_beside_the_original(
    tmp_path: Path,
) -> None:
    # another configuration is read from a copy of the target's file in a scratch folder: its
    # relative include still names rtl/op.vh, not the include folder's op.vh of the same name
    from rtlopt.evaluate._target_copy import design_with_target_text

    unit = _shadowed(tmp_path)
    (tmp_path / "rtl" / "op.vh").write_text(
        "`ifdef FAST\n  assign k = a | b;\n`else\n  assign k = a ^ b;\n`endif\n"
    )
    folder = tmp_path / "copy"
    folder.mkdir()
    (folder / "fast.vh").write_text("`define FAST\n")
    special = design_with_target_text(unit.design, SHADOWED, folder, (folder / "fast.vh",))
    copy = UnitText(special, tmp_path / "unit-fast")
    assert "a | b" in copy.reference_text()
    pp = copy.candidate(SHADOWED, tmp_path / "cand")
    assert not pp.errors and "a | b" in pp.text, (pp.errors, pp.text)


def test_the_target_is_read_before_the_files_listed_after_it(tmp_path: Path) -> None:
    # alt.v (which top instantiates: a dependency, read first in the closure's order) is listed
    # after top.v and redefines OP: top reads OP as defs.vh sets it, in the unit as in a build
    import dataclasses

    files = {
        "defs.vh": "`define OP ^\n",
        "top.v": "module top (input [3:0] a, input [3:0] b, output [3:0] y, output [3:0] z);\n"
        "  alt_op o (.a(a), .b(b), .y(z));\n  assign y = a `OP b;\nendmodule\n",
        "alt.v": "module alt_op (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "  assign y = a | b;\nendmodule\n`undef OP\n`define OP &\n",
        "files.f": "defs.vh\ntop.v\nalt.v\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    project = dataclasses.replace(Config().project, filelists=("files.f",))
    design = load_design(tmp_path / "top.v", "top", project, root=tmp_path)
    unit = UnitText(design, tmp_path / "unit")
    assert "assign y = a ^ b;" in unit.reference_text()
    pp = unit.candidate(files["top.v"], tmp_path / "cand")
    assert not pp.errors and "assign y = a ^ b;" in pp.text, (pp.errors, pp.text)


def test_a_candidate_reads_the_repository_modules_in_the_references_order(
    tmp_path: Path,
) -> None:
    """Yosys's netlist follows the order modules are read in: verilog-uart's wrapper read
    uart_rx before uart_tx for a candidate and after it for the reference, so a comment-only
    change measured 16 % faster than the reference (wave 52)."""
    files = {
        "top.v": "module top (input a, output y, output z);\n  tx u_t (.a(a), .y(y));\n"
        "  rx u_r (.a(a), .y(z));\nendmodule\n",
        "rx.v": "module rx (input a, output y);\n  assign y = ~a;\nendmodule\n",
        "tx.v": "module tx (input a, output y);\n  assign y = a;\nendmodule\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    design = load_design(tmp_path / "top.v", "top", Config().project, root=tmp_path)
    unit = UnitText(design, tmp_path / "unit")
    order = [n for n in re.findall(r"^module (\w+)", unit.unit_text(), re.M) if n != "top"]
    lib = re.findall(r"^module (\w+)", unit.library_text([], ["tx", "rx"]), re.M)
    assert lib == order and sorted(lib) == ["rx", "tx"], (lib, order)
    assert re.findall(r"^module (\w+)", unit.library_text([], ["rx", "tx"]), re.M) == order
