"""Liberty file handling: decompression cache, checksums, tie-cell scan, derived libraries.

Yosys 0.23 cannot read gzip'd liberty files, and OpenSTA 2.0.17 as packaged by Debian cannot
either (``read_liberty x.lib.gz`` is a syntax error), so every ``.gz`` liberty is decompressed
once into ``$XDG_CACHE_HOME/rtlopt/liberty/``.

Yosys re-reads the liberty in each of ``dfflibmap``, ``abc`` and ``stat`` (about 0.2 s each for
the 12 MB sky130 file). The derived libraries written here keep exactly what each pass reads:
sequential cells for ``dfflibmap``, combinational cells (minus dont-use patterns) for ``abc``,
and names plus areas for ``stat``. ``dfflibmap`` and ABC ignore the cells dropped from their
copies, so the mapped netlist is the same as with the full file.
"""

from __future__ import annotations

import fnmatch
import functools
import gzip
import hashlib
import json
import logging
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.errors import UsageError

log = logging.getLogger(__name__)

# Strings unrolled ("[^"\\]*(?:\\.[^"\\]*)*"): a third faster than one alternation per char.
_TOKEN = re.compile(
    r'/\*.*?\*/|"[^"\\]*(?:\\.[^"\\]*)*"|[{}]'
    r'|\bcell\s*\(\s*"?([^")\s]+)"?\s*\)\s*\{',
    re.S,
)
_SEQUENTIAL = re.compile(r"\b(?:ff|latch|ff_bank|latch_bank|statetable)\s*\(")
_AREA = re.compile(r"^\s*area\s*:\s*([0-9.eE+-]+)\s*;", re.M)
_BRACE = re.compile(r"[{}]")
_PIN = re.compile(r'\bpin\s*\(\s*"?([^")\s]+)"?\s*\)\s*\{')
_FUNCTION = re.compile(r'\bfunction\s*:\s*"\s*\(?\s*([01])\s*\)?\s*"')
_DIRECTION = re.compile(r'\bdirection\s*:\s*"?(\w+)"?\s*;')
_QUOTED_AREA = re.compile(r'^\s*area\s*:\s*"?([0-9.eE+-]+)"?\s*;', re.M)


def cache_dir() -> Path:
    """``RTLOPT_LIBERTY_CACHE``, else ``$XDG_CACHE_HOME/rtlopt/liberty`` (``~/.cache``)."""
    override = os.environ.get("RTLOPT_LIBERTY_CACHE")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rtlopt" / "liberty"


def file_md5(path: Path) -> str:
    """MD5 of a file's bytes."""
    h = hashlib.md5()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _atomic_write(dest: Path, write: Callable[[Path], None]) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=dest.name, suffix=".tmp")
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _write_text(dest: Path, text: str) -> None:
    def _w(tmp: Path) -> None:
        tmp.write_text(text)

    _atomic_write(dest, _w)


def plain_liberty(path: Path) -> tuple[Path, str]:
    """A decompressed copy of ``path`` and the MD5 of its decompressed content.

    Plain files are returned as they are. Gzip'd files are decompressed once into the cache,
    named after the MD5 of the decompressed content (an index file keyed by the compressed
    file's MD5 avoids decompressing again). Safe when several processes or threads prepare
    the same file: each writes its own temporary file and renames it into place; the renames
    replace identical content.

    Raises:
        UsageError: the file is not gzip data (or is truncated).
    """
    if path.suffix != ".gz":
        return path, file_md5(path)
    cdir = cache_dir()
    index = cdir / f"gz-{file_md5(path)}.ref"
    if index.is_file():
        md5 = index.read_text().strip()
        plain = cdir / f"{md5}.lib"
        if plain.is_file():
            return plain, md5
    cdir.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=cdir, prefix=f".{path.name}.", suffix=".partial")
    tmp = Path(tmp_name)
    h = hashlib.md5()
    try:
        with os.fdopen(fd, "wb") as dst:
            try:
                with gzip.open(path, "rb") as src:
                    for chunk in iter(lambda: src.read(1 << 20), b""):
                        h.update(chunk)
                        dst.write(chunk)
            except (OSError, EOFError, zlib.error) as exc:
                raise UsageError(
                    f"cannot decompress the liberty file: {exc}",
                    path=path,
                    hint="pass a .lib file, or a complete .lib.gz",
                ) from None
        md5 = h.hexdigest()
        plain = cdir / f"{md5}.lib"
        os.replace(tmp, plain)
    finally:
        tmp.unlink(missing_ok=True)
    _write_text(index, md5 + "\n")
    log.info("decompressed %s -> %s", path, plain)
    return plain, md5


