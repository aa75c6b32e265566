"""Paths one checkout writes into one file: on a case-insensitive file system (macOS's
default APFS, Windows NTFS) ``m.V`` and ``M.v`` are one file, and HFS+ also stores a name in
another Unicode normalization (NFD), so a path that differs from another only in case or
normalization is, on such a checkout, the other file, whichever git writes last. The gate
maps a change to the files a build reads by exact path, so such a path the change adds is a
finding naming both."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable
from pathlib import Path


def folded(path: str) -> str:
    """``path`` as a case-insensitive, normalization-insensitive file system compares it."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", path).casefold())


def tree_paths(tree: Path) -> list[str]:
    """Every file, symlink and folder under ``tree`` (``.git`` aside), relative to it."""
    out = []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        rel = Path(dirpath).relative_to(tree)
        out += [(rel / n).as_posix() for n in [*dirnames, *filenames]]
    return out


def case_collisions(paths: Iterable[str], added: Iterable[str]) -> list[tuple[str, str]]:
    """(added path, the other path) for each path of ``added``, or a folder on its way, that
    equals another path of ``paths`` (the tree after the change) ignoring case and Unicode
    normalization."""
    spellings: dict[str, set[str]] = {}
    for p in paths:
        spellings.setdefault(folded(p), set()).add(p)
    out = []
    for rel in sorted(set(added)):
        parts = rel.split("/")
        for i in range(1, len(parts) + 1):
            mine = "/".join(parts[:i])
            others = sorted(spellings.get(folded(mine), set()) - {mine})
            if others:
                out.append((rel, others[0]))
                break
    return out


def collision_finding(rel: str, other: str) -> str:
    return (
        f"{rel} equals {other} ignoring case (or Unicode normalization): a checkout on a "
        "case-insensitive file system (macOS, Windows) writes both into one file, the later "
        "one over the other, so what a build there reads is not what the gate judges; rename "
        "it"
    )
