"""Paths into the work tree read in each of ``rtlopt check``'s checkouts.

The gate reads the base and the change as checkouts in a temporary folder. A filelist, a
filelist variable or the configuration may name the repository by an absolute path
(``${REPO}/inc``, ``/home/me/repo/inc``): read as spelled, the base would read the change's
files. :func:`rerooted` gives such a path in the checkout being read, comparing paths as the
kernel reads them (symlinks, bind mounts, ``//``, ``..``), and fails closed where it cannot.
"""

from __future__ import annotations

import os
from pathlib import Path

from rtlopt.errors import ConfigError

__all__ = ["register_checkouts", "rerooted", "unregister_checkouts"]


#: Folders whose sub-folders are checkouts of a repository (``rtlopt check``'s base and
#: change): folder -> the repository's work tree. See :func:`rerooted`.
_CHECKOUTS: dict[Path, Path] = {}


def register_checkouts(folder: Path, repository: Path) -> None:
    """Say that each sub-folder of ``folder`` is a checkout of ``repository`` (until
    :func:`unregister_checkouts`): an absolute path into the repository's work tree that a
    filelist, a filelist variable or the configuration names is read in the checkout."""
    _CHECKOUTS[folder.resolve()] = repository.resolve()


def unregister_checkouts(folder: Path) -> None:
    _CHECKOUTS.pop(folder.resolve(), None)


def rerooted(path: Path, root: Path) -> Path:
    """``path`` read from the checkout ``root``: an absolute path into the work tree of the
    repository ``root`` is a checkout of becomes the same path in ``root`` (the base must not
    read the change's files through ``${REPO}/inc`` or ``/home/me/repo/inc``); any other
    path is itself.

    Paths are compared as the kernel reads them, not as spelled: a symlink to the work tree
    (or into it), a bind mount, ``//``, ``..``. A symlink inside the repository stays in the
    rerooted path, so each checkout follows its own.

    Raises:
        ConfigError: the path reaches the work tree (or another of rtlopt's checkouts) by a
            way that cannot be read in the checkout (fail closed).
    """
    if not path.is_absolute() or not _CHECKOUTS:
        return path
    here = root.resolve()
    for folder, repository in _CHECKOUTS.items():
        if folder not in here.parents:
            continue
        checkout = folder / here.relative_to(folder).parts[0]
        moved: Path | None = None
        if not _below(Path(os.path.normpath(path)), checkout):  # spelled outside it
            st = os.stat(repository)
            moved = _reroot(str(path), (st.st_dev, st.st_ino), checkout)
        real = Path(os.path.realpath(moved if moved is not None else path))
        if _below(real, checkout.resolve()):
            return moved if moved is not None else path
        if _below(real, repository):
            # never rerooted, or the checkout's own symlink points back into the work tree
            why = f"it reaches the work tree {repository}"
        elif _below(real, folder):
            why = "it reaches another checkout of rtlopt check"
        else:
            return moved if moved is not None else path
        raise ConfigError(
            f"path {path} cannot be read in each checkout: {why} by a way the gate cannot follow",
            hint="name it relative to the repository (or through a filelist variable)",
        )
    return path


def _below(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _reroot(
    spelled: str, repository: tuple[int, int], checkout: Path, hops: int = 40
) -> Path | None:
    """``spelled`` (absolute) in ``checkout`` where the kernel reaches ``repository`` (its
    device and inode) on the way (the first folder on it that is the repository's work tree,
    however spelled); None when it never does. Symlinks outside the repository are followed
    one by one, those inside it are kept."""
    parts = [p for p in spelled.split("/") if p and p != "."]
    cur = "/"
    for i, part in enumerate(parts):
        cur = os.path.join(cur, part)
        if not os.path.lexists(cur):
            return None
        rest = parts[i + 1 :]
        st = os.stat(cur) if os.path.isdir(cur) else None
        if st is not None and (st.st_dev, st.st_ino) == repository:
            if not os.path.normpath("/".join(["."] + rest)).startswith(".."):
                return checkout.joinpath(*rest)  # (a `..` out of the repository: go on)
        elif os.path.islink(cur):
            if hops <= 0:
                return None
            target = os.path.join(os.path.dirname(cur), os.readlink(cur), *rest)
            return _reroot(target, repository, checkout, hops - 1)
    return None
