"""Round 73: a path naming the target's scope itself, a prefix a script or string builds the
inner names from at run time (a Tcl variable ``set top /tb/dut``, ``$sformatf`` with
``"tb.dut"``, a waveform check joining pieces, C's adjacent literals ``"tb.dut.c" "nt"``, a
walk of every signal starting ``"tb.dut."``), and a VHDL external name into the target in
any case, make the target's changes unchecked (``evaluate/_reach_scope_text.py``); a path to
a port, a Makefile's top, a filelist, a folder, a web address and cocotb's ``dut._log`` do
not. Real frontend and slang, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.evaluate.test_reach_text_paths import TB, _reach

TB_V = TB.format(body="    #100 $finish;\n")
TOP = """module top(input clk, input rst, output [3:0] q);
  ctr u_ctr(.clk(clk), .rst(rst), .q(q));
endmodule
module tb;
  reg clk = 0, rst = 1; wire [3:0] q;
  top top_i(.clk(clk), .rst(rst), .q(q));
  initial $display("%0d", $test$plusargs({"tb.top_i.u_ctr"}));
endmodule
"""
VHDL_TB = """library ieee; use ieee.std_logic_1164.all;
entity tb is end entity;
architecture sim of tb is
  signal clk, rst : std_logic := '0';
  signal q : std_logic_vector(3 downto 0);
begin
  {label}: entity work.ctr port map (clk => clk, rst => rst, q => q);
  process
    alias c is << signal {path} : std_logic_vector(3 downto 0) >>;
  begin
    wait;
  end process;
