"""Every mutant of scripts/mutate.py still finds its site: a refactoring that moves or rewrites
the code a mutant targets must move the mutant too, or the mutation testing silently tests
nothing for it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_every_mutant_finds_its_site_and_names_existing_tests() -> None:
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import mutate
    finally:
        sys.path.pop(0)
    missing = [
        f"{m.id}: {m.path}"
        for m in mutate.MUTATIONS
        if not re.search(m.pattern, (REPO / m.path).read_text())
    ]
    assert not missing, "mutants whose site is gone:\n" + "\n".join(missing)
    tests = [t for m in mutate.MUTATIONS for t in m.tests if not (REPO / t.split("::")[0]).exists()]
    assert not tests, tests
    ids = [m.id for m in mutate.MUTATIONS]
    assert len(ids) == len(set(ids))