_LIBRARY_HEAD = re.compile(r"\A\s*library\s*\(")


def check_liberty(path: Path, plain: Path) -> None:
    """Refuse a file that is not a liberty library (cheap: its first group must be ``library``).

    Args:
        path: The file as the user named it (for the message).
        plain: Its decompressed content.

    Raises:
        UsageError: naming the file and what was found instead.
    """
    try:
        with plain.open("rb") as f:
            head = f.read(1 << 20)
    except OSError as exc:
        raise UsageError(f"cannot read the liberty file: {exc.strerror}", path=path) from None
    text = re.sub(r"/\*.*?(\*/|\Z)|//[^\n]*", " ", head.decode("latin-1"), flags=re.S)
    if _LIBRARY_HEAD.match(text) is None:
        first = text.strip().splitlines()[0][:60] if text.strip() else ""
        found = (
            repr(first)
            if first.isprintable() and first
            else "binary data"
            if first
            else "an empty file"
        )
        raise UsageError(
            f"not a liberty file: it should start with 'library (', found {found}",
            path=path,
            hint="pass a Liberty (.lib or .lib.gz) timing library",
        )


@dataclass(frozen=True)
class _Cell:
    name: str
    start: int
    end: int  # one past the closing brace


def iter_cells(text: str) -> Iterator[_Cell]:
    """Top-level ``cell (...) { ... }`` groups of a liberty text (comments and strings skipped)."""
    depth = 0
    cell_name: str | None = None
    cell_start = 0
    cell_depth = 0
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if tok.startswith(("/*", '"')):
            continue
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            if cell_name is not None and depth == cell_depth:
                yield _Cell(cell_name, cell_start, m.end())
                cell_name = None
        else:  # "cell (name) {"
            if cell_name is None and depth == 1:
                cell_name = m.group(1)
                cell_start = m.start()
                cell_depth = depth
            depth += 1


@dataclass(frozen=True)
class CellInfo:
    """A library cell as the area breakdown needs it: its area and output pins."""

    area: float
    outputs: frozenset[str]


def cell_infos(text: str) -> dict[str, CellInfo]:
    """Area and output pins of every cell of a liberty text (comments and strings skipped)."""
    out: dict[str, CellInfo] = {}
    for cell in iter_cells(text):
        body = text[cell.start : cell.end]
        am = _QUOTED_AREA.search(body)
        pins = list(_PIN.finditer(body))
        outputs = set()
        for i, pm in enumerate(pins):
            seg_end = pins[i + 1].start() if i + 1 < len(pins) else len(body)
            dm = _DIRECTION.search(body, pm.end(), seg_end)
            if dm and dm.group(1) == "output":
                outputs.add(pm.group(1))
        out[cell.name] = CellInfo(float(am.group(1)) if am else 0.0, frozenset(outputs))
    return out


_CELLS_VERSION = "1"  # bump when cell_infos or the table's format changes (cache key)


@functools.lru_cache(maxsize=8)
def _liberty_cells(path: str, mtime_ns: int, size: int, md5: str | None) -> Mapping[str, CellInfo]:
    digest = md5 or file_md5(Path(path))
    table = cache_dir() / "cells" / f"{digest}-v{_CELLS_VERSION}.json"
    try:
        raw = json.loads(table.read_text())
        return {name: CellInfo(float(a), frozenset(outs)) for name, (a, outs) in raw.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        pass  # not there yet, or unreadable: parse the liberty and (re)write the table
    cells = cell_infos(Path(path).read_text(errors="replace"))
    try:
        _write_text(
            table,
            json.dumps({n: [c.area, sorted(c.outputs)] for n, c in cells.items()}, sort_keys=True),
        )
    except OSError as exc:
        log.debug("cell table not kept: %s", exc)
    return cells


def liberty_cells(liberty: Path, md5: str | None = None) -> Mapping[str, CellInfo]:
    """:func:`cell_infos` of a plain liberty file.

    Kept in memory per file (path, time and size) and on disk in the liberty cache, keyed by
    the file's content hash like the derived liberties: parsing the 12 MB sky130 file takes
    ~0.8 s, reading the table back a few milliseconds.

    Args:
        liberty: A plain (decompressed) liberty file.
        md5: The MD5 of its content when the caller knows it (``PdkInfo.md5``); else hashed.

    Raises:
        OSError: the file cannot be read.
    """
    st = liberty.stat()
    return _liberty_cells(str(liberty), st.st_mtime_ns, st.st_size, md5)


def strip_groups(text: str, names: Sequence[str]) -> str:
    """Remove every ``name (...) { ... }`` group (any depth) whose name is in ``names``."""
    head = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in names) + r")\s*\([^)]*\)\s*\{")
    out: list[str] = []
    pos = 0
    while True:
        m = head.search(text, pos)
        if m is None:
            out.append(text[pos:])
            return "".join(out)
        out.append(text[pos : m.start()])
        depth = 1
        i = m.end()
        for b in _BRACE.finditer(text, m.end()):
            depth += 1 if b.group(0) == "{" else -1
            if depth == 0:
                i = b.end()
                break
        else:
            i = len(text)
        pos = i


