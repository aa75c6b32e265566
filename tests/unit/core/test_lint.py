"""The lint the README promises: ``ruff check``, ``ruff format --check`` and strict ``mypy``.

CI runs only the test command, so these checks live in the suite: a change that breaks the
style or the types turns CI red instead of landing.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
TREES = ["rtlopt", "tests", "bench", "plugins", "scripts"]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600)


def _ruff() -> list[str]:
    """ruff through this interpreter (its scripts folder need not be on PATH)."""
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (pip install 'rtlopt[dev]')")
    return [sys.executable, "-m", "ruff"]


def test_ruff_check_is_clean() -> None:
    proc = _run([*_ruff(), "check", *TREES])
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def test_ruff_format_leaves_every_file_as_it_is() -> None:
    proc = _run([*_ruff(), "format", "--check", *TREES])
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    try:
        import mypy  # noqa: F401
    except ImportError:
        pytest.skip("mypy is not installed (pip install 'rtlopt[dev]')")
    proc = _run([sys.executable, "-m", "mypy"])
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
