"""The only shortcut past the proof: a candidate that is the reference byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.harness import blank_comments, reference_modules, tool_pragmas

__all__ = ["identical_source"]


def canon(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


TIMESCALE = re.compile(r"`timescale\s+[0-9]+\s*[munpf]?s\s*/\s*[0-9]+\s*[munpf]?s")


def identical_source(design: Design, candidate: str) -> bool:
    """The candidate is the reference, byte for byte (line endings aside).

    Either the candidate is the target's whole file (every module and directive of it as the
    repository has them), or every reference module the candidate defines (the target always)
    appears in it exactly once with its exact text, and nothing else is left but whitespace,
    comments that are not tool directives, and ``timescale`` lines. Submodules it does not
    define come from the repository unchanged.
    """
    rest = canon(candidate)
    if same_file(rest, design.target.file):
        # a copy of the target's whole file: the tools read the repository's own bytes, in the
        # same elaboration context (prelude, defines, include directories)
        return True
    code = blank_comments(rest)
    for m in reference_modules(design):
        declared = len(re.findall(rf"\bmodule\s+{re.escape(m.name)}(?![\w$])", code))
        if declared == 0 and m.name != design.target.name:
            continue
        body = canon(m.text())
        if declared != 1 or not body or rest.count(body) != 1:
            return False
        at = rest.index(body)
        rest = rest[:at] + "\n" + rest[at + len(body) :]
        code = blank_comments(rest)
    if tool_pragmas(rest):
        return False
    return not TIMESCALE.sub(" ", code).strip()


def same_file(text: str, path: Path) -> bool:
    """``text`` (line endings canonical) is the file's bytes (line endings aside); a file that
    is not UTF-8 never matches, so no replaced byte can hide a difference."""
    try:
        raw = path.read_bytes()
    except OSError:
        return False
    raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    try:
        return bool(text.strip()) and text.encode("utf-8") == raw
    except UnicodeEncodeError:  # a lone surrogate: not the file's text
        return False
