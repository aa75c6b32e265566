"""A testbench that does not parse with the configured defines, calling a task of its own
folder's memory model (biriscv's icarus testbench: `` `TRACE`` from its Makefile, ``tcm_mem``
beside the build's): it is elaborated as its own build (``evaluate/_tb_x_benches.py``), so a
counter's reset and clock, written 0/1 from time 0, are not x. An equivalent rewrite is proven
and a broken reset value refuted, in the build and with the testbench excluded (real tools);
they were "unchecked: the repository feeds x into clk, rst" before."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _fixture_repo import repo_verdict

sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "evaluate"))
from test_tb_x_benches import CNT, CORE, MAKEFILE, MEM, TB, TB_MEM  # noqa: E402

pytestmark = pytest.mark.tools

FILES = {
    "rtl/cnt.v": CNT,
    "rtl/core.v": CORE,
    "rtl/mem.v": MEM,
    "rtl.f": "rtl/mem.v\nrtl/cnt.v\nrtl/core.v\n",
    "tb/tb_top.v": TB.replace("EN_WRITE", "en = 1'b1;"),
    "tb/mem.v": TB_MEM,
    "tb/makefile": MAKEFILE,
}
CONFIGS = {
    "filelist": '[project]\nfilelists = ["rtl.f"]\n',
    "every-file": "",
    "excluded": '[project]\nexclude = ["tb/**"]\n',
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize(
    ("candidate", "rc", "verdict"),
    [
        (CNT.replace("q <= q + 4'd1", "q <= 4'd1 + q"), 0, ""),
        (CNT.replace("q <= 4'd0;", "q <= 4'd1;"), 1, "not equivalent"),
    ],
    ids=["equivalent", "broken"],
)
def test_a_testbench_read_with_its_makefiles_defines_leaves_reset_and_clock_defined(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    config: str,
    candidate: str,
    rc: int,
    verdict: str,
) -> None:
    files = {**FILES, "rtlopt.toml": CONFIGS[config]} if CONFIGS[config] else FILES
    got, reason = repo_verdict(tmp_path, monkeypatch, files, "rtl/cnt.v", candidate)
    assert got == rc, reason
    assert verdict in reason and "x into" not in reason, reason
