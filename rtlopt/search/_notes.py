"""The IGR notes file (``search.igr_notes``): read by the strategy (idea lines that fill up
the model's ideas) and by the run loop (the whole text, shown in the idea prompt)."""

from __future__ import annotations

import re
from pathlib import Path

from rtlopt.errors import UsageError

__all__ = ["read_igr_notes"]


def read_igr_notes(notes: str | None) -> tuple[str, list[str]]:
    """The notes file's text and its idea lines (non-empty, not comments, list markers
    removed); ``("", [])`` without a file.

    Raises:
        UsageError: the file cannot be read.
    """
    if not notes:
        return "", []
    path = Path(notes).expanduser()
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise UsageError(
            f"cannot read the IGR notes file: {exc.strerror}",
            path=path,
            hint="set search.igr_notes to a readable text file",
        ) from exc
    lines = [re.sub(r"^\s*(?:[-*]|\d+[.)])\s*", "", ln).strip() for ln in text.splitlines()]
    return text, [ln for ln in lines if ln and not ln.startswith("#")]
