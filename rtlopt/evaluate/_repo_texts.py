"""Every text of the repository a rule scans whole (its sources, the prelude, every file of
its include folders), read once per design: the reach rules (:mod:`._reach`) and the pragma
macros (:mod:`._pragma_macros`) read the same list."""

from __future__ import annotations

from pathlib import Path

from rtlopt.frontend.model import Design

__all__ = ["repository_texts"]

#: Larger files are no design text (a waveform, an image) and are not scanned.
_SCANNED_BYTES = 4_000_000
_TEXTS: dict[int, tuple[object, list[tuple[Path, str]]]] = {}


def repository_texts(design: Design) -> list[tuple[Path, str]]:
    """``(path, text)`` of every source, prelude file and file of an include folder of
    ``design`` (at most 4 MB each), once per design object."""
    hit = _TEXTS.get(id(design))
    if hit is not None and hit[0] is design:
        return hit[1]
    files = [Path(f) for f in [*design.sources.files, *design.sources.prelude]]
    for folder in design.include_dirs:
        try:
            files += sorted(f for f in Path(folder).iterdir() if f.is_file())
        except OSError:
            continue
    out: list[tuple[Path, str]] = []
    for f in dict.fromkeys(files):
        try:
            if f.stat().st_size <= _SCANNED_BYTES:
                out.append((f, f.read_text(errors="replace")))
        except OSError:
            continue
    if len(_TEXTS) > 8:
        _TEXTS.clear()
    _TEXTS[id(design)] = (design, out)
    return out