end architecture;
"""

#: Where a text's literals joined (``harness/_binary.py``) name the inner path whole.
_JOINED = {"check.py:3": "check.py:", "h.cpp:3": "h.cpp:3: a C/C++ testbench reaches into ctr"}


@pytest.mark.parametrize(
    ("files", "where"),
    [
        # 01: a Tcl variable holding the instance's path
        (
            {
                "sim/tb.v": TB_V,
                "sim/run.do": "set top /tb/dut\nvsim work.tb\nset s cnt\nexamine $top/$s\n",
            },
            "sim/run.do:1",
        ),
        # 02: $sformatf joining a string holding the instance's path
        (
            {
                "tb.sv": TB.format(
                    body='    string p = "tb.dut";\n'
                    '    void\'(uvm_hdl_read($sformatf("%s.%s", p, "cnt"), v));\n'
                )
            },
            "tb.sv:6",
        ),
        ({"tb.sv": TB.format(body='    $display($sformatf("tb.dut.%s", "cnt"));\n')}, "tb.sv:6"),
        # 03: a waveform check joining pieces (vcdvcd: any toplevel; pyDigitalWaveTools)
        (
            {
                "check.py": 'from vcdvcd import VCDVCD\nv = VCDVCD("dump.vcd")\n'
                'scope = "tb.dut"\nprint(v[scope + ".c" + "nt[3:0]"].tv)\n',
            },
            "check.py:3",
        ),
        (
            {
                "tb.v": TB_V,
                "wave.py": "from pyDigitalWaveTools.vcd.parser import VcdParser\n"
                "# the counter's scope\n"
                'sig = find(SCOPE + "." + "cnt")\nSCOPE = "tb.dut"\n',
            },
            "wave.py:4",
        ),
        (
            {
                "wave2.py": "from pyDigitalWaveTools.vcd.parser import VcdParser\n"
                'scope = "tb.dut"\nsig = find(scope + "." + "cnt")\n',
            },
            "wave2.py:2",
        ),
        # 12: C's adjacent literals (VPI: any toplevel)
        (
            {
                "h.cpp": '#include "vpi_user.h"\nvoid chk(void) {\n'
                '  vpiHandle h = vpi_handle_by_name((PLI_BYTE8*)"tb.dut.c" "nt", NULL);\n}\n',
            },
            "h.cpp:3",
        ),
        # 11: a walk of every signal under the instance (vcdvcd: any toplevel)
        (
            {
                "check_golden.py": "from vcdvcd import VCDVCD\nfor name in gold.signals:\n"
                '    if name.startswith("tb.dut."):\n        assert new[name] == gold[name]\n',
            },
            "check_golden.py:3",
        ),
        # the module at the top of a tool's path; a wildcard; a parent's instance chain
        (
            {"sim/run.do": "vsim work.ctr\nset p sim:/ctr\nset s cnt\nexamine $p/$s\n"},
            "sim/run.do:2",
        ),
        ({"sim/tb.v": TB_V, "sim/wave.do": "add wave -r /tb/dut/*\n"}, "sim/wave.do:1"),
        ({"top.v": TOP}, "top.v:7"),
        # a VHDL scope path in upper case
        (
            {
                "tb.vhd": VHDL_TB.format(label="dut", path=".tb.dut.clk").replace(
                    "wait;\n", 'wait;\n    report "scope .TB.DUT";\n'
                )
            },
            "tb.vhd:12",
        ),
    ],
)
def test_a_path_naming_the_targets_scope_is_unchecked(
    tmp_path: Path, files: dict[str, str], where: str
) -> None:
    why = _reach(tmp_path, files)
    if where in _JOINED:  # joined literals decoded spell the inner path itself: a nearer reach
        assert why.startswith(_JOINED[where]) and "by an inner name" in why, why
        return
    assert why.startswith(f"{where}: a path names "), why
    assert "scope" in why, why
    assert "name only whole ports of ctr" in why, why


@pytest.mark.parametrize(
    ("path", "label"),
    [
        # 10: through a VHDL label no Verilog declares; in upper case
        (".tb.u_counter.cnt", "u_counter"),
        (".TB.DUT.CNT", "dut"),
        # through a label to a partial name
        (".tb.u_counter.c", "u_counter"),
    ],
)
def test_a_vhdl_external_name_into_the_target_is_unchecked(
    tmp_path: Path, path: str, label: str
) -> None:
    files = {"tb.vhd": VHDL_TB.format(label=label, path=path)}
    if label == "dut" or path.endswith(".c"):
        files["tb_v.v"] = TB_V.replace("tb;", "tbv;").replace("ctr dut", f"ctr {label}")
    why = _reach(tmp_path, files)
    assert why.startswith("tb.vhd:9: "), why
    assert "ctr" in why and "not checked" in why, why


@pytest.mark.parametrize(
    "files",
    [
        # whole ports under the instance, in a string, a do-file, a cocotb test, C
        {"tb.sv": TB.format(body='    void\'(uvm_hdl_read("tb.dut.q", v));\n')},
        {"sim/tb.v": TB_V, "sim/run.do": "examine /tb/dut/clk\nforce sim:/tb/dut/rst 1\n"},
        {
            "tb.v": TB_V,
            "scripts/report.py": 'def show(dut):\n    dut._log.info("dut\'s q")\n',
        },
        {"tb.v": TB_V, "h.c": 'vpi_handle_by_name("tb.dut.q", NULL); // the dut.\n'},
        # a waveform reader's port path, its files, a package's module
        {
            "check.py": 'import importlib\nfrom vcdvcd import VCDVCD\nv = VCDVCD("dump.vcd")\n'
            'tr = importlib.import_module("cocotb.triggers")\nprint(v["tb.dut.q[3:0]"].tv)\n'
        },
        # a Makefile's top, a filelist, folders, a web address, a library's cell
        {
            "tb.v": TB_V,
            "Makefile": "TOP=tb\nTOPLEVEL = ctr\nSRC = $(PWD)/ctr.v\nINC = +incdir+$(RTL)/ctr\n",
            "files.f": "tb.v\nctr.v\n+incdir+../rtl/ctr\n-y rtl/dut\nip/ctr/rtl/ctr.sv\n",
            "ctr.core": "filesets:\n  rtl:\n    files: [ctr.v]\n",
            "run.sh": "yosys -s ctr.ys\nfusesoc run ctr.core\n",
        },
        {"tb.v": TB.format(body="    // see https://example.com/ctr/dut and the dut.\n")},
        {"tb.vhd": VHDL_TB.format(label="dut", path=".tb.dut.q")},
        # a bare word, a message naming the instance by its port
        {"tb.v": TB.format(body='    $display("dut done: dut.q=%h", q);\n')},
    ],
)
def test_no_path_to_the_targets_scope_stays_checked(tmp_path: Path, files: dict[str, str]) -> None:
    assert _reach(tmp_path, files) == ""


@pytest.mark.parametrize(
    ("files", "where"),
    [
        # a relative scope in a variable (round 73's gap): `set top dut` then `$top/cnt`
        ({"sim/run.do": "set top dut\nvsim work.tb\nexamine $top/cnt\n"}, "sim/run.do:3"),
        ({"sim/run.tcl": "add_wave ${scope}/cnt\n"}, "sim/run.tcl:1"),
        # a format filled in with the scope
        ({"sim/peek.sv": 'initial $display($sformatf("%s.cnt", p));\n'}, "sim/peek.sv:1"),
        ({"check.py": 'def peek(v, scope):\n    return v[f"{scope}.cnt"]\n'}, "check.py:2"),
    ],
)
def test_a_path_from_a_scope_a_variable_or_format_holds_is_unchecked(
    tmp_path: Path, files: dict[str, str], where: str
) -> None:
    why = _reach(tmp_path, files)
    assert why.startswith(f"{where}: a hierarchical path names cnt"), why


@pytest.mark.parametrize(
    "files",
    [
        {"build.sh": "iverilog -o sim ${RTL}/ctr.v $RTL/cnt.v\n"},
        {"sim/run.do": "set top dut\nexamine $top/clk\n"},
    ],
)
def test_a_file_path_or_a_port_after_a_variable_stays_checked(
    tmp_path: Path, files: dict[str, str]
) -> None:
    assert _reach(tmp_path, files) == ""
