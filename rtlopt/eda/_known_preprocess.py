"""The preprocessor's output where it is known without running it over the files at hand.

``iverilog -E`` copies a file with no directive mark (a backtick), carriage return or NUL byte
byte for byte and concatenates files with nothing between them
(:func:`rtlopt.eda.iverilog.verbatim_preprocessed`). Every unit rtlopt preprocesses is a few
files with directives first (its prelude, the macro state a candidate is read in, the
repository's headers) and then files that mostly have none (the target's file, a candidate):
so the output of ``prefix + plain files`` is the prefix's own output followed by the plain
files' bytes, provided the prefix leaves the preprocessor as it found it for plain text (no
conditional left open, no macro continued past its last line, no comment left open, a last
line ending in a line break).

:func:`known_output` checks that once per distinct prefix in a process: the prefix is
preprocessed followed by a sentinel line (a per-process secret), and only where the output ends
with exactly the sentinel, with no message and a zero exit, is the prefix's output kept (with
the files it opened and their digests: a header that changed is read again). Every other unit
runs the tool.
"""

from __future__ import annotations

import hashlib
import secrets
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from rtlopt.eda.iverilog import preprocess_argv, verbatim_preprocessed
from rtlopt.tools import Tool

__all__ = ["known_output"]

#: What the preprocessor wrote for a prefix (None: not transparent), the files it opened and
#: their digests, by the tool, the flags and the prefix's files and digests.
_Entry = tuple[bytes, tuple[Path, ...], tuple[str, ...]] | None
_MEMO: dict[tuple[object, ...], _Entry] = {}
_LOCK = threading.Lock()
_SENTINEL = f"// rtlopt prefix end {secrets.token_hex(8)}\n".encode()


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _unchanged(paths: tuple[Path, ...], digests: tuple[str, ...]) -> bool:
    """Whether every file a prefix opened still has the bytes it had."""
    return all(_digest(p) == d for p, d in zip(paths, digests, strict=True))


def _tail_start(files: Sequence[Path]) -> int:
    """The index of the first file of the longest run of plain files (no directive mark,
    carriage return or NUL, readable) that ends the list."""
    start = len(files)
    while start > 0 and verbatim_preprocessed([files[start - 1]]) is not None:
        start -= 1
    return start


def known_output(
    iverilog: Tool,
    files: Sequence[Path],
    *,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    timeout: float = 60.0,
) -> tuple[bytes, tuple[Path, ...]] | None:
    """What ``iverilog -grelative-include -E`` writes for ``files`` and the files it opens,
    where that is known (module docstring): the files alone when none holds a directive,
    else the remembered output of the files before the plain ones followed by theirs. None:
    run the tool (a prefix that is not transparent, a file that cannot be read, no plain
    file to gain on)."""
    plain = verbatim_preprocessed(files)
    if plain is not None:
        return plain, tuple(Path(f) for f in files)
    start = _tail_start(files)
    if start == len(files) or start == 0:
        return None
    prefix, tail = list(files[:start]), list(files[start:])
    entry = _prefix(iverilog, prefix, include_dirs, defines or {}, timeout)
    rest = verbatim_preprocessed(tail)
    if entry is None or rest is None:
        return None
    out, opened, _ = entry
    return out + rest, (*opened, *(Path(f) for f in tail))


def _prefix(
    iverilog: Tool,
    prefix: list[Path],
    include_dirs: Sequence[Path],
    defines: Mapping[str, str],
    timeout: float,
) -> _Entry:
    digests = tuple(_digest(Path(f)) for f in prefix)
    if None in digests:
        return None
    key = (
        iverilog.path,
        tuple(str(i) for i in include_dirs),
        tuple(sorted(defines.items())),
        tuple(str(f) for f in prefix),
        digests,
    )
    with _LOCK:
        if key in _MEMO:
            entry = _MEMO[key]
            if entry is None or all(
                _digest(p) == d for p, d in zip(entry[1], entry[2], strict=True)
            ):
                return entry
    entry = _run_prefix(iverilog, prefix, include_dirs, defines, timeout)
    with _LOCK:
        _MEMO[key] = entry
    return entry


def _run_prefix(
    iverilog: Tool,
    prefix: list[Path],
    include_dirs: Sequence[Path],
    defines: Mapping[str, str],
    timeout: float,
) -> _Entry:
    """The prefix preprocessed before the sentinel: its output and the files it opened, or
    None where the output does not end with exactly the sentinel (or the run fails)."""
    from rtlopt.errors import RtloptError
    from rtlopt.tools import Limits, argv_path, run_tool

    if not Path(prefix[-1]).read_bytes().endswith(b"\n"):
        return None
    with tempfile.TemporaryDirectory(prefix="rtlopt-prefix-") as tmp:
        cwd = Path(tmp)
        sentinel = cwd / "sentinel.v"
        sentinel.write_bytes(_SENTINEL)
        deps = cwd / "deps.txt"
        try:
            argv = preprocess_argv(
                iverilog,
                [*prefix, sentinel],
                "pre.v",
                include_dirs=include_dirs,
                defines=defines,
            )
            argv[1:1] = ["-grelative-include", "-Mall=" + argv_path(deps)]
            run = run_tool(argv, cwd=cwd, log_path=cwd / "pre.log", limits=Limits(timeout))
            if run.returncode != 0 or run.timed_out or any(m.strip() for m in run.messages()):
                return None
            out = (cwd / "pre.v").read_bytes()
            lines = deps.read_text(errors="surrogateescape").splitlines()
        except (OSError, RtloptError):
            return None
    if not out.endswith(_SENTINEL):
        return None
    opened = tuple(
        p
        for p in (cwd / ln if not Path(ln).is_absolute() else Path(ln) for ln in lines if ln)
        if p != sentinel
    )
    digests = tuple(_digest(p) or "" for p in opened)
    return out[: -len(_SENTINEL)], opened, digests