def is_sequential(cell_text: str) -> bool:
    """Whether a cell group declares ff/latch/statetable behaviour."""
    return _SEQUENTIAL.search(cell_text) is not None


def matches_any(name: str, patterns: Sequence[str]) -> bool:
    """Whether a cell name matches one of the glob patterns."""
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def scan_tie_cells(text: str) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
    """Find (cell, pin) of a constant-1 and a constant-0 output, smallest area first."""
    best: dict[str, tuple[float, str, str]] = {}
    for cell in iter_cells(text):
        body = text[cell.start : cell.end]
        if is_sequential(body):
            continue
        am = _AREA.search(body)
        area = float(am.group(1)) if am else float("inf")
        pins = list(_PIN.finditer(body))
        for i, pm in enumerate(pins):
            seg_end = pins[i + 1].start() if i + 1 < len(pins) else len(body)
            fm = _FUNCTION.search(body, pm.end(), seg_end)
            if fm is None:
                continue
            value = fm.group(1)
            if value not in best or area < best[value][0]:
                best[value] = (area, cell.name, pm.group(1))
    hi = (best["1"][1], best["1"][2]) if "1" in best else None
    lo = (best["0"][1], best["0"][2]) if "0" in best else None
    return hi, lo


@dataclass(frozen=True)
class DerivedLiberties:
    """Per-pass liberty files derived from one plain liberty.

    Attributes:
        abc: Combinational cells without the dont-use ones (for ``abc -liberty``).
        dff: Sequential cells without the dont-use ones (for ``dfflibmap -liberty``).
        area: Every cell with only its area (for ``stat -liberty``).
    """

    abc: Path
    dff: Path
    area: Path


_DERIVE_VERSION = "2"  # bump when the derivation changes (cache key)


def derive_liberties(plain: Path, md5: str, dont_use: Sequence[str]) -> DerivedLiberties:
    """Write (once, cached by content and dont-use list) the per-pass liberty files."""
    raw = _DERIVE_VERSION + md5 + "\0" + "\0".join(sorted(dont_use))
    key = hashlib.md5(raw.encode()).hexdigest()[:16]
    out = cache_dir() / "derived" / key
    result = DerivedLiberties(out / "abc.lib", out / "dff.lib", out / "area.lib")
    if all(p.is_file() for p in (result.abc, result.dff, result.area)):
        return result
    text = plain.read_text(errors="replace")
    cells = list(iter_cells(text))
    if not cells:
        raise UsageError(
            "the liberty file has no cell groups",
            path=plain,
            hint="pass a Liberty timing library with cells",
        )
    abc_parts: list[str] = []
    dff_parts: list[str] = []
    area_parts: list[str] = []
    pos = 0
    for cell in cells:
        between = text[pos : cell.start]
        abc_parts.append(between)
        dff_parts.append(between)
        area_parts.append(between)
        body = text[cell.start : cell.end]
        am = _AREA.search(body)
        if am is not None:
            area_parts.append(f'cell ("{cell.name}") {{\n    area : {am.group(1)};\n  }}')
        if not matches_any(cell.name, dont_use):
            # ABC and dfflibmap never read power groups; dfflibmap reads no timing either
            if is_sequential(body):
                dff_parts.append(strip_groups(body, ("internal_power", "leakage_power", "timing")))
            else:
                abc_parts.append(strip_groups(body, ("internal_power", "leakage_power")))
        pos = cell.end
    tail = text[pos:]
    outputs = ((abc_parts, result.abc), (dff_parts, result.dff), (area_parts, result.area))
    for parts, dest in outputs:
        parts.append(tail)
        _write_text(dest, "".join(parts))
    log.info("derived liberties for %s in %s", plain.name, out)
    return result
