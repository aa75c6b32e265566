"""Name patterns anchored to the target in any text a tool may read, for the reach rule
(:mod:`._reach_loose`, round 76).

A selection by pattern under the target's module name or an instance path to it reaches
every inner name it can match, whatever the tool and its file's suffix: a Yosys script's
``select -assert-count 1 ctr/w:*nt`` or ``setattr -set keep 1 ctr/*`` (a ``.ys`` file, a
Makefile's ``yosys -p``), a Tcl ``get_cells u_ctr/*cnt*``, a hierarchy path
``tb.dut.*``. The pattern after the anchor and a hierarchy separator (``/ . | : $ _``) is
read as a glob, a Yosys object prefix (``w:`` wires, ``c:`` cells, ``m:`` memories, ``p:``
processes, ``n:`` any name) dropped; a prefix selecting by something else than a name
(``a:`` attribute, ``r:`` parameter, ``t:`` type, ...) or a character no glob syntax holds
may select any object: it reaches them all (fail closed). A pattern after the anchor as a
separate word (``select -module ctr w:*nt``, ``cd ctr``) is judged alike when it holds a
letter, and one with a Yosys object prefix wherever it stands (``select w:*nt`` selects in
every module of the design). Documentation is left out (the caller's ``_kept``).
"""

from __future__ import annotations

import fnmatch
import functools
import re
from collections.abc import Callable
from pathlib import Path

__all__ = ["anchored_pattern"]

#: A whitespace-separated word holding a wildcard or a Yosys object prefix after a ``/``.
_WILD_TOKEN = re.compile(
    r"(?<![^\s{}\"';,()])[^\s{}\"';,()*?]*?(?:[*?]|/[A-Za-z]{1,2}:)[^\s{}\"';,()]*"
)
#: A Yosys object prefix that selects by name.
_NAME_PREFIX = re.compile(r"^(?:[wcmpn]):")
_OTHER_PREFIX = re.compile(r"^[A-Za-z]{1,2}:")
#: What a glob of names holds (anything else: an unknown syntax).
_GLOB = re.compile(r"[A-Za-z0-9_*?\[\]/.:$|\\-]*")
_VERILOG_COMMENT = re.compile(r"//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)")


@functools.lru_cache(maxsize=4096)
def _glob(pattern: str) -> re.Pattern[str]:
    return re.compile(fnmatch.translate(pattern))


def _matches(pattern: str, forms: list[str], strict: bool = True) -> bool:
    """Whether the glob ``pattern`` (a Yosys prefix dropped) may select one of ``forms``;
    ``strict``: a syntax not read selects (fail closed)."""
    pattern = pattern.replace("\\", "")
    if pattern.startswith("%") or not _GLOB.fullmatch(pattern):
        return strict  # a selection operator or a syntax not read
    if _NAME_PREFIX.match(pattern):
        pattern = pattern[2:]
    elif _OTHER_PREFIX.match(pattern):
        return True  # by attribute, parameter, type...: any object
    parts = {pattern, pattern.split("/")[0], pattern.rsplit("/", 1)[0]}
    rxs = [_glob(p) for p in parts if p]
    return any(rx.match(f) or rx.match(f.split("/")[-1]) for rx in rxs for f in forms)


@functools.lru_cache(maxsize=4096)
def _wild_tokens(text: str, verilog: bool) -> tuple[str, tuple[tuple[int, str], ...]]:
    """``text`` (a Verilog text's comments blanked) and its words holding a wildcard, with
    their offsets: read once per text, whatever the target."""
    code = _VERILOG_COMMENT.sub(" ", text) if verilog else text
    if "*" not in code and "?" not in code and ":" not in code:
        return code, ()
    return code, tuple((m.start(), m.group(0)) for m in _WILD_TOKEN.finditer(code))


def anchored_pattern(
    texts: list[tuple[Path, str]],
    anchors: set[str],
    forms: list[str],
    verilog: frozenset[str],
    found: Callable[[Path, str, int, str], str],
) -> str:
    """Why a text selects inner names by a pattern anchored to the target (see the module's
    docstring), or "": ``found(path, text, offset, token)`` words the message. ``forms``:
    the inner names and their netlist forms, bare."""
    a = "|".join(re.escape(x) for x in sorted(anchors, key=len, reverse=True))
    if not a:
        return ""
    joined = re.compile(
        rf"(?:^|[/.|:$\\])(?:{a})(?:\[\d+\]|_\d+_)*(?:__|[/._|:$])(?P<rest>.*)$", re.S
    )
    word = re.compile(rf"(?<![\w$./])(?:{a})(?![\w$])(?!\.\w)")
    for path, text in texts:
        code, tokens = _wild_tokens(text, path.suffix.lower() in verilog)
        if not tokens:
            continue
        # the anchor as a separate word: not in a Verilog text (a product ``cnt*2``)
        plain = path.suffix.lower() in verilog
        named = not plain and word.search(code) is not None
        for at, word_ in tokens:
            token = word_.strip("[]")
            hit = joined.search(token)
            if hit is not None and _matches(hit.group("rest"), forms):
                return found(path, code, at, word_)
            if hit is not None:
                continue
            prefixed = not plain and _OTHER_PREFIX.match(token) is not None
            if prefixed or (named and re.search(r"[A-Za-z0-9]", token)):
                if _matches(token, forms, strict=prefixed):
                    return found(path, code, at, word_)
    return ""
