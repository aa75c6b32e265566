"""Which file declares which module: an index of the repository, kept across runs.

Parsing every file of a 500-file tree on every command takes seconds; the target needs a few
of them. The index maps each declared name (module, interface, program, package, primitive)
to the files declaring it, found by a regular expression over the raw text (a commented-out
declaration only adds a file to parse, never hides one). Entries are cached per file in
rtlopt's cache folder and reused while the file's size, modification and change times and
inode are the same, so a warm index costs one ``stat`` per file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.frontend._build_order import included
from rtlopt.frontend._files import (
    DEFAULT_LIMIT,
    include_target,
    included_names,
    read_source,
)

__all__ = ["MACRO_NAMED", "ModuleIndex", "build_index", "scope_names"]

log = logging.getLogger(__name__)

_DECL = re.compile(
    r"(?<![\w$`\\])(?:macromodule|module|interface|program|package|primitive)\s+"
    r"(?:(?:automatic|static)\s+)?([A-Za-z_][\w$]*|`)"
)
#: The index entry of files declaring a module whose name is a macro (``module `NAME``): the
#: name is known only after preprocessing, so a name found nowhere else is looked for there.
MACRO_NAMED = "`"
_SCOPE = re.compile(r"(?<![\w$:])([A-Za-z_][\w$]*)\s*::")
_IMPORT = re.compile(r"\bimport\s+([A-Za-z_][\w$]*)\s*::")
_VERSION = 3


def scope_names(text: str) -> set[str]:
    """Names a text uses as a package scope (``pkg::x``, ``import pkg::*``)."""
    return set(_SCOPE.findall(text)) | set(_IMPORT.findall(text))


class ModuleIndex:
    """Declared name -> the files declaring it, in source order."""

    def __init__(self, by_name: Mapping[str, Sequence[Path]]) -> None:
        self.by_name = {k: tuple(v) for k, v in by_name.items()}

    def files(self, name: str) -> tuple[Path, ...]:
        return self.by_name.get(name, ())

    def __len__(self) -> int:
        return len(self.by_name)


def _cache_file(root: Path) -> Path | None:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(base) / "rtlopt" / "index"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    key = hashlib.sha256(str(root).encode("utf-8", "surrogateescape")).hexdigest()[:20]
    return folder / f"{key}.json"


def _stamp(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _load(path: Path | None) -> dict[str, list[object]]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != _VERSION:
        return {}
    files = data.get("files")
    return files if isinstance(files, dict) else {}


def _store(path: Path | None, entries: Mapping[str, list[object]]) -> None:
    if path is None:
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".index-", suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            json.dump({"version": _VERSION, "files": entries}, fh)
        os.replace(tmp, path)
    except OSError:
        log.debug("module index not stored in %s", path)


def build_index(
    root: Path,
    files: Iterable[Path],
    limit: int = DEFAULT_LIMIT,
    include_dirs: Sequence[Path] = (),
) -> ModuleIndex:
    """The index of ``files`` (read only when their cached entry is stale). A name a header
    declares is indexed under each file including it too (```include`` expands in place:
    the build defines it there), before the files declaring it themselves when the includer
    comes first in ``files``."""
    cache = _cache_file(Path(root))
    old = _load(cache)
    new: dict[str, list[object]] = {}
    by_name: dict[str, list[Path]] = {}
    headers: dict[Path, list[str]] = {}
    read = 0
    for f in files:
        key = str(f)
        try:
            stamp = _stamp(os.stat(f))
        except OSError:
            continue
        hit = old.get(key)
        if isinstance(hit, list) and len(hit) == 3 and hit[0] == stamp:
            names = [str(n) for n in hit[1]]  # type: ignore[attr-defined]
            includes = [str(n) for n in hit[2]]  # type: ignore[attr-defined]
        else:
            names, includes = _entry(f, limit)
            read += 1
        new[key] = [stamp, names, includes]
        if includes:
            dirs = tuple(include_dirs)
            names = names + _header_names(Path(f), includes, dirs, headers, limit)
        for n in dict.fromkeys(names):
            by_name.setdefault(n, []).append(Path(f))
    if read or set(new) != set(old):
        _store(cache, new)
    log.debug("module index: %d files (%d read), %d names", len(new), read, len(by_name))
    return ModuleIndex(by_name)


def _entry(f: Path, limit: int) -> tuple[list[str], list[str]]:
    """The names ``f`` declares and the files it includes (as written)."""
    try:
        text = read_source(f, None, limit)
    except DesignError:
        return [], []
    return list(dict.fromkeys(_DECL.findall(text))), included_names(text)


def _header_names(
    f: Path,
    includes: Sequence[str],
    include_dirs: tuple[Path, ...],
    seen: dict[Path, list[str]],
    limit: int,
) -> list[str]:
    """The names the headers ``f`` includes (``includes``, as written; through other headers
    too) declare (``seen``: by header, each read once)."""
    found: list[Path] = []
    for name in includes:
        header = include_target(name, f, include_dirs)
        if header is None or header in found:
            continue
        found.append(header)
        try:
            found += included(header, read_source(header, None, limit), include_dirs)
        except DesignError:
            continue
    out: list[str] = []
    for header in dict.fromkeys(found):
        if header not in seen:
            try:
                seen[header] = _DECL.findall(read_source(header, None, limit))
            except DesignError:
                seen[header] = []
        out += seen[header]
    return out
