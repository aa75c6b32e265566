"""A filelist as one compilation unit for macros: sources listed before the target.

Simulators and synthesis tools read the files of a ``-f`` list as one compilation unit, in
order: a ```define`` in a ``.v`` source listed earlier (not only in a header) is visible to
every later file, and a later ```undef`` or redefinition wins from there on. rtlopt reads only
the target's closure, so the macros of every source listed before the target's file reach the
tools as a *macro skeleton*: the file's preprocessor lines (```define`` with continuations,
```undef``, ```undefineall``, conditionals, ```include`` of headers), everything else blanked.
The skeletons, in list order with the listed headers, form the design's prelude, which the
frontend, iverilog, Yosys and the formal check read first for reference and candidate alike;
each tool evaluates the conditionals itself, with the same defines.

Sources listed after the target's file contribute nothing (their macros are not visible to the
target in the real unit). An include guard (```ifndef X`` / ```define X`` opening the file) is
left out of the skeleton, so a file read after its own skeleton is not skipped.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.frontend._files import read_source
from rtlopt.verilog import (
    PASS_THROUGH_DIRECTIVES,
    PREPROCESSOR_DIRECTIVES,
    alternation,
    blank_comments,
    module_spans,
)

__all__ = ["directive_skeleton", "macro_skeleton", "skeleton_file"]

log = logging.getLogger(__name__)

_DIRECTIVE = re.compile(rf"^[ \t]*`({alternation(PREPROCESSOR_DIRECTIVES)})\b")
_GUARD = re.compile(r"^\s*`ifndef\s+(\w+)\s*\n\s*`define\s+\1\b[^\n]*$", re.M)
_INCLUDE_NAME = re.compile(r'`include\s+"([^"]+)"')
_MODULE_SUFFIXES = (".v", ".sv")


def macro_skeleton(text: str) -> str:
    """The preprocessor lines of ``text`` that define or undefine macros or include headers,
    under their conditionals; every other line blank (line numbers kept). Empty when the file
    defines, undefines and includes nothing.

    ```include`` lines of ``.v``/``.sv`` files (module code) are dropped; the include guard
    ``define`` of the file itself is dropped.
    """
    if "`define" not in text and "`undef" not in text and "`include" not in text:
        return ""  # most files: no lexing
    code = blank_comments(text, strings=False)
    if not re.search(r"`(define|undef|include)", code):
        return ""
    guard = _GUARD.search(code)
    guard_line = code.count("\n", 0, guard.end()) if guard is not None else -1
    # a header included inside a module holds the module's items: not read at unit scope
    inside = [
        (code.count("\n", 0, m.start), code.count("\n", 0, m.end)) for m in module_spans(code)
    ]
    out: list[str] = []
    keep = False
    for i, line in enumerate(code.splitlines()):
        m = _DIRECTIVE.match(line)
        keep = keep or m is not None
        if m is not None and i == guard_line:
            keep = False
        if m is not None and m.group(1) == "include":
            inc = _INCLUDE_NAME.search(line)
            if inc is None or inc.group(1).endswith(_MODULE_SUFFIXES):
                keep = False
            elif any(a <= i <= b for a, b in inside):
                keep = False
        out.append(line.rstrip() if keep else "")
        keep = keep and line.rstrip().endswith("\\")  # a `define continued
    # a header it includes defines macros too (red-team round 125: top.v's `include "a.vh"
    # defines the guard b.vh of the target's file tests, and the OP the target reads)
    if not any(re.match(r"\s*`(define|undef|include)", line) for line in out):
        return ""
    return "\n".join(out) + "\n"


def _cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    root = Path(base) / "rtlopt" / "unit"
    try:
        root.mkdir(parents=True, exist_ok=True)
        return root
    except OSError:
        fallback = Path(tempfile.gettempdir()) / f"rtlopt-unit-{os.getuid()}"
        fallback.mkdir(parents=True, exist_ok=True)
        return fallback


