"""A changed line assigning a variable that an unchanged setting line reads (``-D$(V)_INV``,
``+define+${V}``, a source list, a parameter, directly or through another variable) is a
gate finding (``check/_setting_variables.py``); a changed C flag, a variable no setting reads
and a test's assertion are not."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.check._setting_variables import (
    assigned,
    read_by_settings,
    repository_lines,
    variable_problems,
)

WORDS = {"FAST_INV": "the macro FAST_INV, which inv.v reads"}


def _problems(repo: str, old: str, new: str, rel: str = "Makefile") -> list[tuple[int, str]]:
    settings = read_by_settings((repo + "\n" + new).split("\n"), WORDS)
    return variable_problems(rel, old, new, settings)


RECIPE = "sim:\n\tiverilog -D$(VARIANT)_INV -o sim.vvp inv.v tb.v\n"


@pytest.mark.parametrize(
    ("old", "new", "repo"),
    [
        ("VARIANT := SLOW\n", "VARIANT := FAST\n", RECIPE),
        ("VARIANT = SLOW\n", "VARIANT ?= FAST\n", RECIPE),
        ("override VARIANT := SLOW\n", "export VARIANT += FAST\n", RECIPE),
        # through another variable
        ("V := SLOW\n", "V := FAST\n", "VARIANT = $(V)\n" + RECIPE),
        ("V=SLOW\n", "export V=FAST\n", "DEF=${V}_INV\nvlog +define+$DEF top.v\n"),
        ("set V SLOW\n", "set V FAST\n", "vlog +define+${V}_INV top.v\n"),
        ("set(V SLOW)\n", "set(V FAST)\n", "verilator -D${V}_INV top.v\n"),
        ('V = "SLOW"\n', 'V = "FAST"\n', 'runner.build(defines={f"{V}_INV": 1})\n'),
        ("width: 8\n", "width: 21\n", "args: -Ptb.W=${width}\n"),
        ("TOP := a\n", "TOP := b\n", "SRCS = rtl/$(TOP).v\n"),
        # after a Make target, on make's command line, in the environment, a continued line
        ("sim: VARIANT := SLOW\n", "sim: VARIANT := FAST\n", RECIPE),
        ("\tmake VARIANT=SLOW sim\n", "\tmake VARIANT=FAST sim\n", RECIPE),
        ('os.environ["V"] = "S"\n', 'os.environ["V"] = "F"\n', "vsim work.$(V)\n"),
        ('V = "S"\n', 'V = "F"\n', 'runner.build(defines={V + "_INV": 1}, hdl_toplevel="tb")\n'),
        ("V := 1\n", "V := 2\n", "\tiverilog $(CFLAGS) -o s.vvp tb.v\nCFLAGS = -DW=$(V)\n"),
        ('V = "S"\n', 'V = "F"\n', 'args = ["-D" + V + "_INV", "tb.v"]\n'),
        # a Verilog tool's line: any variable there (the top, a flag)
        ("TOP := a\n", "TOP := b\n", "\tvsim -c work.$(TOP)\n"),
        # a configuration word of the design on the reading line
        ("V := 1\n", "V := 0\n", "FLAGS = FAST_INV=$(V)\n"),
        # a simulator's plusarg (what the testbench reads), a tool named by a variable
        ("TIMEOUT = 10\n", "TIMEOUT = 20\n", RECIPE + "\tvvp sim.vvp +timeout=$(TIMEOUT)\n"),
        ("X := 1\n", "X := 2\n", "\t$(IVERILOG) -o s $(X)\n"),
        # a conditional choosing literal setting lines (Make, Python, shell, a Make ifdef)
        ("V := slow\n", "V := fast\n", "ifeq ($(V),fast)\n\tiverilog -DF t.v\nendif\n"),
        ("V = 'slow'\n", "V = 'fast'\n", "if V == 'fast':\n    args = ['-DF']\n"),
        ("V=slow\n", "V=fast\n", 'if [ "$V" = fast ]; then\n  iverilog -DF t.v\nfi\n'),
        ("V := 1\n", "\n", "ifdef V\n\tiverilog -DF t.v\nendif\n"),
    ],
)
def test_a_variable_a_setting_reads_is_a_finding(old: str, new: str, repo: str) -> None:
    found = _problems(repo, old, new)
    assert found and found[0][0] == 1, found
    assert "a changed line assigns" in found[0][1]


@pytest.mark.parametrize(
    ("old", "new", "repo"),
    [
        ("CFLAGS = -O2\n", "CFLAGS = -O3\n", "fw.elf:\n\t$(CC) $(CFLAGS) -Iinc -o fw.elf fw.c\n"),
        ("OPT := 1\n", "OPT := 2\n", "fw:\n\triscv32-unknown-elf-gcc -O$(OPT) -DX=1 fw.c\n"),
        ("CFLAGS = -O2\n", "CFLAGS = -O3\n", '\tverilator --cc -CFLAGS "$(CFLAGS)" top.v\n'),
        ("assert y == 15\n", "assert y == 14\n", RECIPE),
        ("VARIANT := SLOW\n", "VARIANT := FAST\n", "sim:\n\techo $(VARIANT)\n"),
        # a YAML flow mapping is no format field (a FuseSoC core's file list)
        (
            "file_type: a\n",
            "file_type: b\n",
            "files:\n  - a.sv: {file_type: systemVerilogSource}\n",
        ),
    ],
)
def test_a_variable_no_setting_reads_is_not(old: str, new: str, repo: str) -> None:
    assert _problems(repo, old, new) == []


def test_the_assignment_forms() -> None:
    forms = {
        "X := 1": "X",
        "export X=1": "X",
        "override X += 1": "X",
        "set X 1": "X",
        "set(X 1)": "X",
        "X: 1": "X",
        "  X = 1": "X",
        "\tiverilog -o x": None,
        "y == 1": None,
    }
    assert {k: assigned(k) for k in forms} == forms


def test_a_braced_tcl_word_is_no_read(tmp_path: Path) -> None:
    (tmp_path / "lint.waiver").write_text("waive -rules {WIDTH} -location {a.sv}\n")
    (tmp_path / "flow.tcl").write_text("read_verilog -D${WIDTH} a.sv\n")
    settings = read_by_settings(repository_lines(tmp_path), {})
    assert "WIDTH" in settings and "waive" not in settings["WIDTH"], settings
    (tmp_path / "flow.tcl").unlink()
    assert read_by_settings(repository_lines(tmp_path), {}) == {}


def test_a_continued_line_is_one(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("sim:\n\tiverilog -o s.vvp \\\n\t  $(DEFS) tb.v\n")
    assert "DEFS" in read_by_settings(repository_lines(tmp_path), {})
