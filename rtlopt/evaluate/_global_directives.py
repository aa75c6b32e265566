"""Directives whose effect reaches the whole compilation or simulation, not only the text
after them, which a candidate's own proof cannot see: the global time precision (iverilog's
is the finest precision of any module: a ```timescale 1ns/1fs`` around one module changes
what ``%t`` prints and the dumps record for every module, even where the state after the
module is restored), the cell marking (```celldefine``), the pull of unconnected ports, a
```resetall``, and the legacy and SystemVerilog directives (```default_decay_time``,
```pragma``, ```begin_keywords`` ...).

The rule (:func:`global_directive_problem`): every such directive the candidate writes
must be one the repository's file (or the state before it) has, word for word, and each
module the candidate defines must be read in the time scale, cell marking and pull that the
repository's module is read in. Anything else is unchecked."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rtlopt.harness._vocabulary import _DIRECTIVES as KNOWN_DIRECTIVES
from rtlopt.verilog import (
    PASS_THROUGH_DIRECTIVES,
    PASS_THROUGH_TOKEN,
    PREPROCESSOR_DIRECTIVES,
    blank_comments,
    line_of,
    module_spans,
)

__all__ = ["global_directive_problem"]

#: Directive words that are no global state: the preprocessor's own (macros, conditionals,
#: includes: judged by the screen and the unit's preprocessing), the implicit net type (its
#: effect is the text after it: ``_placement.state_left``, and the candidate's own proof
#: reads its own) and the place markers.
_LOCAL = frozenset({*PREPROCESSOR_DIRECTIVES, "default_nettype", "__FILE__", "__LINE__"})

#: A backtick word (read from the text with comments blanked, strings kept: a
#: ```begin_keywords``'s version is part of it): a directive of the screen's vocabulary (the
#: standard and the legacy ones), else a macro's use (outside modules judged by
#: ``_placement.state_left``; the screen admits the repository's only).
_WORD = re.compile(r"`([A-Za-z_]\w*)")

#: The state kinds a module is read in that its proof cannot see (the time unit/precision
#: of its delays, its cell marking, the pull of its unconnected ports).
_MODULE_STATE = ("timescale", "celldefine", "unconnected_drive")

#: The defaults (``resetall``'s), white space removed.
_DEFAULTS = frozenset({"`endcelldefine", "`nounconnected_drive"})


def _tokens(code: str) -> list[tuple[int, str]]:
    """The global-effect directives of ``code`` (comments blanked): offset and
    text with white space removed (a pass-through one with its arguments, another with the
    rest of its line)."""
    passed = {m.start(): m for m in PASS_THROUGH_TOKEN.finditer(code)}
    out: list[tuple[int, str]] = []
    for m in _WORD.finditer(code):
        word = m.group(1)
        if word in _LOCAL or word not in KNOWN_DIRECTIVES:
            continue
        p = passed.get(m.start())
        if p is not None:
            out.append((m.start(), "".join(p.group(0).split())))
            continue
        eol = code.find("\n", m.start())
        out.append((m.start(), "".join(code[m.start() : eol if eol >= 0 else None].split())))
    return out


#: A SystemVerilog time unit / precision declaration (a module's own ``timescale``).
_TIME_DECL = re.compile(r"(?<![\w$`\\.])(?:timeunit|timeprecision)\b[^;]*;")


def _time_declarations(code: str) -> list[str]:
    """The ``timeunit`` / ``timeprecision`` declarations of ``code``, white space removed."""
    return ["".join(m.group(0).split()) for m in _TIME_DECL.finditer(code)]


def _shown(code: str, at: int) -> str:
    """The directive at ``at`` as written (its line from there, white space collapsed)."""
    eol = code.find("\n", at)
    return " ".join(code[at : eol if eol >= 0 else None].split())[:60]


def _state_at(directives: Sequence[str]) -> dict[str, str]:
    """The module state (:data:`_MODULE_STATE`) the ``directives`` (white space removed)
    leave, defaults dropped."""
    state: dict[str, str] = {}
    for d in directives:
        word = next((w for w in PASS_THROUGH_DIRECTIVES if d[1:].startswith(w)), "")
        if not word:
            continue
        if word == "resetall":
            state.clear()
            continue
        kind = {"endcelldefine": "celldefine", "nounconnected_drive": "unconnected_drive"}
        state[kind.get(word, word)] = d
    return {k: v for k, v in state.items() if k in _MODULE_STATE and v not in _DEFAULTS}


def global_directive_problem(
    text: str,
    file_text: str,
    span: tuple[int, int],
    before: Sequence[str],
    name: str,
    *,
    copy_of_file: bool = False,
) -> str:
    """Why the candidate ``text`` (module ``name`` of the repository's file ``file_text`` at
    ``span``, read after the directives ``before``) may change what the whole simulation
    reads: a global-effect directive the repository's file does not have, or a module of it
    read in another time scale / cell marking / pull than the repository's module; or ""."""
    code = blank_comments(text, strings=False)
    mine = _tokens(code)
    ref_code = blank_comments(file_text, strings=False)
    if not mine and not _TIME_DECL.search(code) and not _TIME_DECL.search(ref_code):
        return ""
    theirs = _tokens(ref_code)
    ahead = ["".join(d.split()) for d in before]
    known = {d for _, d in theirs} | set(ahead)
    for at, d in mine:
        if d not in known:
            return (
                f"line {line_of(code, at)} of the candidate writes {_shown(code, at)!r}, which the "
                f"repository's file does not: its effect reaches the whole simulation (the "
                "global time precision is the finest of any module, `%t` and dumps print in "
                "it; cell marking, port pulls, keyword sets), which the candidate's own proof "
                "cannot see; keep the repository's directives"
            )
    start = span[0]
    head = [] if copy_of_file else [d for a, d in theirs if a < start]
    at_ref = {m.name: m.start for m in module_spans(ref_code)}  # a module of the file: its own
    spans = {m.start: m.end for m in module_spans(ref_code)}
    for mod in module_spans(code):
        ref_at = at_ref.get(mod.name, start) if copy_of_file else start
        own = _time_declarations(code[mod.start : mod.end])
        if own != _time_declarations(ref_code[ref_at : spans.get(ref_at, span[1])]):
            return (
                f"line {line_of(code, mod.start)}: module {mod.name} of the candidate declares "
                f"its time unit or precision otherwise ({'; '.join(own) or 'none'}) than module "
                f"{name} of the repository: the global precision (the finest of any module, "
                "`%t`, dumps) would change, which its own proof cannot see; keep the "
                "repository's timeunit / timeprecision"
            )
        got = _state_at([*ahead, *head, *[d for a, d in mine if a < mod.start]])
        want = _state_at([*ahead, *[d for a, d in theirs if a < ref_at]])
        if got != want:
            kind = sorted(k for k in {*got, *want} if got.get(k) != want.get(k))[0]
            return (
                f"line {line_of(code, mod.start)}: module {mod.name} of the candidate is read "
                f"in another `{kind} ({got.get(kind, 'none')!r}) than module {name} of the "
                f"repository ({want.get(kind, 'none')!r}): its delays' unit and precision (the "
                "global precision, `%t`), its cell marking or port pulls would change, which "
                "its own proof cannot see; keep the repository's directives"
            )
    return ""
