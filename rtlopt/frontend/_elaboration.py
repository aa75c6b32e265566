"""The repository's elaboration as the x analysis reads it (:mod:`._open_inputs`): slang's
compilation of the build with the calls of system tasks and functions it does not know
rewritten to standard ones (:func:`compiled`), and the errors it reports per file
(:func:`raw_errors`, :func:`errors_by_file`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rtlopt.frontend._one_build import build_files
from rtlopt.frontend.model import Design

__all__ = ["compiled", "errors_by_file", "raw_errors"]

#: Icarus Verilog's own system functions slang does not know, and the standard one each
#: stands for (the same arguments and result).
_SYSTEM_ALIASES = {b"$fopenr": b"$fopen", b"$fopenw": b"$fopen", b"$fopena": b"$fopen"}
_SYSTEM_NAME = re.compile(rb"\$[A-Za-z_][\w$]*")


def compiled(design: Design, tops: tuple[str, ...], sets: tuple[str, ...]) -> Any:
    """The repository's elaboration; where slang does not know a system task or function
    (a simulator's own, ``$fopenr``, ``$fsdbDumpvars``) it drops the whole procedural block
    holding the call, and every write there with it (held-out trial 51: a testbench's reset
    and clock read as never written; an x written beside ``$foo;`` was not seen), so each
    such name is read as a standard one of its kind: a simulator's file function as
    ``$fopen``, any other as ``$display`` (a task writes nothing it is not handed; what a
    call with arguments may write is :mod:`rtlopt.evaluate._tb_x`'s: every input). A name
    rtlopt cannot rewrite there (in a header) stays, as an error (:func:`errors_by_file`)."""
    from rtlopt.frontend._params import _compile

    files = build_files(design)
    comp = _compile(files, {}, design, tops, sets)
    sm = comp.sourceManager
    at: dict[Path, list[int]] = {}
    for d in comp.getAllDiagnostics():
        if str(d.code).endswith("(UnknownSystemName)") and d.location:
            file = (Path.cwd() / str(sm.getFileName(d.location))).resolve()
            at.setdefault(file, []).append(int(d.location.offset))
    texts: dict[Path, str] = {}
    for f in files:
        offsets = at.get(f.resolve())
        if not offsets:
            continue
        data = f.read_bytes()
        for off in sorted(set(offsets), reverse=True):
            m = _SYSTEM_NAME.match(data, off)
            if not m:
                continue
            if m.group() in _SYSTEM_ALIASES:
                data = data[:off] + _SYSTEM_ALIASES[m.group()] + data[m.end() :]
            else:  # the call without its arguments: ``$display``, lines kept
                seg = data[off : _call_end(data, m.end())]
                new = b"$display" + bytes(c if c == 10 else 32 for c in seg[len(b"$display") :])
                data = data[:off] + new + data[off + len(seg) :]
        texts[f] = data.decode(errors="replace")
    return _compile(files, texts, design, tops, sets) if texts else comp


def _call_end(data: bytes, at: int) -> int:
    """Where a system call's argument list that may start at ``at`` ends (``at`` where it
    has none): past its closing parenthesis, strings skipped."""
    i = at
    while i < len(data) and data[i] in b" \t\r\n":
        i += 1
    if i >= len(data) or data[i] != ord("("):
        return at
    depth, quoted = 0, False
    while i < len(data):
        c = data[i]
        if quoted:
            if c == ord("\\"):
                i += 1
            elif c == ord('"'):
                quoted = False
        elif c == ord('"'):
            quoted = True
        elif c == ord("("):
            depth += 1
        elif c == ord(")"):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return at


#: The first error slang reports in each file of a design's elaboration (:func:`file_errors`).
#: Errors that drop nothing the analysis reads: a file without the ``timescale`` another has.
_BENIGN = frozenset({"MissingTimeScale"})


def raw_errors(comp: Any) -> list[tuple[Path, str, str]]:
    """``(file, "name, line N: Code", word)`` of each error slang reports (syntax or
    elaboration: an unknown module, a hierarchical name that resolves to nothing; an unknown
    system name, whose block slang drops), ``word`` the name at its place."""
    sm = comp.sourceManager
    out: list[tuple[Path, str, str]] = []
    for d in comp.getAllDiagnostics():
        code = str(d.code).rsplit("(", 1)[-1].rstrip(")")
        if not (d.isError() or code == "UnknownSystemName") or not d.location or code in _BENIGN:
            continue
        at = (Path.cwd() / str(sm.getFileName(d.location))).resolve()
        try:
            text = str(sm.getSourceText(d.location.buffer))
            word = re.match(r"[\w$]*", text[int(d.location.offset) :]).group()  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - no text known
            word = ""
        out.append((at, f"{at.name}, line {sm.getLineNumber(d.location)}: {code}", word))
    return out


def errors_by_file(
    raw: list[tuple[Path, str, str]], known: frozenset[str] | None
) -> dict[Path, str]:
    """The first error of each file of ``raw``; an unknown module that no text of the
    repository defines (``known``: the names some text defines; None: every one counts) is
    a vendor cell the analysis reads as one, no error."""
    out: dict[Path, str] = {}
    for at, what, word in raw:
        cell = what.endswith(": UnknownModule") and known is not None and word not in known
        if not cell and at not in out:
            out[at] = what
    return out
