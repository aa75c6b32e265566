"""Every text of the repository a rule scans whole (its sources, the prelude, every file of
its include folders), read once per design: the reach rules (:mod:`._reach`) and the pragma
macros (:mod:`._pragma_macros`) read the same list."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.harness._binary import as_text, is_binary, with_decoded
from rtlopt.harness._captured import repository_files
from rtlopt.harness._opaque import run_time_spelling, source_text
from rtlopt.harness._unpacked import CAP, is_packed, unpacked

__all__ = ["opaque_reason", "opaque_texts", "other_texts", "repository_texts"]

#: Suffixes of Verilog sources and headers, scanned in an include folder whatever includes them.
_HEADER_SUFFIXES = frozenset({".v", ".sv", ".vh", ".svh", ".inc", ".h", ".vinc", ".svi", ".vi"})
_INCLUDE = re.compile(r'`include\s*"([^"\n]+)"')

#: Larger files are no design text (a waveform, an image) and are not scanned.
_SCANNED_BYTES = 4_000_000
_TEXTS: dict[int, tuple[object, list[tuple[Path, str]]]] = {}
_OPAQUE: dict[tuple[int, Path | None], tuple[object, list[tuple[Path, int, str]]]] = {}
_OTHERS: dict[
    tuple[int, Path | None], tuple[object, tuple[list[tuple[Path, str]], list[Path]]]
] = {}


def repository_texts(design: Design) -> list[tuple[Path, str]]:
    """``(path, text)`` of every source, prelude file and file of an include folder of
    ``design`` (at most 4 MB each), once per design object."""
    hit = _TEXTS.get(id(design))
    if hit is not None and hit[0] is design:
        return hit[1]
    files = [Path(f) for f in [*design.sources.files, *design.sources.prelude]]
    folder_files: list[Path] = []
    for folder in design.include_dirs:
        try:
            folder_files += sorted(f for f in Path(folder).iterdir() if f.is_file())
        except OSError:
            continue
    out: list[tuple[Path, str]] = []
    for f in dict.fromkeys(files):
        _read_into(out, f)
    # a file of an include folder is design text where its suffix says so or a text read
    # here includes it by name (a header of any name); a Makefile beside them is not
    named = _included_names(t for _, t in out)
    left = [f for f in dict.fromkeys(folder_files) if f not in set(files)]
    while left:
        take = [f for f in left if f.suffix in _HEADER_SUFFIXES or f.name in named]
        if not take:
            break
        left = [f for f in left if f not in take]
        start = len(out)
        for f in take:
            _read_into(out, f)
        named |= _included_names(t for _, t in out[start:])
    if len(_TEXTS) > 8:
        _TEXTS.clear()
    _TEXTS[id(design)] = (design, out)
    return out


def _read_into(out: list[tuple[Path, str]], f: Path) -> None:
    try:
        if f.stat().st_size <= _SCANNED_BYTES:
            out.append((f, as_text(f.read_bytes())))
    except OSError:
        return


def _included_names(texts: Iterable[str]) -> set[str]:
    """The file names the ```include`` directives of ``texts`` name (their last part)."""
    return {Path(m.group(1)).name for t in texts for m in _INCLUDE.finditer(t)}


def other_texts(
    design: Design, own: Path | None = None
) -> tuple[list[tuple[Path, str]], list[Path]]:
    """Every other text file of ``design``'s repository (whatever its name: a Makefile or a
    script may hand a simulator ``poke.sva`` or ``tb.vt``), as ``(path, text)``, and the
    files that could not be read whole (over 4 MB, unreadable): a rule that needs every text
    judges those by a byte search or fails closed. Only files of a recognised binary format
    (:func:`~rtlopt.harness._binary.is_binary`: by magic number) are left out; every other
    text is read with its NUL bytes as spaces and its escape-decoded lines appended
    (:func:`~rtlopt.harness._binary.with_decoded`). ``own`` is rtlopt's own scratch folder
    (a candidate's copy, the preprocessed texts): no file of the repository even where a
    caller puts it inside the repository's folder. Once per design object and scratch folder."""
    key = (id(design), own.resolve() if own is not None else None)
    skip = _scratch(design, key[1])
    hit = _OTHERS.get(key)
    if hit is not None and hit[0] is design:
        return hit[1]
    known = {p.resolve() for p, _ in repository_texts(design)}
    texts: list[tuple[Path, str]] = []
    unread: list[Path] = []
    root = Path(design.root)
    try:
        found = repository_files(root)
    except OSError:
        found, unread = [], [root]
    outside = [Path(f) for f in [*design.sources.files, *design.sources.prelude]]
    found += [f for f in outside if not f.resolve().is_relative_to(root.resolve())]
    opaque: list[tuple[Path, int, str]] = []
    for f in found:
        try:
            r = f.resolve()
            if r in known or any(r.is_relative_to(s) for s in skip):
                continue
            if f.stat().st_size > _SCANNED_BYTES:
                with f.open("rb") as fh:
                    packed = is_packed(fh.read(512))
                if not packed or f.stat().st_size > CAP:
                    unread.append(f)
                    if packed:
                        opaque.append((f, 1, f"a compressed file over {CAP // 1_000_000} MB"))
                    continue
            data = f.read_bytes()
        except OSError:
            unread.append(f)
            continue
        _read_other(f, data, texts, opaque)
    if len(_OTHERS) > 8:
        _OTHERS.clear()
        _OPAQUE.clear()
    _OTHERS[key] = (design, (texts, unread))
    _OPAQUE[key] = (design, opaque)
    return texts, unread


def opaque_texts(design: Design, own: Path | None = None) -> list[tuple[Path, int, str]]:
    """``(path, line, why)`` of each text of :func:`other_texts` whose content rtlopt cannot
    read (a compressed file it cannot unpack, a script computing characters at run time, a
    source in an unknown encoding): it may feed x into every input, name any inner name and
    set any parameter (:mod:`rtlopt.harness._opaque`, :mod:`rtlopt.harness._unpacked`)."""
    other_texts(design, own)
    key = (id(design), own.resolve() if own is not None else None)
    hit = _OPAQUE.get(key)
    return hit[1] if hit is not None and hit[0] is design else []


def opaque_reason(design: Design, own: Path | None, what: str) -> str:
    """The message for the first text of :func:`opaque_texts` (not documentation), or "";
    ``what``: what the text may do there (feed x into an input, name an inner name)."""
    from rtlopt.evaluate._foreign_x_anytext import is_documentation

    for path, line, why in opaque_texts(design, own):
        if is_documentation(path, set()):
            continue
        try:
            rel = path.resolve().relative_to(Path(design.root).resolve()).as_posix()
        except ValueError:
            rel = path.as_posix()
        return (
            f"{rel}:{line}: rtlopt cannot read what this text spells ({why}), so it may "
            f"{what}; it is not checked: write the value plainly, or take the file out of the "
            "repository if it does not belong to this design"
        )
    return ""


def _read_other(
    f: Path, data: bytes, texts: list[tuple[Path, str]], opaque: list[tuple[Path, int, str]]
) -> None:
    """Adds the text(s) of file ``f`` (its ``data``) to ``texts``: a compressed file or an
    archive by what it holds (each text named as unpacked), a source in its declared
    encoding; what cannot be read, or computes characters at run time, to ``opaque``."""
    packed = unpacked(f, data)
    if packed is not None:
        if packed.why:
            opaque.append((f, 1, packed.why))
        for name, inner in packed.members:
            _read_other(name, inner, texts, opaque)
        return
    if is_binary(data[:8192]):
        return
    text, why = source_text(data)
    if why:
        opaque.append((f, 1, why))
    spelled = run_time_spelling(f, text)
    if spelled is not None:
        opaque.append((f, spelled[0], f"it computes characters at run time: {spelled[1]}"))
    texts.append((f, with_decoded(text)))


#: Scratch folders an evaluator of this process made (absent or empty before: its files are
#: rtlopt's own).
_CLAIMED: set[Path] = set()
_CLAIMED_LOCK = threading.Lock()  # evaluators of parallel rollouts claim and read at once


def claim_scratch(folder: Path) -> None:
    """Note ``folder`` as rtlopt's own scratch folder when it is absent or empty now (call
    before writing into it); a folder holding files already is the user's."""
    if not folder.exists() or (folder.is_dir() and not any(folder.iterdir())):
        resolved = folder.resolve()
        with _CLAIMED_LOCK:
            _CLAIMED.add(resolved)


def _scratch(design: Design, own: Path | None) -> tuple[Path, ...]:
    """The scratch folders whose files can be left out: ``own`` and every other folder this
    process made (:func:`claim_scratch`: an earlier evaluator's candidates and logs inside the
    repository's folder are rtlopt's, not the repository's), each where it neither holds the
    repository nor any of the design's sources, prelude files or include folders (a scratch
    folder given as the repository itself, or around its sources, hides nothing; one that held
    files before rtlopt used it, a folder of the repository a build compiles from, hides
    nothing either)."""
    root = Path(design.root).resolve()
    with _CLAIMED_LOCK:
        every = tuple(_CLAIMED)
    claimed = [c for c in every if c == own or c.is_relative_to(root)]
    if not claimed:
        return ()  # a folder that held files before rtlopt used it may hold the user's
    design_paths = [
        p.resolve()
        for p in [
            Path(design.root),
            *map(Path, design.sources.files),
            *map(Path, design.sources.prelude),
            *map(Path, design.include_dirs),
        ]
    ]
    return tuple(c for c in claimed if not any(p.is_relative_to(c) for p in design_paths))
