"""Any text of the repository holding an x value that may take part in a simulation feeds x
into every input of the target, unless a write command names one input exactly
(``evaluate/_foreign_x_anytext.py``): the class rule in place of command forms (a ``force``
after a quote, under an alias, later in a value list, in a Python run script, in a file over
the scan limit, a net connected by position, C through DPI/PLI/SystemC, VHDL of a wrapper);
and a simulator's x-propagation mode leaves a change of an x-fed target unchecked."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate import _repo_texts
from rtlopt.evaluate._foreign_x import foreign_x_inputs, xprop_reason
from rtlopt.evaluate._foreign_x_anytext import is_documentation, x_texts, xprop_mode
from rtlopt.frontend import load_design

INPUTS = ["s", "a", "b"]
ANCHORS = {"dut/s", "dut/a", "dut/b"}


def _hits(name: str, text: str, others: dict[str, str] | None = None) -> list[tuple[str, ...]]:
    texts = [(Path(name), text), *[(Path(n), t) for n, t in (others or {}).items()]]
    return [h.fed for h in x_texts(texts, [], set(), INPUTS, ANCHORS, {"mux", "top"})]


@pytest.mark.parametrize(
    ("name", "text", "fed"),
    [
        # 03: a force after a quote (vsim -do "..." in a Makefile)
        ("Makefile", 'sim:\n\tvsim -c work.tb -do "force -freeze sim:/tb/dut/s X 0; run"\n', "s"),
        # 25: under an alias or eval: not understood, every input
        ("sim.do", "interp alias {} xforce {} force -freeze\nxforce /tb/dut/s X 0\n", "*"),
        ("sim.do", "foreach cmd {force} { eval $cmd -freeze /tb/dut/s X 0 }\n", "*"),
        # 36: the x later in a value list
        ("sim.do", "force -freeze sim:/tb/dut/s 0 0, X {5 ns}\n", "s"),
        ("x.tcl", "add_force {/tb/dut/s} -radix bin {0 0ns} {X 5ns}\n", "*"),
        # 04: a testbench net (connected by position or by name): every input
        ("sim.do", "force -freeze /tb/sel X 0\n", "*"),
        # 05: a Python run script, a do-file of any name a Makefile runs
        ("run_sim.py", 'S = ["force -freeze sim:/tb/dut/s X 0", "run -all"]\n', "s"),
        ("run_sim.py", 'import subprocess\nsubprocess.run(["vsim", "-do", "x"])\n', "*"),
        ("sim_cmds.txt", "force -freeze /tb/dut/s X 0\n", "s"),
        # a Verilog literal, a std_logic vector, a radix value, a z
        ("stim.cfg", "sel = 1'bx\n", "*"),
        ("stim.yml", 'sel: "01X"\n', "*"),
        ("sim.do", "force /tb/q 16#XX#\n", "*"),
        # 06, 23, 21: C through DPI, PLI, VPI, SystemC
        ("stim.c", '#include "svdpi.h"\nsvLogic f(int i) { return i == 3 ? sv_x : 0; }\n', "*"),
        ("p.c", '#include "acc_user.h"\nvoid f(handle h) { acc_set_value(h, &v, &d); }\n', "*"),
        ("tb.cpp", "#include <systemc.h>\nsc_signal<sc_logic> s;\nvoid r() { s.write(x); }\n", "*"),
        ("dpi.c", '#include "svdpi.h"\nvoid f(svLogicVecVal *v) { v->bval = ~0; }\n', "*"),
        ("fli.c", '#include "mti.h"\nvoid f() { mti_Command("force /tb/dut/s X"); }\n', "*"),
        # 17: VHDL naming a Verilog module that holds the target (U until written)
        ("tb.vhd", "begin\n  dut : entity work.top port map (sel => sel);\nend;\n", "*"),
        # Verilog no x analysis reads (a .vt testbench)
        ("tb.vt", "initial s = 1'bx;\n", "*"),
    ],
)
def test_a_text_holding_an_x_value_feeds(name: str, text: str, fed: str) -> None:
    assert _hits(name, text, {"run.mk": "vsim -do sim_cmds.txt\n"}) == [
        tuple(INPUTS) if fed == "*" else (fed,)
    ]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # a Verilator harness (two-state), firmware: no simulator interface
        ("sim/main.cpp", '#include "Vmux.h"\nint main() { top->s = 1; printf("x"); }\n'),
        ("fw/firmware.c", "void putc(char c) { if (c == 'x') return; }\n"),
        # a Makefile and a do-file with no x value; Tcl options and variables; x as a name
        ("Makefile", "sim:\n\tvsim -c -do 'force /tb/dut/s 1 0; run -all'\n\tchmod +x run\n"),
        ("sim.do", "set x 3\nforce /tb/dut/a $x 0\nwave zoom full\n"),
        ("Makefile", "X ?= 4\nCFLAGS += $(X) -DX=1\n# X values are forced below\n"),
        # Python: names, format fields, a parser's token, a coordinate
        ("model.py", 'x = 1\ns = f"{x} {y:x}"\nassert tok.text == "X"\np["x"] = 2\n'),
        ("gen.py", 'print("module X(); endmodule")\nv = a[X]\n'),
        # prose, a lint waiver no simulator runs, a waveform dump no text replays
        ("README.md", "force /tb/dut/s X 0\n"),
        ("notes.txt", "the select is X here\n"),
        ("lint/pad.waiver", "waive -msg {Constant with 'Z literal value '1'bz'}\n"),
        ("golden.vcd", "$var wire 1 ! s $end\nx!\n"),
        # a C file with a simulator interface but no write and no four-state value
        ("peek.c", '#include "vpi_user.h"\nvoid f(vpiHandle h) { vpi_get_value(h, &v); }\n'),
    ],
)
def test_a_text_with_no_x_value_or_no_part_in_simulation_feeds_nothing(
    name: str, text: str
) -> None:
    assert _hits(name, text) == []


def test_a_file_of_a_prose_or_tool_name_a_simulator_runs_is_judged() -> None:
    others = {"Makefile": "sim:\n\tvsim -c -do lint/pad.waiver\n"}
    assert _hits("lint/pad.waiver", "force /tb/dut/s X 0\n", others) == [("s",)]
    others = {"Makefile": "sim:\n\tvsim -c -do sim.md\n"}
    assert _hits("sim.md", "force /tb/dut/s X 0\n", others) == [("s",)]
    # a do-file named so that no text names it (a name built at run time)
    assert _hits("c.txt", "# replay\nforce /tb/dut/s X 0\n") == [("s",)]
    assert _hits("c.waiver", "xforce /tb/dut/s X 0\neval xforce\n") == [tuple(INPUTS)]
    assert is_documentation(Path("notes.txt"), set())
    assert not is_documentation(Path("CMakeLists.txt"), set())


def test_a_python_helper_a_simulating_script_imports_is_judged() -> None:
    helper = 'SEL = "X"\nPATTERN = "01X"\n'
    run = 'import subprocess\nfrom stim import SEL\nsubprocess.run(["vsim", "-do", SEL])\n'
    assert _hits("stim.py", helper) == []
    assert _hits("stim.py", helper, {"run.py": run}) == [tuple(INPUTS)]
    gen = 'import random\nprint("force /tb/dut/s " + random.choice("01X"))\n'
    assert _hits("gen.py", gen) == [tuple(INPUTS)]


def test_a_file_over_the_scan_limit_is_searched_by_bytes(tmp_path: Path) -> None:
    big = tmp_path / "vectors.do"
    lines = [f"force -freeze /tb/dut/s {i % 2} {i}ns\n" for i in range(120_000)]
    big.write_text("".join(lines) + "force -freeze /tb/dut/s X 9ns\nrun -all\n")
    found = x_texts([], [big], set(), INPUTS, ANCHORS, {"mux"})
    assert [(h.fed, h.line) for h in found] == [(tuple(INPUTS), 120_001)]
    clean = tmp_path / "clean.do"
    clean.write_text("".join(lines))
    assert x_texts([], [clean], set(), INPUTS, ANCHORS, {"mux"}) == []


MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"


def _design(tmp: Path, files: dict[str, str]):  # type: ignore[no-untyped-def]
    for name, text in {"mux.v": MUX, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    return load_design(tmp / "mux.v", "mux", ProjectConfig())


def test_a_positional_net_and_a_wrapper_feed_every_input(tmp_path: Path) -> None:
    d = _design(
        tmp_path,
        {
            "tb.v": "module tb; reg sel; wire [3:0] y; mux dut(sel, 4'd1, y); endmodule\n",
            "sim.do": "vsim work.tb\nforce -freeze /tb/sel X 0\n",
        },
    )
    got = foreign_x_inputs(d)
    assert got.ports == ("s", "a")
    assert got.source.startswith("sim.do:2: a text that may take part in a simulation")


@pytest.mark.parametrize(
    ("tb", "fed"),
    [
        # a net the testbench only declares, writes and connects to s: s alone
        ("reg sel = 0, t; initial #5 sel = 1;", ("s",)),
        ("reg sel = 0; always #5 sel = ~sel;", ("s", "a")),
        ("reg sel; initial begin sel = 0; #5 sel <= 1; end", ("s",)),
        # read elsewhere (another connection, an assign, the same instance): every input
        ("reg sel; wire [3:0] w = {4{sel}};", ("s", "a")),
        ("reg sel; other o(.i(sel));", ("s", "a")),
        ("reg sel; initial if (sel) $display(1);", ("s", "a")),
    ],
)
def test_a_port_write_is_one_input_only_where_its_net_reads_nothing_else(
    tmp_path: Path, tb: str, fed: tuple[str, ...]
) -> None:
    d = _design(
        tmp_path,
        {
            "tb.v": f"module tb; {tb}\n  wire [3:0] y; mux dut(.s(sel), .a(4'd1), .y(y));\n"
            "endmodule\n",
            "sim.do": "force -freeze /tb/dut/s X 0\n",
        },
    )
    assert foreign_x_inputs(d).ports == fed


def test_a_large_do_file_feeds_x(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_repo_texts, "_SCANNED_BYTES", 1000)
    body = "".join(f"force -freeze /tb/q {i % 2} {i}ns\n" for i in range(100))
    d = _design(tmp_path, {"replay.do": body + "force /tb/q X 1000ns\n"})
    assert foreign_x_inputs(d).ports == ("s", "a")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("xprop:\n\tvcs -sverilog -xprop=tmerge mux.v tb.v\n", "Makefile:2: -xprop"),
        ("sim:\n\txrun -xprop F tb.v\n", "Makefile:2: -xprop"),
        ("VOPT = vopt +xprop,mode=resolve\n", "Makefile:1: +xprop"),
        ("sim:\n\tvcs tb.v\n", ""),
    ],
)
def test_an_x_propagation_mode_is_found(text: str, found: str) -> None:
    docs = (Path("README.md"), "run vcs -xprop=tmerge to see\n")
    assert xprop_mode([(Path("Makefile"), text), docs], []) == found


def test_an_x_propagation_mode_leaves_an_x_fed_change_unchecked(tmp_path: Path) -> None:
    d = _design(tmp_path, {"Makefile": "xprop:\n\tvcs -xprop=tmerge mux.v tb.v\n"})
    why = xprop_reason(d)
    assert why.startswith("Makefile:2: the repository simulates with an x-propagation mode")
    assert xprop_reason(_design(tmp_path / "b", {})) == ""
