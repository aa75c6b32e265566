"""Reading a repository's files safely: regular files only, bounded, never blocking.

A repository is input rtlopt does not control. A committed ``zero.v -> /dev/zero`` would be
read without end, a FIFO named ``pipe.v`` blocks the first ``open`` until a writer appears
(and a process blocked in ``open`` inside a C extension no longer reacts to SIGTERM), and a
symlink may point anywhere on the machine. So every repository file rtlopt reads itself goes
through :func:`source_problem` (``lstat``: a regular file, or a symlink to a regular file inside
the repository) and :func:`read_source` (``O_NONBLOCK`` open, ``fstat`` of the opened file,
at most ``limit`` bytes). Files that fail are skipped by the scan with one warning each, and
refused with file and fix where the user named them (a filelist entry, the target).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path

from rtlopt.errors import DesignError

__all__ = ["DEFAULT_LIMIT", "read_source", "source_problem", "unsafe_include"]

#: Default size limit of one source file (the ``project.max_file_bytes`` setting).
DEFAULT_LIMIT = 16 * 1024 * 1024

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def source_problem(path: Path, root: Path | None, limit: int = DEFAULT_LIMIT) -> str | None:
    """Why ``path`` is not a source rtlopt reads, or None when it is one.

    A source is a regular file of at most ``limit`` bytes, or a symlink whose final target is
    one and lies inside ``root`` (any symlink target is fine when ``root`` is None). Nothing
    is opened, so a FIFO or device is never touched.
    """
    try:
        st = os.lstat(path)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if stat.S_ISLNK(st.st_mode):
        try:
            real = Path(path).resolve(strict=True)
            st = os.stat(real)
        except (OSError, RuntimeError):
            return "is a broken or looping symlink"
        if root is not None and not _inside(real, Path(root).resolve()):
            return f"is a symlink to {real}, outside the repository"
        if not stat.S_ISREG(st.st_mode):
            return f"is a symlink to {real}, {_kind(st.st_mode)}"
    elif not stat.S_ISREG(st.st_mode):
        return f"is {_kind(st.st_mode)}"
    if st.st_size > limit:
        return f"is larger than the size limit ({st.st_size} > {limit} bytes)"
    return None


def read_source(path: Path, root: Path | None = None, limit: int = DEFAULT_LIMIT) -> str:
    """The text of one repository file (invalid UTF-8 replaced).

    The file is checked with :func:`source_problem`, opened without blocking and checked again
    on the open descriptor (a file swapped for a FIFO between the two is still refused); at
    most ``limit`` bytes are read.

    Raises:
        DesignError: the file is not a regular file inside the repository, or too large.
    """
    why = source_problem(path, root, limit)
    if why is not None:
        raise DesignError(f"not read: the file {why}", path=path, hint=_HINT)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno in (errno.ENXIO, errno.EAGAIN):
            raise DesignError("not read: the file is a named pipe", path=path, hint=_HINT) from None
        raise DesignError(f"cannot read: {exc.strerror}", path=path, hint=_HINT) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise DesignError(f"not read: the file is {_kind(st.st_mode)}", path=path, hint=_HINT)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise DesignError(
            f"not read: the file is larger than the size limit ({limit} bytes)",
            path=path,
            hint=_HINT,
        )
    # universal newlines, as Path.read_text: module offsets agree with every other reader
    text = data.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


_HINT = "replace it with a regular file, or exclude it with project.exclude"


_INCLUDE = re.compile(r'^[ \t]*`include[ \t]+"([^"\n]+)"', re.M)


def included_names(text: str) -> list[str]:
    """The file names of ``text``'s ```include "name"`` lines, in order."""
    return _INCLUDE.findall(text)


def include_target(name: str, path: Path, include_dirs: Sequence[Path]) -> Path | None:
    """The file ```include "name"`` in ``path`` reads (the including file's folder, then the
    include folders in order: the first that holds it), resolved; None if none does."""
    for d in (Path(path).parent, *include_dirs):
        cand = Path(d) / name
        if cand.is_file():
            return cand.resolve()
    return None


def unsafe_include(
    text: str, path: Path, include_dirs: Sequence[Path], limit: int = DEFAULT_LIMIT
) -> DesignError | None:
    """The first ```include`` of ``text`` that would open something other than a regular file
    (a FIFO, a device, a file over the size limit), as an error naming the file and line.

    The name is looked up as the tools do: the including file's folder, then the include
    folders in order; the first entry that exists is the one a tool would open. Run before an
    in-process parser sees the file: a blocked ``open`` there cannot be interrupted.
    """
    for m in _INCLUDE.finditer(text):
        name = m.group(1)
        for d in (Path(path).parent, *include_dirs):
            cand = Path(d) / name
            if not os.path.lexists(cand):
                continue
            why = source_problem(cand, None, limit)
            if why is not None:
                line = text.count("\n", 0, m.start()) + 1
                return DesignError(
                    f'`include "{name}" would read {cand}, which {why}',
                    path=path,
                    line=line,
                    hint="include a regular file",
                )
            break
    return None
