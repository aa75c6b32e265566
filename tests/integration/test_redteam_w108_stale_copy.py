"""Red-team rounds 108 and 109 (held out, /work/notes/rt108/, /work/notes/rt109/): which
definition of a parent the configurations are read from.

Round 108 (on e23cf46c): a stale copy of a parent
outside the build (``old/mid.v``, not in the filelist) instantiating the target at its
defaults, beside the build's parent instantiating it at W = 36. The configurations were read
from an elaboration of every file, which keeps the last of two definitions: W = 36 was never
a configuration, and a candidate wrong only there (round 107's one-bit predicate, which the
probes of an instantiated target do not reach) was proven. The configurations are now read
from each module's build definition too, as the instance analysis reads them. Round 109 (on
43780987, where only the build's definitions were read): the build's choice dropped another
build's parent (a second filelist's, a testbench's own ``top``, one under `` `ifndef`` that
the file order ranks after one under `` `ifdef``), so the union of both readings is taken."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import repo_verdict

pytestmark = pytest.mark.tools

M = (
    "module m #(parameter W = 8) (input s, input [W-1:0] b, input [W-1:0] c, "
    "output [W-1:0] y);\n  assign y = s ? b : c;\nendmodule\n"
)
FILES = {
    "rtlopt.toml": '[project]\nfilelists = ["files.f"]\n',
    "files.f": "rtl/m.v\nrtl/mid.v\nrtl/top.v\n",
    "rtl/m.v": M,
    "rtl/top.v": (
        "module top (input [35:0] b, input [35:0] c, output [35:0] y);\n"
        "  mid x (.b(b), .c(c), .y(y));\nendmodule\n"
    ),
    "rtl/mid.v": (
        "module mid (input [35:0] b, input [35:0] c, output [35:0] y);\n"
        "  m #(.W(36)) u (.s(1'b1), .b(b), .c(c), .y(y));\nendmodule\n"
    ),
    "old/mid.v": (
        "// an old copy of mid, not in the build (files.f)\n"
        "module mid (input [35:0] b, input [35:0] c, output [35:0] y);\n"
        "  m u (.s(b[8]), .b(b[7:0]), .c(c[7:0]), .y(y[7:0]));\n"
        "  assign y[35:8] = 28'd0;\nendmodule\n"
    ),
}
AT_36 = M.replace(
    "  assign y = s ? b : c;",
    "  wire t = b[0] | ~b[0];\n"
    + "".join(
        f"  wire [7:0] d{i} = t ? 8'd{v} : 8'd0;\n"
        for i, v in enumerate((189, 185, 247, 73, 109), 1)
    )
    + "  wire p = ({1'b0, {W{1'b1}}} == d1 * d2 * d3 * d4 * d5);\n"
    "  assign y = p ? ~(s ? b : c) : (s ? b : c);",
)


def test_a_configuration_only_the_builds_parent_makes_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = repo_verdict(tmp_path, monkeypatch, FILES, "rtl/m.v", AT_36)
    assert rc == 1 and "W=36" in reason, reason


M04 = {
    "rtlopt.toml": '[project]\nfilelists = ["files.f"]\n',
    "files.f": "rtl/m.v\nrtl/narrow.v\nrtl/mid.v\nrtl/mid_fpga.v\nrtl/top.v\n",
    "rtl/m.v": M,
    "rtl/mid.v": (
        "`ifdef ASIC\nmodule mid (input [35:0] b, input [35:0] c, output [35:0] y);\n"
        "  narrow n (.b(b[7:0]), .c(c[7:0]), .y(y[7:0]));\n  assign y[35:8] = 28'd0;\n"
        "endmodule\n`endif\n"
    ),
    "rtl/mid_fpga.v": (
        "`ifndef ASIC\nmodule mid (input [35:0] b, input [35:0] c, output [35:0] y);\n"
        "  m #(.W(36)) u (.s(1'b1), .b(b), .c(c), .y(y));\nendmodule\n`endif\n"
    ),
    "rtl/narrow.v": (
        "module narrow (input [7:0] b, input [7:0] c, output [7:0] y);\n"
        "  m u (.s(1'b1), .b(b), .c(c), .y(y));\nendmodule\n"
    ),
    "rtl/top.v": (
        "module top (input [35:0] b, input [35:0] c, input s, output [35:0] y, "
        "output [7:0] z);\n  mid x (.b(b), .c(c), .y(y));\n"
        "  m ctl (.s(s), .b(b[7:0]), .c(c[7:0]), .y(z));\nendmodule\n"
    ),
}


def test_a_parent_the_file_order_ranks_after_a_switched_off_one_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = repo_verdict(tmp_path, monkeypatch, M04, "rtl/m.v", AT_36)
    assert rc == 1 and "W=36" in reason, reason


M05 = {
    "rtlopt.toml": '[project]\nfilelists = ["files.f"]\n',
    "files.f": "rtl/m.v\nrtl/top.v\n",
    "Makefile": "sim:\n\tiverilog -g2012 rtl/m.v sim/top_tb.v -s top -o sim.vvp && vvp sim.vvp\n",
    "rtl/m.v": M,
    "rtl/top.v": (
        "module top (input s, input [7:0] b, input [7:0] c, output [7:0] y);\n"
        "  m u (.s(s), .b(b), .c(c), .y(y));\nendmodule\n"
    ),
    "sim/top_tb.v": (
        "module top;\n  reg [35:0] b, c; wire [35:0] y;\n"
        "  m #(.W(36)) dut (.s(), .b(b), .c(c), .y(y));\n"
        '  initial begin b = 36\'h0f0f01234; c = b; #1 $display("y=%h", y); $finish; end\n'
        "endmodule\n"
    ),
}


def test_a_testbench_top_the_build_does_not_choose_keeps_its_x_fed_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    merged = AT_36.replace("~(s ? b : c)", "({W{s}} & b) | ({W{~s}} & c)")
    rc, reason = repo_verdict(tmp_path, monkeypatch, M05, "rtl/m.v", merged)
    assert rc == 1 and "W=36" in reason, reason


M03 = {
    "Makefile": "wide:\n\tiverilog -g2012 rtl/m.v sim/tb_wide.v -s tb_wide -o w.vvp\n",
    "rtl/m.v": M,
    "sim/tb_wide.v": (
        "module tb_wide #(parameter TW = 36) (input s, input [TW-1:0] b, input [TW-1:0] c, "
        "output [TW-1:0] y);\n  m #(.W(TW)) u (.s(s), .b(b), .c(c), .y(y));\nendmodule\n"
    ),
    "sim/tb_all.v": (
        "module tb_all (input s, input [7:0] b, input [7:0] c, output [7:0] y);\n"
        "  tb_wide #(.TW(8)) w (.s(s), .b(b), .c(c), .y(y));\nendmodule\n"
    ),
}


def test_a_parent_a_build_may_take_as_its_top_is_read_at_its_own_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # round 109 case 03: tb_wide is no top of the repository (tb_all instantiates it with
    # TW = 8), but a build compiles it alone (`-s tb_wide`): W = 36 is a configuration
    rc, reason = repo_verdict(tmp_path, monkeypatch, M03, "rtl/m.v", AT_36)
    assert rc == 1 and "W=36" in reason, reason


def test_a_stale_later_copy_of_such_a_parent_hides_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # round 110: a second, older tb_wide (TW = 8) sorting after the real one was the only one
    # an elaboration of every file kept; each definition of a parent is now elaborated
    files = {
        **M03,
        "sim/tb_wide_old.v": M03["sim/tb_wide.v"].replace("TW = 36", "TW = 8"),
    }
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "rtl/m.v", AT_36)
    assert rc == 1 and "W=36" in reason, reason
