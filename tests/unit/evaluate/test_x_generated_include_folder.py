"""A build's include folder outside the committed tree (round 85 case 07: the build writes
``gen/stim.vh`` and compiles with ``-Igen -Itb``, so the testbench's ```include "stim.vh"``
reads the generated header, not the committed ``tb/stim.vh`` writing ``s``): the build's
reading is unknown and the x analysis feeds every input; a committed folder feeds nothing."""

from __future__ import annotations

import subprocess
from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._tb_x import tb_x_inputs
from rtlopt.frontend import load_design

MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"
TB = (
    "module tb; reg s; reg [3:0] a = 0; wire [3:0] y;\n  mux dut(.s(s), .a(a), .y(y));\n"
    '  initial begin\n  `include "stim.vh"\n  end\n  initial #5 $finish;\nendmodule\n'
)


def _fed(tmp: Path, make: str, extra: dict[str, str] | None = None) -> tuple[str, ...]:
    files = {"mux.v": MUX, "Makefile": make, "tb/tb.v": TB, "tb/stim.vh": "s = 1'b0;\n"}
    for name, text in files.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    git = ["git", "-C", str(tmp), "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    for name, text in (extra or {}).items():  # written after the commit: not committed
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    return tb_x_inputs(load_design(tmp / "mux.v", "mux", ProjectConfig(), root=tmp)).ports


def test_a_missing_include_folder_feeds_every_input(tmp_path: Path) -> None:
    make = "sim:\n\tmkdir -p gen && echo '//' > gen/stim.vh\n\tiverilog -Igen -Itb mux.v tb/tb.v\n"
    assert _fed(tmp_path, make) == ("s", "a")


def test_an_uncommitted_header_in_an_include_folder_feeds_every_input(tmp_path: Path) -> None:
    make = "sim:\n\tiverilog +incdir+gen+tb mux.v tb/tb.v\n"
    assert _fed(tmp_path, make, {"gen/stim.vh": "// generated\n", "gen/.keep": ""}) == ("s", "a")


def test_committed_include_folders_feed_nothing(tmp_path: Path) -> None:
    assert _fed(tmp_path, "sim:\n\tiverilog -Itb mux.v tb/tb.v\n") == ()
    assert _fed(tmp_path, "sim:\n\tiverilog -I$(GEN) tb/tb.v\n") == ()


def test_an_uncommitted_header_in_a_committed_folder_feeds_every_input(tmp_path: Path) -> None:
    """``inc/`` is committed (``inc/keep.vh``); ``inc/stim.vh`` is not (generated, ignored)."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "keep.vh").write_text("// kept\n")
    make = "sim:\n\tiverilog -Iinc -Itb mux.v tb/tb.v\n"
    assert _fed(tmp_path, make, {"inc/stim.vh": "// generated\n"}) == ("s", "a")
