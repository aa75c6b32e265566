"""The texts inside a compressed file or an archive of the repository.

A build may unpack what it reads (``zcat golden.vcd.gz``, ``zcat scenario.v.gz >
build/scenario.v``, ``tar xzf stim.tgz``): a compressed file is judged by its content. Every
format Python reads is unpacked (gzip, bzip2, xz/lzma, zip, tar, nested up to three levels):
each text inside is named as the build names it unpacked, the compressed file's name without
its suffix (``golden.vcd.gz`` -> ``golden.vcd``) or ``<archive>/<member>``. A compressed file
or an archive rtlopt cannot read (zstd, 7z, lz4, rar, Unix compress, a damaged one) or whose
content is over the cap cannot be judged: :func:`unpacked` says why, and the caller fails
closed (the rules treat it as a text that may feed x, name inner names and set parameters;
the gate as a change not judged)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CAP", "Unpacked", "is_packed", "unpacked"]

#: The most bytes unpacked from one file of the repository (all its members together).
CAP = 16_000_000

_STREAMS = (
    (b"\x1f\x8b", lambda f: gzip.GzipFile(fileobj=f), (".gz", ".gzip", ".tgz", ".z")),
    (b"BZh", bz2.BZ2File, (".bz2", ".bz", ".tbz", ".tbz2")),
    (b"\xfd7zXZ\x00", lzma.LZMAFile, (".xz", ".txz", ".lzma")),
)
#: Formats Python does not read: their content cannot be judged.
_UNREAD = (
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"\x04\x22\x4d\x18", "lz4"),
    (b"Rar!\x1a\x07", "rar"),
    (b"\x1f\x9d", "Unix compress"),
    (b"\x1f\xa0", "LZH compress"),
    (b"\x89LZO", "lzop"),
)
_ZIP = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")


@dataclass
class Unpacked:
    """The ``(name, bytes)`` of the files inside, and why some content cannot be judged
    ("" where all of it can)."""

    members: list[tuple[Path, bytes]] = field(default_factory=list)
    why: str = ""


def _tar(head: bytes) -> bool:
    return len(head) > 262 and head[257:262] == b"ustar"


def is_packed(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) starts a compressed file or an archive."""
    return (
        head.startswith(tuple(m for m, _, _ in _STREAMS))
        or head.startswith(tuple(m for m, _ in _UNREAD))
        or head.startswith(_ZIP)
        or _tar(head)
    )


def unpacked(path: Path, data: bytes, cap: int = CAP, depth: int = 0) -> Unpacked | None:
    """The content of ``data`` (the bytes of ``path``) where it is a compressed file or an
    archive (see the module's doc), else None."""
    for magic, kind in _UNREAD:
        if data.startswith(magic):
            return Unpacked([], f"a {kind} file, which rtlopt cannot unpack")
    try:
        for magic, opener, suffixes in _STREAMS:
            if data.startswith(magic):
                with opener(io.BytesIO(data)) as fh:
                    inner = fh.read(cap + 1)
                if len(inner) > cap:
                    return Unpacked([], f"it unpacks to more than {cap // 1_000_000} MB")
                name = path.with_suffix("") if path.suffix.lower() in suffixes else path
                if path.suffix.lower() in (".tgz", ".tbz", ".tbz2", ".txz"):
                    name = path.with_suffix(".tar")
                return _nested(name, inner, cap, depth)
        if data.startswith(_ZIP):
            return _zip(path, data, cap, depth)
        if _tar(data):
            return _tarred(path, data, cap, depth)
    except (
        OSError,
        EOFError,
        ValueError,
        zlib.error,
        lzma.LZMAError,
        zipfile.BadZipFile,
        tarfile.TarError,
    ):
        return Unpacked([], "it cannot be unpacked (damaged or of an unknown variant)")
    return None


def _nested(name: Path, data: bytes, cap: int, depth: int) -> Unpacked:
    """``data`` as one member, or the members it holds where it is packed again."""
    if depth < 2:
        inner = unpacked(name, data, cap, depth + 1)
        if inner is not None:
            return inner
    elif is_packed(data[:512]):
        return Unpacked([], "it is packed more than three levels deep")
    return Unpacked([(name, data)])


def _zip(path: Path, data: bytes, cap: int, depth: int) -> Unpacked:
    out = Unpacked()
    left = cap
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            if info.file_size > left:
                return Unpacked([], f"it unpacks to more than {cap // 1_000_000} MB")
            left -= info.file_size
            _add(out, _nested(path / info.filename, z.read(info), cap, depth))
    return out


def _tarred(path: Path, data: bytes, cap: int, depth: int) -> Unpacked:
    out = Unpacked()
    left = cap
    base = path.with_suffix("") if path.suffix.lower() == ".tar" else path
    with tarfile.open(fileobj=io.BytesIO(data)) as t:
        for info in t.getmembers():
            if not info.isfile():
                continue
            if info.size > left:
                return Unpacked([], f"it unpacks to more than {cap // 1_000_000} MB")
            left -= info.size
            fh = t.extractfile(info)
            if fh is not None:
                _add(out, _nested(base / info.name, fh.read(), cap, depth))
    return out


def _add(out: Unpacked, more: Unpacked) -> None:
    out.members += more.members
    out.why = out.why or more.why
