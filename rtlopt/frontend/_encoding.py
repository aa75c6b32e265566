"""Sources whose code is not UTF-8: rtlopt would judge another text than the tools read.

rtlopt reads every source as UTF-8 text; a byte that is not UTF-8 becomes U+FFFD (three
bytes, ``EF BF BD``) in every text it writes for the tools, while the repository's own builds
compile the byte itself. Inside a comment that changes nothing; inside a string literal or
anywhere else in the code it changes what the design computes (``"\\x80"`` read as ``8'hBD``),
so a wrong rewrite could be proven against the misread text. Such a file is refused with its
line and the fix; a comment in Latin-1 (a name, a copyright sign) stays allowed. Likewise a
carriage return that no line feed follows: rtlopt reads it as a line end (universal
newlines), the tools do not (a ``//`` comment or a ```define`` runs on to the line feed), so
it is refused anywhere in the file; so is a NUL byte (Yosys stops reading a file there).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

__all__ = [
    "ENCODING_HINT",
    "candidate_text",
    "check_sources",
    "undecodable_line",
    "undecodable_problem",
]

ENCODING_HINT = (
    "write the byte as an escape in the string (\\200), remove NUL bytes, or save the file as"
    " UTF-8 with LF or CRLF line ends"
)
_LONE_CR = re.compile(rb"\r(?!\n)")


def undecodable_line(data: bytes) -> int | None:
    """The line of the first byte of ``data`` that is not UTF-8 outside comments, or None."""
    from rtlopt.verilog import blank_comments

    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8", "surrogateescape")
    code = blank_comments(text, strings=False)
    for i, ch in enumerate(code):
        if "\udc80" <= ch <= "\udcff":
            return text.count("\n", 0, i) + 1
    return None


def undecodable_problem(path: Path, data: bytes | None = None) -> str | None:
    """Why ``path`` (its bytes: ``data``, else read) cannot be judged as text, or None."""
    if data is None:
        try:
            data = path.read_bytes()
        except OSError:
            return None
    nul = data.find(b"\0")
    if nul >= 0:
        where = data.count(b"\n", 0, nul) + 1
        return (
            f"line {where} holds a NUL byte: the tools end a text, a comment or a line there in "
            "different ways (Yosys stops reading), so rtlopt cannot tell what they compile"
        )
    cr = _LONE_CR.search(data)
    if cr is not None:
        where = data.count(b"\n", 0, cr.start()) + 1
        return (
            f"line {where} holds a carriage return that no line feed follows: rtlopt would end "
            "the line there, the tools do not (a comment or a `define runs on to the line feed)"
        )
    at = undecodable_line(data)
    if at is None:
        return None
    return (
        f"line {at} holds a byte that is not UTF-8 in its code (a string or a name): rtlopt "
        "reads sources as UTF-8 text, so it would judge another text than the tools compile"
    )


def candidate_text(path: Path) -> str:
    """A candidate file's text (universal newlines, as ``Path.read_text``).

    Raises:
        DesignError: its code holds a byte that is not UTF-8.
    """
    from rtlopt.errors import DesignError

    data = path.read_bytes()
    why = undecodable_problem(path, data)
    if why is not None:
        raise DesignError(why, path=path, hint=ENCODING_HINT)
    text = data.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def check_sources(paths: Iterable[Path]) -> None:
    """Refuse the first of ``paths`` whose code holds a byte that is not UTF-8.

    Raises:
        DesignError: naming the file, the line and the fix.
    """
    from rtlopt.errors import DesignError

    for path in sorted(set(paths)):
        why = undecodable_problem(path)
        if why is not None:
            raise DesignError(why, path=path, hint=ENCODING_HINT)
