"""Minimum versions: pyproject's extras, the code's table and the installed packages agree."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from rtlopt.errors import UsageError
from rtlopt.policy import _versions
from rtlopt.policy._versions import (
    EXTRA_OF,
    MIN_VERSIONS,
    installed_version,
    parse_version,
    require_min_version,
    version_at_least,
)

PYPROJECT = Path(__file__).resolve().parents[3] / "pyproject.toml"


def _pins() -> dict[str, tuple[str, str]]:
    extras = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]
    pins: dict[str, tuple[str, str]] = {}
    for extra, reqs in extras.items():
        for req in reqs:
            m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9.]+)", req)
            if m:
                pins[m.group(1).lower()] = (extra, m.group(2))
    return pins


def test_pyproject_pins_equal_the_code_minimums() -> None:
    pins = _pins()
    for dist, minimum in MIN_VERSIONS.items():
        assert pins.get(dist) == (EXTRA_OF[dist], minimum), dist
    # What the code needs: dtype= (4.56), Qwen3 (4.51), vLLM sleep mode + max_lora_rank 1.
    assert version_at_least(MIN_VERSIONS["transformers"], "4.56")
    assert version_at_least(MIN_VERSIONS["vllm"], "0.11.1")


GPU_SKIP_REASON = "needs a GPU"  # tests/conftest.py lets this skip pass in CI mode
_GPU_ONLY = frozenset({"vllm"})


@pytest.mark.parametrize("dist", sorted(MIN_VERSIONS))
def test_installed_packages_meet_the_pins(dist: str) -> None:
    have = installed_version(dist)
    if have is None:
        if dist in _GPU_ONLY:  # installed only on a GPU machine: not a CI failure here
            pytest.skip(f"{GPU_SKIP_REASON}: {dist} is not installed here")
        pytest.skip(f"{dist} is not installed here")
    assert version_at_least(have, MIN_VERSIONS[dist]), f"{dist} {have} < {MIN_VERSIONS[dist]}"


def test_version_comparison() -> None:
    assert parse_version("4.56.0.dev0") == (4, 56, 0)
    assert parse_version("0.11.1rc2+cu128") == (0, 11, 1)
    assert version_at_least("4.56", "4.56.0") and version_at_least("5.0.1", "4.56")
    assert not version_at_least("4.55.4", "4.56")
    assert not version_at_least("0.11.0", "0.11.1")
    assert version_at_least("0.11.1", "0.11.1")


def test_too_old_install_is_refused_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_versions, "installed_version", lambda dist: "4.45.2")
    with pytest.raises(UsageError) as err:
        require_min_version("transformers")
    assert "transformers 4.45.2 is installed; rtlopt needs transformers>=4.56" in str(err.value)
    assert err.value.hint == "pip install -U 'rtlopt[train]'"
    monkeypatch.setattr(_versions, "installed_version", lambda dist: None)
    require_min_version("vllm")  # not installed: the caller's own check names what needs it
