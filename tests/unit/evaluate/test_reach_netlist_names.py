"""An inner name of the target a constraint text selects by a synthesized netlist name
(``u_sync/meta_reg``, ``cnt_reg[3]``) or by a name pattern (``*meta_reg*``, ``u_sync/*``,
``-regexp``) leaves the target's changes unchecked (``evaluate/_reach_loose.py``); a pin
assignment, ``get_ports`` and a name of no inner register do not."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from rtlopt.evaluate._reach_loose import netlist_reach

SYNC = "module sync2(input clk, input d, output q);\n  reg meta, sync;\nendmodule\n"


def _design(tmp: Path) -> object:
    (tmp / "sync2.v").write_text(SYNC)
    target = SimpleNamespace(name="sync2", file=tmp / "sync2.v", start=0, end=len(SYNC))
    return SimpleNamespace(target=target, root=str(tmp))


def _reach(tmp: Path, name: str, text: str) -> str:
    d = _design(tmp)
    return netlist_reach(d, [(tmp / name, text)], {"u_sync"}, {"meta", "sync"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("cdc.sdc", "set_false_path -to [get_cells u_sync/meta_reg]\n"),
        ("cdc.sdc", "set_false_path -to [get_pins u_sync/meta_reg[0]/D]\n"),
        # a replicated register (Vivado), a name with no anchor (-hier)
        ("cdc.xdc", "set_property ASYNC_REG TRUE [get_cells -hier sync_reg_rep__0]\n"),
        ("cdc.xdc", "set_property ASYNC_REG TRUE [get_cells -hier -filter {NAME =~ *meta_reg*}]\n"),
        ("cdc.xdc", "set_property ASYNC_REG TRUE [get_cells -hier -filter {NAME =~ *eta*}]\n"),
        ("cdc.xdc", "set_false_path -to [get_cells -hier -regexp {.*/me.a_r.*}]\n"),
        ("cdc.sdc", "set_false_path -to [get_cells u_sync/*]\n"),
        ("cdc.sdc", "set_false_path -to [get_pins u_sync/*/D]\n"),
        ("cdc.sdc", "set_dont_touch [get_cells -hier *]\n"),
        ("cdc.qsf", "set_instance_assignment -name SYNCHRONIZER_IDENTIFICATION FORCED -to meta\n"),
        ("cdc.ucf", 'INST "*/meta_reg*" TNM = "cdc";\n'),
        # any suffix: a text that selects cells is a constraint
        ("timing.txt", "set_max_delay 2 -to [get_cells {top/u_sync/sync_q}]\n"),
    ],
)
def test_a_netlist_name_or_pattern_of_an_inner_register_reaches(
    tmp_path: Path, name: str, text: str
) -> None:
    why = _reach(tmp_path, name, text)
    assert why.startswith(f"{name}:1:"), why
    assert "is not checked" in why


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("pins.pcf", "set_io meta 35\nset_io sync 36\n"),
        ("io.xdc", "set_property PACKAGE_PIN E3 [get_ports meta]\n"),
        ("io.xdc", "create_clock -period 10 [get_ports clk]\nset_input_delay 1 [get_ports *]\n"),
        ("cdc.sdc", "set_false_path -to [get_cells u_other/metal_reg]\n"),
        # another word that starts with the name (a port's name, no netlist suffix)
        ("synth.tcl", "set_output_delay 2 -clock clk [get_ports meta_req_o]\nset x sync_rst\n"),
        # a synthesis script's pattern of modules (no cell, pin or net selected)
        ("synth.tcl", "setattr -mod -set keep_hierarchy 1 *eta*\n"),
        # a banner a script prints, a lint waiver
        ("flow.tcl", "puts {  meta  }\necho sync done\n"),
        ("sync2.waiver", "waive -rules LATCH -location {sync2.sv} -regexp {'meta' is a latch}\n"),
        ("cdc.sdc", "set_false_path -to [get_cells u_other/*]\n"),
        # no constraint text: a Makefile's glob
        ("Makefile", "SRC = $(wildcard rtl/*meta*.v)\n"),
        ("notes.md", "set_false_path -to [get_cells u_sync/meta_reg]\n"),
    ],
)
def test_a_port_a_pin_assignment_or_another_name_does_not(
    tmp_path: Path, name: str, text: str
) -> None:
    assert _reach(tmp_path, name, text) == ""