def _resolve_includes(body: str, source: Path, include_dirs: Sequence[Path]) -> str:
    """The skeleton's header includes, as the tools must find them from rtlopt's cache folder:
    a header beside ``source`` by its absolute path, one in ``include_dirs`` as written; a
    header found in neither is left out (that earlier file would not compile either, and its
    missing header must not stop a target that does not use it)."""

    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        here = source.parent / name
        if here.is_file():
            return m.group(0).replace(f'"{name}"', f'"{here.resolve().as_posix()}"')
        if any((Path(d) / name).is_file() for d in include_dirs):
            return m.group(0)
        log.debug("compilation unit: %s includes %s, found nowhere: left out", source, name)
        return ""

    return re.sub(r'^[ \t]*`include\s+"([^"]+)"[^\n]*$', one, body, flags=re.M)


def is_skeleton(path: Path) -> bool:
    """Whether ``path`` is a file :func:`skeleton_file` wrote (in rtlopt's cache folder, never
    in a repository): the directives of a repository file that is read itself."""
    try:
        return path.resolve().parent == _cache_root().resolve()
    except OSError:
        return False


def skeleton_file(source: Path, include_dirs: Sequence[Path] = ()) -> Path | None:
    """A file holding :func:`macro_skeleton` of ``source`` (None when it has no macros), its
    header includes resolved against ``source``'s folder and ``include_dirs``.

    Named by content, so the same repository gives the same path (cache keys stay stable),
    in rtlopt's cache folder: nothing is written into the user's repository.
    """
    try:
        text = read_source(source)
    except DesignError:
        return None
    body = macro_skeleton(text)
    if not body:
        return None
    body = _resolve_includes(body, source, include_dirs)
    head = (
        f"// Generated by rtlopt: the macros of {source} (listed before the target in the\n"
        "// filelist, one compilation unit). Do not edit.\n"
    )
    # the first two lines replace two lines of the source: later line numbers stay the same
    lines = body.split("\n")
    full = head + "\n".join(lines[2:]) if not "".join(lines[:2]).strip() else head + body
    digest = hashlib.sha256((str(source) + "\0" + full).encode()).hexdigest()[:20]
    out = _cache_root() / f"{source.stem}-{digest}.vh"
    if not out.is_file():
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        tmp.write_text(full)
        os.replace(tmp, out)
    log.debug("compilation unit: macros of %s in %s", source, out)
    return out


#: A directive token anywhere on its line (``endmodule `define X 1`` defines X as well).
_ANY_DIRECTIVE = re.compile(
    rf"`({alternation(PREPROCESSOR_DIRECTIVES + PASS_THROUGH_DIRECTIVES)})\b"
)


def directive_skeleton(text: str, source: Path, include_dirs: Sequence[Path] = ()) -> str:
    """Every compiler directive line of ``text`` in order (```define`` with continuations,
    conditionals, ```undef``, ```include``, ```timescale``-like state), everything else blank:
    the macro state ``text`` leaves, for a preprocessor to read in front of other text.

    Unlike :func:`macro_skeleton` nothing is dropped (the text is read once, so an include
    guard stays); includes beside ``source`` get their absolute path.
    """
    if "`" not in text:
        return ""
    code = blank_comments(text, strings=False)
    out: list[str] = []
    keep = False
    bare = blank_comments(text).split("\n")  # strings blanked: a "`ifdef" is no directive
    for line, plain in zip(code.split("\n"), bare, strict=True):
        m = None if keep else _ANY_DIRECTIVE.search(plain)
        if m is not None:  # the code before a directive on its line is no directive
            line, keep = " " * m.start() + line[m.start() :], True
        out.append(line.rstrip() if keep else "")
        keep = keep and line.rstrip().endswith("\\")  # a `define continued
    return _resolve_includes("\n".join(out) + "\n", source, include_dirs)
