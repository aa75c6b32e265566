"""The layer contracts of pyproject.toml (``[tool.importlinter]``) hold, and they are not
decoration: an import that breaks one makes ``lint-imports`` fail.

import-linter counts every import: inside functions and under ``if TYPE_CHECKING:`` too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(
    shutil.which("lint-imports") is None, reason="import-linter is not installed (dev extra)"
)


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` over the ``rtlopt`` package found in ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    tool = shutil.which("lint-imports") or "lint-imports"  # no cache folder in the checkout
    return subprocess.run(
        [tool, "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_layer_contracts_hold() -> None:
    run = _lint(REPO)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "BROKEN" not in run.stdout and "KEPT" in run.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        # a lower floor importing a higher one, only for the type checker
        (
            "rtlopt/frontend/model.py",
            "import typing\n\nif typing.TYPE_CHECKING:\n    import rtlopt.evaluate\n",
            "a layer never imports a higher one",
        ),
        # the ground floor importing a layer inside a function
        ("rtlopt/verilog.py", "def _up() -> None:\n    import rtlopt.run\n", "layer"),
        # the library importing a measurement script of bench/
        ("rtlopt/registry.py", "import _designs\n", "bench/ scripts"),
        # the library importing the acceptance runner of the tests
        ("rtlopt/registry.py", "from tests.acceptance import runner\n", "or the tests"),
    ],
)
def test_a_bad_import_breaks_a_contract(
    tmp_path: Path, module: str, line: str, contract: str
) -> None:
    shutil.copytree(REPO / "rtlopt", tmp_path / "rtlopt", ignore=shutil.ignore_patterns("data"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    path = tmp_path / module
    text = path.read_text()
    path.write_text(text + "\n" + line)
    run = _lint(tmp_path)
    assert run.returncode != 0 and "BROKEN" in run.stdout, run.stdout[-2000:]
    assert contract in run.stdout
