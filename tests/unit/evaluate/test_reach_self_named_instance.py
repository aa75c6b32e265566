"""An instance named like its module (``ctr ctr(...)``): a path ending at it (``/tb/x/ctr``,
``"tb.x.ctr"``) names the target's scope, as one ending at ``dut`` does; a top elaborated as
itself does not make the module's name a scope where no instance is named so. Real frontend
and slang, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._reach import repository_reach
from rtlopt.frontend import load_design

CTR = """module ctr(input clk, input rst, output [3:0] q);
  reg [3:0] cnt;
  always @(posedge clk) if (rst) cnt <= 4'd0; else cnt <= cnt + 4'd1;
  assign q = cnt;
endmodule
"""


def _reach(tmp: Path, inst: str, files: dict[str, str]) -> str:
    top = f"module top(input clk, input rst, output [3:0] q);\n  ctr {inst}(clk, rst, q);\nendmodule\n"
    for name, text in {"ctr.v": CTR, "top.v": top, **files}.items():
        (tmp / name).write_text(text)
    return repository_reach(load_design(tmp / "ctr.v", "ctr", ProjectConfig()))


@pytest.mark.parametrize(
    ("files", "where"),
    [
        ({"run.do": "set top /tb/x/ctr\nforeach s $::env(SIGS) { examine $top/$s }\n"}, "run.do:1"),
        ({"peek.py": "import os\nP = 'tb.x.ctr'\nread(P + '.' + os.environ['S'])\n"}, "peek.py:2"),
    ],
)
def test_a_scope_path_ending_at_an_instance_named_like_its_module_reaches(
    tmp_path: Path, files: dict[str, str], where: str
) -> None:
    why = _reach(tmp_path, "ctr", files)
    assert why.startswith(where) and "scope" in why, why


def test_the_same_path_where_no_instance_is_named_so_does_not(tmp_path: Path) -> None:
    files = {"run.do": "set top /tb/x/ctr\nforeach s $::env(SIGS) { examine $top/$s }\n"}
    assert _reach(tmp_path, "u0", files) == ""
