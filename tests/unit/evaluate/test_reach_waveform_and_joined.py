"""Inner names of the target read without a written path (``evaluate/_reach_loose.py``): a
waveform's ``$var`` named like one (a golden VCD a regression compares against), a path joined
at run time from separate words (a Tcl ``join``, a DPI call's strings), a name-lookup API
called with a built name, and a file too large to be read whole holding one."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from rtlopt.evaluate._reach_loose import joined_reach, unread_inner, waveform_reach

CTR = "module ctr(input clk, output [3:0] q);\n  reg [3:0] cnt;\nendmodule\n"
VCD = """$timescale 1s $end
$scope module tb $end
$scope module {scope} $end
$var wire 1 ! clk $end
$var reg 4 $ {var} [3:0] $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
b0 $
"""


def _design(tmp: Path) -> object:
    (tmp / "ctr.v").write_text(CTR)
    target = SimpleNamespace(name="ctr", file=tmp / "ctr.v", start=0, end=len(CTR))
    return SimpleNamespace(target=target, root=str(tmp))


@pytest.mark.parametrize(("scope", "var"), [("dut", "cnt"), ("u_any", "cnt"), ("x", "dut.cnt")])
def test_a_waveform_declaring_an_inner_name_reaches_under_any_scope(
    tmp_path: Path, scope: str, var: str
) -> None:
    text = VCD.format(scope=scope, var=var)
    why = waveform_reach(_design(tmp_path), [(tmp_path / "golden.vcd", text)], {"cnt"})  # type: ignore[arg-type]
    assert why.startswith("golden.vcd:5:") and f"declares {var}," in why, why


def test_a_waveform_of_ports_only_does_not(tmp_path: Path) -> None:
    text = VCD.format(scope="dut", var="q")
    assert waveform_reach(_design(tmp_path), [(tmp_path / "g.vcd", text)], {"cnt"}) == ""  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("check.do", "run 62\nexamine -radix unsigned [join [list {} tb dut cnt] /]\n", 2),
        ("check.do", "set p [format %s/%s dut cnt]\nexamine /tb/$p\n", 1),
        # the instance from a variable: a Tcl join builds a name, no anchor needed
        ("check.do", "source cfg.tcl\nexamine [join [list {} tb $inst cnt] /]\n", 2),
        ("tb.sv", 'module tb;\n  initial v = peek("dut", "cnt");\nendmodule\n', 2),
        # a string built for a lookup, beside a printed one
        (
            "tb.sv",
            'module tb;\n  initial begin $display("dut"); $sformat(p, "dut.cnt"); end\nendmodule\n',
            2,
        ),
        ("peek.py", 'sig = "cnt"\nh = lookup(".".join(["tb", "dut", sig]))\n', 1),
        # a Verilator configuration exposing it to C++
        ("cfg.vlt", '`verilator_config\npublic_flat_rw -module "ctr" -var "cnt"\n', 2),
        # a lookup by a built name: any inner name, no anchor needed
        ("peek.c", "int peek(const char *p) { return vpi_handle_by_name(p, 0) != 0; }\n", 1),
        ("peek.cc", "auto s = svGetScopeFromName(path.c_str());\n", 1),
    ],
)
def test_a_path_joined_at_run_time_reaches(tmp_path: Path, name: str, text: str, line: int) -> None:
    why = joined_reach(_design(tmp_path), [(tmp_path / name, text)], {"dut"}, {"cnt"})  # type: ignore[arg-type]
    assert why.startswith(f"{name}:{line}:"), why


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # the inner name with no anchor and no name built in the text
        ("check.do", "examine -radix unsigned /tb/other/q\necho {cnt done}\n"),
        # a Verilog testbench's own variable named so: code, not a string
        (
            "tb.sv",
            'module tb;\n  int cnt; ctr dut(.clk(c), .q(q));\n  initial $display("dut");\nendmodule\n',
        ),
        # a printed format string is text, never a name looked up (held-out trial 52)
        ("ctr_top.v", 'module t;\n  initial $display("ctr with cnt %d", 4);\nendmodule\n'),
        ("ctr_top.v", 'module t;\n  initial $fdisplay(fd, "dut cnt");\nendmodule\n'),
        # a file list naming the target's file
        ("files.f", "ctr.v\ncnt_helper.v cnt\n"),
        # a lookup by a literal name: the path rules read it
        ("peek.c", 'h = vpi_handle_by_name("tb.dut.q", 0);\n'),
        ("README.md", "The dut holds cnt.\n"),
        # a Verilator lint rule's message
        ("lint.vlt", 'lint_off -rule UNOPTFLAT -file "*/ctr.sv" -match "*dut.cnt*"\n'),
        # a Python join with no anchor: no name built from the target's scope
        ("report.py", 'cnt = len(rows)\nprint("/".join(str(r) for r in rows))\n'),
    ],
)
def test_no_anchor_a_code_name_or_a_literal_lookup_does_not(
    tmp_path: Path, name: str, text: str
) -> None:
    assert joined_reach(_design(tmp_path), [(tmp_path / name, text)], {"dut"}, {"cnt"}) == ""  # type: ignore[arg-type]


def test_a_file_too_large_holding_an_inner_name_reaches(tmp_path: Path) -> None:
    big = tmp_path / "check.do"
    big.write_text("examine /tb/q\n" * 400_000 + "examine -radix unsigned /tb/dut/cnt\n")
    assert big.stat().st_size > 4_000_000
    why = unread_inner(_design(tmp_path), [big], {"cnt"})  # type: ignore[arg-type]
    assert why.startswith("check.do:") and "too large" in why, why


def test_a_large_file_without_the_name_or_a_binary_one_does_not(tmp_path: Path) -> None:
    text, binary = tmp_path / "check.do", tmp_path / "wave.fst"
    text.write_text("examine /tb/q\n" * 400_000)
    # a binary format by its magic number (an FST header block); a NUL alone is no binary
    binary.write_bytes(b"\0\0\0\0\0\0\1\x29" + b"\0\1 cnt " * 1000)
    assert unread_inner(_design(tmp_path), [text, binary], {"cnt"}) == ""  # type: ignore[arg-type]
