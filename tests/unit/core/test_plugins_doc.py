"""docs/plugins.md shows the real plugins: every entry point it declares is in one of the
plugin distributions, and every group it names is a registry's (or its aliases group)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from rtlopt.plugins import REGISTRIES

REPO = Path(__file__).resolve().parents[3]
DOC = (REPO / "docs" / "plugins.md").read_text()


def _declared() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for pyproject in [
        *REPO.glob("plugins/*/pyproject.toml"),
        *REPO.glob("tests/plugins/*/pyproject.toml"),
    ]:
        eps = tomllib.loads(pyproject.read_text())["project"].get("entry-points", {})
        for group, table in eps.items():
            out.setdefault(group, {}).update(table)
    return out


def test_doc_entry_points_are_the_plugins_own() -> None:
    declared = _declared()
    blocks = re.findall(r'\[project\.entry-points\."([\w.]+)"\]\n((?:[\w-]+ = "[^"]+"\n)+)', DOC)
    assert len(blocks) >= 4
    for group, body in blocks:
        for name, value in re.findall(r'([\w-]+) = "([^"]+)"', body):
            assert declared.get(group, {}).get(name) == value, (group, name, value)


def test_doc_groups_exist() -> None:
    aliases = {r.alias_group for r in REGISTRIES}
    for group in set(re.findall(r"`(rtlopt\.[a-z_]+\.aliases)`", DOC)):
        assert group in aliases, group
    for reg in REGISTRIES:
        assert f"`{reg.group}`" in DOC, reg.group
