"""Shared fixtures: isolated HOME/XDG dirs, paths to the shared benchmark and PDK data."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

# Defaults for the shared data; CI and developers may point these elsewhere.
os.environ.setdefault("RTLOPT_PDK_PATH", str(SHARED / "pdk"))
os.environ.setdefault("RTLOPT_BENCH_PATH", str(SHARED / "bench"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
_LIB_CACHE = Path(os.environ.get("RTLOPT_TEST_CACHE", "/tmp/rtlopt-test-cache"))


def bench_path() -> Path:
    return Path(os.environ["RTLOPT_BENCH_PATH"])


def pdk_path() -> Path:
    return Path(os.environ["RTLOPT_PDK_PATH"])


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test touches the user's files: HOME and XDG dirs are temporary.

    The liberty decompression cache and the dequantized-model cache are shared between tests
    (read-only data, keyed by content) so the 12 MB sky130 liberty is unpacked, and the GGUF model
    converted, once per machine rather than once per test.
    """
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("RTLOPT_LIBERTY_CACHE", str(_LIB_CACHE / "liberty"))
    monkeypatch.setenv("RTLOPT_MODEL_CACHE", str(_LIB_CACHE / "models"))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "rtlopt-test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@localhost")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "rtlopt-test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@localhost")


def _have(*tools: str) -> bool:
    return all(shutil.which(t) for t in tools)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_gpu = pytest.mark.skip(reason="needs a GPU")
    skip_tools = pytest.mark.skip(reason="EDA tools (iverilog, yosys, sta) not installed")
    # Importing torch costs seconds; a GPU machine has the NVIDIA device nodes.
    has_cuda = Path("/dev/nvidia0").exists() or Path("/dev/nvidiactl").exists()
    tools_ok = _have("iverilog", "vvp", "yosys", "sta")
    for item in items:
        if "gpu" in item.keywords and not has_cuda:
            item.add_marker(skip_gpu)
        if "tools" in item.keywords and not tools_ok:
            item.add_marker(skip_tools)


@pytest.fixture
def git_repo(tmp_path: Path) -> Iterator[Path]:
    """An empty git repository with one commit."""
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    (repo / "README").write_text("test repository\n")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "init"], check=True)
    yield repo


def requires_shared(*parts: str) -> pytest.MarkDecorator:
    """Skip when the shared data is absent."""
    for base in (bench_path(), pdk_path()):
        if (base.joinpath(*parts)).exists():
            return pytest.mark.skipif(False, reason="")
    return pytest.mark.skipif(True, reason=f"shared data {'/'.join(parts)} not found")
