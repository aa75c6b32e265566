"""Source sets for a candidate: the candidate file plus the repository modules it may use.

A candidate replaces the target module. It may define helper modules of its own (which then
shadow repository modules of the same name) and may instantiate any module of the repository.
Files are copied into the candidate's scratch directory with the replaced modules blanked out
(newlines kept, so tool messages keep their line numbers).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.frontend.model import Design, Module

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def normalize_source(text: str) -> str:
    """Text with comments removed and whitespace collapsed: equal for cosmetic variants."""
    strings: list[str] = []

    def keep(m: re.Match[str]) -> str:
        strings.append(m.group(0))
        return f"\x00{len(strings) - 1}\x00"

    t = _STRING.sub(keep, text)
    t = _COMMENT.sub(" ", t)
    t = re.sub(r"\s+", " ", t).strip()
    t = re.sub(r" ?([^\w\s$\x00]) ?", r"\1", t)  # spaces around punctuation carry no meaning
    return re.sub(r"\x00(\d+)\x00", lambda m: strings[int(m.group(1))], t)


def source_hash(text: str) -> str:
    """SHA-256 of the exact text (UTF-8): the identity of a candidate and its cache key.

    Two texts that differ in a comment or a space are different candidates: comments can be
    tool directives (``// synopsys translate_off``), so a verdict is never shared between them.
    """
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def normalized_hash(text: str) -> str:
    """SHA-256 of :func:`normalize_source`: equal for cosmetic variants.

    Only for skipping duplicate rollouts inside one step; never to reuse a verdict.
    """
    return hashlib.sha256(normalize_source(text).encode("utf-8", "surrogatepass")).hexdigest()


def blank_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """Replace each [start, end) span by spaces, keeping newlines."""
    chars = list(text)
    for start, end in spans:
        for i in range(start, min(end, len(chars))):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def module_closure(names: Iterable[str], modules: Mapping[str, Module]) -> list[str]:
    """Every repository module reachable from ``names`` through instantiations."""
    seen: list[str] = []
    stack = [n for n in names if n in modules]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.append(n)
        stack.extend(i for i in modules[n].instances if i in modules and i not in seen)
    return seen


@dataclass(frozen=True)
class CandidateSources:
    """Files to compile a candidate with, in order (library first, candidate last)."""

    files: tuple[Path, ...]
    candidate: Path
    library: tuple[Path, ...]


def library_files(
    design: Design, defined: Sequence[str], used: Sequence[str], outdir: Path
) -> tuple[Path, ...]:
    """Repository files a candidate needs, with the target and shadowed modules blanked.

    Args:
        design: The design.
        defined: Module names the candidate defines (they shadow repository modules).
        used: Module names the candidate instantiates.
        outdir: Where blanked copies are written.
    """
    wanted = [n for n in module_closure(used, design.modules) if n not in defined]
    by_file: dict[Path, list[Module]] = {}
    for name in wanted:
        mod = design.modules[name]
        by_file.setdefault(mod.file, [])
    out: list[Path] = []
    # Keep closure order (dependencies first) for files that are needed.
    order = [f for f in design.closure if f in by_file] + [
        f for f in by_file if f not in design.closure
    ]
    outdir.mkdir(parents=True, exist_ok=True)
    for idx, f in enumerate(order):
        text = f.read_text(errors="replace")
        drop = [
            m
            for m in design.modules.values()
            if m.file == f and (m.name in defined or m.name == design.target.name)
        ]
        if drop:
            copy = outdir / f"lib{idx}_{f.name}"
            copy.write_text(blank_spans(text, [(m.start, m.end) for m in drop]))
            out.append(copy)
        else:
            out.append(f)
    return tuple(out)
