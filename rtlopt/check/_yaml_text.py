"""What a YAML build text (a CI workflow, a pre-commit configuration) runs, for the gate.

A YAML comment runs nothing: a line whose first character past its indentation is ``#`` is
read as blank, except where it is content, inside a block scalar (``run: |``, where it is a
line of the script: ``cat > h.vh <<EOF`` may write it) or inside a quoted scalar that goes on
over several lines. What cannot be told apart is kept (a quote the line leaves open keeps
the following comments as content).

A workflow's ``env:`` mapping (at the workflow, job or step) sets variables: its keys are
assigned as a shell's ``NAME=value`` would be.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

__all__ = ["is_yaml", "yaml_code", "yaml_env"]

#: A line opening a block scalar: ``key: |``, ``- |``, ``- run: >-``, a comment after it.
_BLOCK = re.compile(r"^(\s*)(?:-\s+)*(?:[^\s#'\"][^#'\"]*?:\s+)?[|>][-+0-9]*\s*(?:#.*)?$")
#: An ``env:`` key opening a mapping (its value on the lines below).
_ENV = re.compile(r"^(\s*)(?:-\s+)?env\s*:\s*(?:#.*)?$")
#: A mapping entry: its key and indentation.
_KEY = re.compile(r"^(\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:(?:\s|$)")


def is_yaml(rel: str) -> bool:
    """A YAML text by its suffix."""
    return PurePosixPath(rel).suffix.lower() in (".yml", ".yaml")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _open_quote(line: str, quote: str) -> str:
    """The quote ``line`` leaves open ("" none), reading it from inside ``quote``: a ``#``
    after a blank outside quotes ends the line (a comment)."""
    prev = " "
    i = 0
    while i < len(line):
        c = line[i]
        if quote == '"':
            if c == "\\":
                i += 1
            elif c == '"':
                quote = ""
        elif quote == "'":
            if c == "'" and line[i + 1 : i + 2] == "'":
                i += 1  # '' is a quote inside
            elif c == "'":
                quote = ""
        elif c == "#" and prev in " \t":
            break
        elif c in "\"'" and prev in " \t:-[{,":
            quote = c
        prev = c
        i += 1
    return quote


def yaml_code(text: str) -> str:
    """``text`` with its comment lines blank (see the module's doc), lines kept in place."""
    out: list[str] = []
    block: int | None = None  # the indentation a block scalar's lines are deeper than
    quote = ""
    for line in text.split("\n"):
        if block is not None:
            if not line.strip() or _indent(line) > block:
                out.append(line)
                continue
            block = None
        if quote:
            quote = _open_quote(line, quote)
            out.append(line)
            continue
        if line.lstrip().startswith("#"):
            out.append("")
            continue
        m = _BLOCK.match(line)
        if m:
            block = len(m.group(1))
        else:
            quote = _open_quote(line, "")
        out.append(line)
    return "\n".join(out)


def yaml_env(text: str) -> set[str]:
    """The names the ``env:`` mappings of ``text`` set."""
    found: set[str] = set()
    env: int | None = None  # the ``env:`` key's indentation while in its mapping
    keys: int | None = None  # the indentation of the mapping's keys (its first one's)
    for line in yaml_code(text).split("\n"):
        if not line.strip():
            continue
        if env is not None and _indent(line) > env:
            m = _KEY.match(line)
            keys = _indent(line) if keys is None else keys
            if m and _indent(line) == keys:
                found.add(m.group(2))
            continue  # deeper: a value going on over lines
        env = keys = None
        m = _ENV.match(line)
        if m:
            env = len(m.group(1)) + (2 if line.lstrip().startswith("-") else 0)
    return found
