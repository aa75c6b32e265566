"""More forms a testbench in another language reaches the target's inner names by
(``evaluate/_reach_foreign.py``): any string naming an inner name, whatever takes it; a walk
over a handle (every name); any import form of cocotb. Real frontend and slang, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._reach import repository_reach
from rtlopt.evaluate._reach_foreign import testbench_kind as kind
from rtlopt.frontend import load_design

TGT = """module tgt(input clk, input rst, input en, output [3:0] q);
  reg [3:0] cnt;
  always @(posedge clk) if (rst) cnt <= 4'd0; else if (en) cnt <= cnt + 4'd1;
  assign q = cnt;
endmodule
"""
BENCH = """{imports}


@cocotb.test()
async def inner_state(dut):
    dut.en.value = 1
{body}"""


def _reach(tmp: Path, bench: str) -> str:
    (tmp / "tgt.v").write_text(TGT)
    (tmp / "tests").mkdir(exist_ok=True)
    (tmp / "tests" / "test_tgt.py").write_text(bench)
    return repository_reach(load_design(tmp / "tgt.v", "tgt", ProjectConfig()))


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        (
            '    seen = {h._name: int(h.value) for h in dut if h._name not in ("clk",)}\n',
            "for ... in dut",
        ),
        ("    for h in cocotb.top:\n        print(h)\n", "for ... in cocotb.top"),
        ("    top = dut\n    for h in top:\n        print(h)\n", "for ... in top"),
        ("    names = sorted(dut)\n", "sorted(dut)"),
        ("    subs = dut._sub_handles\n", "dut._sub_handles"),
        ('    x = operator.attrgetter("cnt")(dut)\n', '("cnt")'),
        ('    x = dut.__getattr__("cnt")\n', '("cnt")'),
        ('    x = dut._id(name="cnt", extended=False)\n', '("cnt")'),
        ('    NAME = "cnt"\n    x = getattr(dut, NAME)\n', '("cnt")'),
    ],
)
def test_any_form_reaching_an_inner_name_is_unchecked(
    tmp_path: Path, body: str, shown: str
) -> None:
    why = _reach(tmp_path, BENCH.format(imports="import cocotb, operator", body=body))
    assert "a cocotb testbench reaches into tgt" in why and shown in why, why


@pytest.mark.parametrize(
    "body",
    [
        "    for i in range(4):\n        dut.en.value = i\n",
        "    for b in dut.q:\n        print(b)\n",
        "    items = [1, 2]\n    for i in items:\n        print(i)\n",
        '    dut._log.info("cnt wrapped")\n',
    ],
)
def test_walks_of_ports_and_plain_lists_are_no_reach(tmp_path: Path, body: str) -> None:
    assert _reach(tmp_path, BENCH.format(imports="import cocotb", body=body)) == ""


@pytest.mark.parametrize(
    "imports",
    [
        "import os, cocotb",
        "import os; import cocotb",
        "import os\nfrom cocotb import test as _t\ncocotb = __import__('cocotb')",
        "import importlib\ncocotb = importlib.import_module('cocotb')",
    ],
)
def test_any_import_form_makes_a_testbench(tmp_path: Path, imports: str) -> None:
    why = _reach(tmp_path, BENCH.format(imports=imports, body="    x = dut.cnt.value\n"))
    assert "a cocotb testbench reaches into tgt" in why and "(dut.cnt)" in why, why


def test_import_forms_of_testbench_kind() -> None:
    assert kind("import os, cocotb\n") == "cocotb"
    assert kind("import sys; import pyuvm\n") == "cocotb"
    assert kind('m = __import__("cocotb")\n') == "cocotb"
    assert kind('m = importlib.import_module("cocotb.triggers")\n') == "cocotb"
    assert kind("import os, mycocotb\n") == ""
    assert kind("import cocotbx\n") == "cocotb"  # a cocotb extension counts too


def test_a_walk_over_a_handle_a_class_holds_is_unchecked(tmp_path: Path) -> None:
    body = (
        "    env = Env()\n\n\nclass Env:\n    def __init__(self):\n"
        "        self.dut = cocotb.top\n\n    def names(self):\n"
        "        return [h._name for h in self.dut]\n"
    )
    why = _reach(tmp_path, BENCH.format(imports="import cocotb", body=body))
    assert "(for ... in self.dut)" in why and "every name of tgt" in why, why


def test_a_walk_over_an_enum_or_a_ports_handle_is_no_reach(tmp_path: Path) -> None:
    body = (
        "    q = dut.q\n    for b in q:\n        print(b)\n"
        "    for s in State:\n        print(s.value)\n\n\n"
        "class State(enum.Enum):\n    IDLE = 0\n"
    )
    assert _reach(tmp_path, BENCH.format(imports="import cocotb, enum", body=body)) == ""


@pytest.mark.parametrize(
    "read",
    [
        'getattr(dut, "\\x63nt")',  # round 71: an escape
        'getattr(dut, "cn" "t")',  # adjacent literals
        'getattr(dut, "c" + "nt")',  # built at run time
        'getattr(dut, f"c{chr(110)}t")',
        'getattr(dut, "tnc"[::-1])',
        "getattr(dut, names[0])",  # a name read from a file
    ],
)
def test_a_name_built_or_spelt_otherwise_is_a_lookup(tmp_path: Path, read: str) -> None:
    from rtlopt.evaluate._reach_lookups import dynamic_lookups

    text = (
        "import json\nimport cocotb\n\n\n@cocotb.test()\nasync def t(dut):\n"
        f"    names = json.load(open('n.json'))\n    assert {read}.value == 4\n"
    )
    found = dynamic_lookups(text, {"dut"}, {"cnt"})
    assert found and found[0][0] == 8, found
    assert not dynamic_lookups(text.replace(read, 'getattr(dut, "q")'), {"dut"}, {"cnt"})
    # a lookup on another object is the file's own business
    assert not dynamic_lookups(text.replace("getattr(dut,", "getattr(model,"), {"dut"}, {"cnt"})


def test_a_name_built_at_run_time_leaves_the_change_unchecked(tmp_path: Path) -> None:
    body = '    assert getattr(dut, "c" + TAIL).value == 4\n'
    why = _reach(tmp_path, BENCH.format(imports="import cocotb", body=body))
    assert "tests/test_tgt.py:7: a cocotb testbench reaches into tgt" in why, why
    assert "computed at run time" in why, why


def test_a_name_joined_from_literals_is_read_joined(tmp_path: Path) -> None:
    body = '    assert getattr(dut, "c" + "nt").value == 4\n'
    why = _reach(tmp_path, BENCH.format(imports="import cocotb", body=body))
    assert (
        'tests/test_tgt.py:7: a cocotb testbench reaches into tgt by an inner name ("cnt")' in why
    )


def test_a_script_reading_a_waveform_by_inner_path_reaches(tmp_path: Path) -> None:
    """Round 71: a VCD reader's ``v["tb.u.cnt"]`` reads the register the candidate renamed."""
    bench = "from vcdvcd import VCDVCD\n\nv = VCDVCD('dump.vcd')\nassert v['tb.u.cnt'].endtime\n"
    why = _reach(tmp_path, bench)
    assert "tests/test_tgt.py:4:" in why and "cnt" in why, why
