"""The bytes of every file the repository rules may read, as one hash for the cache's fingerprint.

A verdict depends on more than the files the tools read: the repository rules
(:mod:`._reach` through :mod:`._repo_texts`, :mod:`rtlopt.harness._captured`,
:mod:`rtlopt.harness._verification_only`, :mod:`._pragma_macros`) read every text of the
repository whatever its name (a Makefile may compile ``probe.txt``, which reaches into the
target by a hierarchical name) and every file of the include folders. A result stored for
one state of the repository is served only for the same bytes of all of them: the hash covers
every file :func:`rtlopt.inputs.repository_files` lists (paths relative to the root, so the
same content checked out elsewhere finds its results), the files under the include folders, and
the sources and prelude files outside the root.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from rtlopt.evaluate._sources import _where, folder_tree
from rtlopt.frontend.model import Design
from rtlopt.inputs import MARGIN_NS, NotRegularError, file_sha256, repository_files

__all__ = ["folder_files", "include_folders", "repository_digest", "rule_files"]

#: SHA-256 of a file by its identity (path, inode, size, modification and change times): a
#: write changes the change time, so a file is hashed again only after one (once per process
#: otherwise: ``rtlopt check`` makes an evaluator per changed module). A file changed just
#: now is not kept: a second write within the same tick of the file system's clock would
#: leave its identity as it was.
_DIGESTS: dict[tuple[str, int, int, int, int], str] = {}


def rule_files(design: Design) -> list[Path]:
    """The files the repository rules may read: every file of the repository
    (:func:`rtlopt.inputs.repository_files`) and :func:`folder_files`.

    Raises:
        OSError: the repository could not be listed.
    """
    return sorted(dict.fromkeys([*repository_files(Path(design.root)), *folder_files(design)]))


def folder_files(design: Design) -> list[Path]:
    """Every file under an include folder (its subfolders too, linked ones followed:
    ```include "sub/k.vh"`` looks each folder's ``sub/`` up in turn, so a new file there
    shadows another folder's), and the sources and prelude files (outside the repository
    too)."""
    files = [f for folder in design.include_dirs for f in folder_tree(Path(folder))[0]]
    return files + [Path(f) for f in [*design.sources.files, *design.sources.prelude]]


def include_folders(design: Design) -> list[Path]:
    """Every folder under an include folder (linked ones followed: the repository's own
    observation does not enter them), the include folders too (a file added to an empty one
    may shadow another folder's)."""
    return [d for folder in design.include_dirs for d in folder_tree(Path(folder))[1]]


def repository_digest(design: Design) -> str:
    """Hash of the path (relative to the repository's root when inside it) and bytes of each
    of :func:`rule_files`."""
    h = hashlib.sha256()
    try:
        files = rule_files(design)
    except OSError as exc:
        return f"unreadable {exc.errno}"
    for f in files:
        row = f"{_where(f, design.root)}\0{_digest(f)}\n"
        h.update(row.encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _digest(path: Path) -> str:
    """The SHA-256 of a regular file's bytes (opened without blocking: a FIFO is never read),
    else what it is."""
    try:
        st = os.stat(path)
    except OSError as exc:
        return f"absent {exc.errno}"
    key = (str(path), st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    hit = _DIGESTS.get(key)
    if hit is not None:
        return hit
    if not os.path.isfile(path):
        return f"mode {st.st_mode:o}"
    try:
        digest = file_sha256(path)
    except NotRegularError:
        return f"mode {st.st_mode:o}"
    except OSError as exc:
        return f"unreadable {exc.errno}"
    if st.st_ctime_ns < time.time_ns() - MARGIN_NS:
        if len(_DIGESTS) > 200_000:
            _DIGESTS.clear()
        _DIGESTS[key] = digest
    return digest
