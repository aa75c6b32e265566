"""Edit files of the acceptance cases (tests/acceptance/cases): a rewrite stored as its difference to the upstream file.

The benchmark's rewrites are modified versions of third-party modules. This repository ships
only what was written for it: each ``equiv.edit`` / ``broken.edit`` holds the SHA-256 of the
upstream file it applies to (the copy under ``../shared/bench/repos``) and hunks that replace
line ranges of that file by new lines. Deleted and unchanged upstream lines are never stored:
a hunk names them by position only. Applying the edit to the upstream file gives the candidate;
a different upstream file (another commit) is refused, never patched approximately.

Format (line oriented)::

    # comments
    file: rtl/serv_alu.v
    base-sha256: <hex digest of the upstream file's bytes>
    @@ -START,COUNT          replace COUNT upstream lines from 1-based line START ...
    +new line                ... by these lines (none: a deletion; COUNT 0: an insertion)

Usage: ``python tests/acceptance/edits.py make BASE NEW EDIT`` writes an edit file from a
hand-edited full copy (keep that copy outside the repository).
"""

from __future__ import annotations

import difflib
import hashlib
import re
import sys
from pathlib import Path

__all__ = ["EditError", "apply_edit", "make_edit"]

_HUNK = re.compile(r"^@@ -(\d+),(\d+)\s*$")


class EditError(ValueError):
    """An edit file that is malformed or does not belong to the given upstream file."""


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def make_edit(base: bytes, new: str, rel: str, comment: str = "") -> str:
    """The edit turning the upstream file ``base`` into ``new``."""
    a = base.decode(errors="replace").splitlines()
    b = new.splitlines()
    out = [f"# {line}".rstrip() for line in comment.splitlines()]
    out += [f"file: {rel}", f"base-sha256: {_digest(base)}"]
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        out.append(f"@@ -{i1 + 1},{i2 - i1}")
        out += ["+" + line for line in b[j1:j2]]
    return "\n".join(out) + "\n"


def apply_edit(edit: str, base: bytes, where: str = "edit") -> str:
    """The candidate text: ``edit`` applied to the upstream file ``base``.

    Raises:
        EditError: a malformed edit, or ``base`` is not the file the edit was made from.
    """
    lines = edit.splitlines()
    want = next(
        (ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("base-sha256:")), None
    )
    if want is None:
        raise EditError(f"{where}: no base-sha256 line")
    if want != _digest(base):
        raise EditError(
            f"{where}: the upstream file differs from the one the edit was made "
            "from (another commit?); use the commit named in tests/acceptance/cases/"
            "README.md"
        )
    a = base.decode(errors="replace").splitlines()
    out: list[str] = []
    pos = 0  # next upstream line (0-based) not yet copied
    current: list[str] | None = None
    for n, line in enumerate(lines, 1):
        m = _HUNK.match(line)
        if m:
            start, count = int(m.group(1)) - 1, int(m.group(2))
            if start < pos or start + count > len(a):
                raise EditError(f"{where}:{n}: hunk out of order or past the end of the file")
            out += a[pos:start]
            pos = start + count
            current = out
        elif line.startswith("+"):
            if current is None:
                raise EditError(f"{where}:{n}: added line before the first hunk")
            out.append(line[1:])
        elif line.startswith(("#", "file:", "base-sha256:")) or not line.strip():
            continue
        else:
            raise EditError(f"{where}:{n}: unexpected line")
    out += a[pos:]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[0] != "make":
        print(__doc__.split("Usage: ")[1].strip(), file=sys.stderr)
        return 2
    base, new, edit = (Path(p) for p in argv[1:])
    text = make_edit(base.read_bytes(), new.read_text(), base.name)
    assert apply_edit(text, base.read_bytes()) == new.read_text().rstrip("\n") + "\n"
    edit.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
