"""An instance of the target (or its module's name) joined to an inner name by a separator a
flattening tool uses (Design Compiler's ungroup and change_names ``_``, ``__``, Quartus ``|``
and ``:``, a ``$``) names the inner register in a constraint text, with a netlist suffix or
none, and inside a glob; the same joined word under another instance or another name does
not (``evaluate/_reach_loose.py``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from rtlopt.evaluate._reach_loose import netlist_reach

SYNC = "module sync2(input clk, input d, output q);\n  reg meta, sync;\nendmodule\n"


def _reach(tmp: Path, name: str, text: str) -> str:
    (tmp / "sync2.v").write_text(SYNC)
    target = SimpleNamespace(name="sync2", file=tmp / "sync2.v", start=0, end=len(SYNC))
    design = SimpleNamespace(target=target, root=str(tmp))
    return netlist_reach(design, [(tmp / name, text)], {"u_sync"}, {"meta", "sync"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "set_false_path -to [get_cells u_sync_meta_reg]\n",
        "set_false_path -to [get_cells u_sync__meta_reg]\n",
        "set_false_path -to [get_cells u_top_u_sync_sync_reg_0_]\n",
        "set_false_path -to [get_cells {u_sync|meta}]\n",
        "set_false_path -to [get_cells u_sync:meta_q]\n",
        "set_false_path -to [get_cells u_sync$meta]\n",
        "set_false_path -to [get_cells sync2_meta_reg]\n",
        # an instance of an array
        "set_false_path -to [get_cells u_sync_0__meta_reg]\n",
        "set_false_path -to [get_cells {u_sync[1]_sync_reg}]\n",
        # the separator forms inside a glob
        "set_false_path -to [get_cells u_sync_me*]\n",
        "set_false_path -to [get_cells u_sync__*_reg]\n",
    ],
)
def test_a_flattened_joined_name_reaches(tmp_path: Path, text: str) -> None:
    why = _reach(tmp_path, "cdc.sdc", text)
    assert why.startswith("cdc.sdc:1:"), why
    assert "is not checked" in why


@pytest.mark.parametrize(
    "text",
    [
        "set_false_path -to [get_cells u_other_meta_reg]\n",
        "set_false_path -to [get_cells u_sync_metal_reg]\n",
        "set_false_path -to [get_cells xu_sync_meta_reg]\n",
        "set_false_path -to [get_cells u_other_*]\n",
    ],
)
def test_another_instance_or_another_name_does_not(tmp_path: Path, text: str) -> None:
    assert _reach(tmp_path, "cdc.sdc", text) == ""
