"""Yosys's cell models follow the ``yosys`` that runs, not the first one a process asked about.

They are part of the evaluator's fingerprint: a lookup kept from an earlier ``yosys`` (a fake
one on PATH, another ``RTLOPT_YOSYS_DATDIR``) gave this process a fingerprint no fresh worker
process shares (the Ray workers refused to evaluate after the unit tests had run).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rtlopt.eda.iverilog import yosys_simulation_libraries
from tests.conftest import FAKE_TOOLS, FakeTools


def _cell_models(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "simcells.v").write_text("module \\$_NOT_ (A, Y); input A; output Y; endmodule\n")
    return folder


def test_libraries_follow_the_datdir_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _cell_models(tmp_path / "first")
    second = _cell_models(tmp_path / "second")
    monkeypatch.setenv("RTLOPT_YOSYS_DATDIR", str(first))
    assert yosys_simulation_libraries() == (first / "simcells.v",)
    monkeypatch.setenv("RTLOPT_YOSYS_DATDIR", str(second))
    assert yosys_simulation_libraries() == (second / "simcells.v",)


@pytest.mark.tools
def test_a_fake_yosys_does_not_stick(
    fake_tools: FakeTools, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RTLOPT_YOSYS_DATDIR", raising=False)
    real_path = os.environ["PATH"].split(os.pathsep, 1)[1]  # fake_tools put its folder first
    # only the fake yosys: no yosys-config on PATH, no share/yosys beside it
    monkeypatch.setenv("PATH", str(FAKE_TOOLS))
    assert yosys_simulation_libraries() == ()
    monkeypatch.setenv("PATH", real_path)
    assert shutil.which("yosys") is not None
    libs = yosys_simulation_libraries()
    assert libs and all(p.is_file() for p in libs), libs
