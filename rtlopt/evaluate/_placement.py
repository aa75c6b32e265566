"""What a candidate's text does where it is written back, which its own preprocessed text
cannot show: the headers its ```include`` lines name (read from the target's folder, as the
repository reads them, not from rtlopt's scratch folder), and the pass-through state
(```default_nettype``, ```unconnected_drive``, ```celldefine``) it leaves the files read
after it."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.verilog import (
    CONDITIONAL_DIRECTIVES,
    DIRECTIVES,
    PASS_THROUGH_TOKEN,
    alternation,
    blank_comments,
    module_spans,
)

__all__ = [
    "PASS_DIRECTIVE",
    "last_state",
    "macro_made_in",
    "macro_made_state",
    "repository_includes",
    "state_left",
]

#: Directives the preprocessor passes through: the state a module is read in. A token anywhere
#: on its line, as the preprocessor reads it (``endmodule `default_nettype none`` leaves
#: ``none`` to the files after it), not only a line of its own.
PASS_DIRECTIVE = PASS_THROUGH_TOKEN

#: The pass-through state every compilation starts in (``resetall``'s), white space removed.
_DEFAULT_STATE = frozenset({"`default_nettypewire", "`endcelldefine", "`nounconnected_drive"})


def last_state(directives: Sequence[str]) -> dict[str, str]:
    """The pass-through directive of each kind in force after ``directives``."""
    last: dict[str, str] = {}
    for d in directives:
        word = d.split()[0].lstrip("`")
        if word == "resetall":
            last.clear()
        kind = {"endcelldefine": "celldefine", "nounconnected_drive": "unconnected_drive"}
        last[kind.get(word, word)] = d.strip()
    return last


#: Kinds whose state after a module is not compared: ``resetall`` is no state of its own. A
#: ``timescale`` is compared: it sets the unit of the delays (and of ``$time``) in the later
#: files that have none of their own, which the repository's simulation reads (a ``#1`` one
#: second late). Model answers have their ``timescale`` lines dropped (``policy._extract``).
_UNCOMPARED = frozenset({"resetall"})


def _end_state(directives: Sequence[str]) -> dict[str, str]:
    """The state ``directives`` leave for what follows, white space aside, defaults dropped."""
    keys = {k: "".join(v.split()) for k, v in last_state(directives).items()}
    return {k: v for k, v in keys.items() if v not in _DEFAULT_STATE and k not in _UNCOMPARED}


#: A conditional directive: its word and the macro it tests.
_CONDITIONAL = re.compile(rf"`({alternation(CONDITIONAL_DIRECTIVES)})\b[ \t]*([A-Za-z_]\w*)?")

#: The most macros whose every assignment :func:`_differing_kind` tries (2**8 end states).
_MAX_MACROS = 8

#: The conditions under which a directive is read: (macro, defined) pairs that must all hold.
Guard = tuple[tuple[str, bool], ...]


def _guarded(text: str) -> list[tuple[Guard, str]]:
    """The pass-through directives of ``text`` (comments aside), each with the conditions of
    the ```ifdef`` / ```ifndef`` / ```elsif`` / ```else`` branches around it, in order: a
    ```default_nettype wire`` inside ```ifndef YOSYS`` is read only where YOSYS is not
    defined. Unbalanced conditionals (a piece of a file) close what they can."""
    code = blank_comments(text, strings=False)
    found = [(m.start(), m, True) for m in PASS_DIRECTIVE.finditer(code)]
    found += [(m.start(), m, False) for m in _CONDITIONAL.finditer(code)]
    branch: list[list[tuple[str, bool]]] = []  # each open conditional's current branch
    tested: list[list[tuple[str, bool]]] = []  # the tests of its earlier branches
    out: list[tuple[Guard, str]] = []
    for _, m, passed in sorted(found, key=lambda f: f[0]):
        if passed:
            out.append((tuple(c for b in branch for c in b), m.group(0).strip()))
            continue
        word, macro = m.group(1), m.group(2) or ""
        if word in ("ifdef", "ifndef"):
            branch.append([(macro, word == "ifdef")])
            tested.append([(macro, word == "ifdef")])
        elif branch and word in ("elsif", "else"):
            branch[-1] = [(n, not d) for n, d in tested[-1]]
            if word == "elsif":
                branch[-1].append((macro, True))
                tested[-1].append((macro, True))
        elif branch and word == "endif":
            branch.pop()
            tested.pop()
    return out


def _differing_kind(mine: list[tuple[Guard, str]], theirs: list[tuple[Guard, str]]) -> str:
    """The first kind of pass-through state the two directive sequences leave differently
    under some definition of the macros their conditionals test, or ""."""
    if mine == theirs:
        return ""
    macros = sorted({n for g, _ in [*mine, *theirs] for n, _ in g})
    if len(macros) > _MAX_MACROS:  # too many to try: every directive read, as written
        macros = []
        mine, theirs = [((), d) for _, d in mine], [((), d) for _, d in theirs]
    for bits in itertools.product((False, True), repeat=len(macros)):
        env = dict(zip(macros, bits, strict=True))

        def read(seq: list[tuple[Guard, str]], env: dict[str, bool] = env) -> dict[str, str]:
            return _end_state([d for g, d in seq if all(env[n] is v for n, v in g)])

        a, b = read(mine), read(theirs)
        if a != b:
            return sorted(k for k in {*a, *b} if a.get(k) != b.get(k))[0]
    return ""


def _outside(text: str) -> list[str]:
    """The code of ``text`` outside its modules (comments aside, white space collapsed)."""
    code = blank_comments(text, strings=False)
    outside, at = [], 0
    for m in module_spans(code):
        outside.append(" ".join(code[at : m.start].split()))
        at = m.end
    return [*outside, " ".join(code[at:].split())]


def _outside_macros(text: str) -> list[str]:
    """The macros ``text`` uses outside its modules, in order (a use may expand to a
    pass-through directive that no pattern on the text sees)."""
    words = re.findall(r"`([A-Za-z_]\w*)", "\n".join(_outside(text)))
    return [w for w in words if w not in DIRECTIVES]


def _directive_after(text: str, name: str) -> bool:
    """``text`` holds a compiler directive after its module ``name`` (or has no such module):
    the end of a copy of the file rather than of the module alone."""
    code = blank_comments(text, strings=False)
    span = next((m for m in module_spans(code) if m.name == name), None)
    return span is None or "`" in code[span.end :]


def state_left(
    text: str,
    file_text: str,
    span: tuple[int, int],
    before: Sequence[str],
    name: str,
    *,
    copy_of_file: bool = False,
) -> str:
    """Why ``text`` leaves the files after it another pass-through state than the
    repository's file ``file_text`` (module ``name`` at ``span`` in it) leaves them, both
    read after the directives ``before``; or "".

    The candidate is read with a footer that restores the defaults, so its own proof cannot
    see what such a directive does to the files after it once written back. Written back it
    replaces the module's span, so the file's own directives around the module are read
    around it as well: a ```default_nettype wire`` after ``endmodule`` (in ```ifndef YOSYS``,
    as ZipCPU's files end) still follows it. A copy of the whole file (``copy_of_file``, or
    a directive after its module, as ``rtlopt check`` passes a changed file) must also leave
    the file's state by itself. Directives in conditionals count where the conditional reads
    them, for every definition of the macros they test. A directive whose effect is global
    (the time precision, ``_global_directives``) is judged first."""
    from rtlopt.evaluate._global_directives import global_directive_problem

    why = global_directive_problem(text, file_text, span, before, name, copy_of_file=copy_of_file)
    if why:
        return "the candidate's directives read otherwise: " + why
    start, end = span
    ahead = [((), d) for d in before]
    theirs = ahead + _guarded(file_text)
    placed = file_text[:start] + text + file_text[end:]
    kind = _differing_kind(ahead + _guarded(placed), theirs)
    shift = len(text) - (end - start)
    for later in module_spans(blank_comments(file_text, strings=False)) if not kind else ():
        if later.start >= end:  # a module after it in the file reads the state it leaves too
            kind = _differing_kind(
                ahead + _guarded(placed[: later.start + shift]),
                ahead + _guarded(file_text[: later.start]),
            )
            if kind:
                break
    if not kind and (copy_of_file or _directive_after(text, name)):
        kind = _differing_kind(ahead + _guarded(text), theirs)
    used = _outside_macros(text)
    if not kind and used and _outside(text) != _outside(file_text):
        return (
            f"the candidate uses macro `{used[0]} outside module {name}, around which the "
            "repository's file reads otherwise: what it expands to there (a `timescale, a "
            "`default_nettype) would reach the files read after it, which its own proof "
            "cannot see; keep the text around the module as the repository has it"
        )
    if not kind:
        return ""
    shown = next(
        (
            " ".join(m.group(0).split())
            for m in PASS_DIRECTIVE.finditer(blank_comments(text, strings=False))
            if kind in m.group(0) or m.group(0).strip() == "`resetall"
        ),
        f"no `{kind}",
    )
    return (
        f"the candidate leaves another `{kind} in force after module {name} than the "
        f"repository ({shown[:60]!r}): the files read after it would change, which its own "
        "proof cannot see; keep the module's directives (and those around it) as the "
        "repository has them"
    )


def repository_includes(design: Design, text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` with each ```include "name"`` (outside comments) naming the file the
    repository's module reads: ``name`` beside the target's file, else in the first include
    folder that holds it (``-grelative-include``, as the unit is read). The candidate is
    preprocessed from rtlopt's scratch folder, where a relative name would resolve elsewhere.
    Also why it cannot be (a name found nowhere, a name given by a macro), in the candidate's
    lines: ``line N: message``."""
    code = blank_comments(text, strings=False)
    folders = [design.target.file.parent, *design.include_dirs]
    parts: list[str] = []
    errors: list[str] = []
    at = 0
    for m in re.finditer(r"`include\b[ \t]*(<)?(\"([^\"\n]*)\")?", code):
        line = code.count("\n", 0, m.start()) + 1
        if m.group(1):  # <name>: the include folders only, from any folder
            continue
        if m.group(2) is None:
            errors.append(
                f"line {line}: an `include whose file is not named by a string (a macro) is "
                "read from rtlopt's scratch folder, not where the repository reads it: name "
                "the file"
            )
            continue
        name = m.group(3)
        if Path(name).is_absolute():
            continue
        found = next((f / name for f in folders if (f / name).is_file()), None)
        if found is None:
            errors.append(
                f'line {line}: `include "{name}" is found neither beside '
                f"{design.target.file.name} nor in the include folders"
            )
            continue
        parts += [text[at : m.start(2)], f'"{found.resolve().as_posix()}"']
        at = m.end(2)
    return "".join([*parts, text[at:]]), tuple(errors)


def macro_made_state(text: str, preprocessed: str, lines: Sequence[int]) -> str:
    """Why the candidate's preprocessed text (``preprocessed``, ``lines``: each line's own
    line in ``text``, 0 for the header and footer rtlopt writes) holds a pass-through
    directive its own text does not spell: a repository macro used inside a module that
    expands to ```default_nettype none`` or ```timescale``, whose state the footer of its
    proof restores but the files after it, written back, would read; or ""."""
    code = blank_comments(preprocessed, strings=False).split("\n")
    body = "\n".join(c for c, n in zip(code, lines, strict=False) if n)
    return macro_made_in(text, body)


def macro_made_in(text: str, body: str, context: str = "") -> str:
    """:func:`macro_made_state` on ``body``, the candidate ``text`` with its macros expanded
    (comments blanked, directives kept), which holds ``context`` (the directives printed
    for an empty text) besides."""

    def tokens(t: str) -> Counter[str]:
        code = blank_comments(t, strings=False)
        return Counter("".join(m.group(0).split()) for m in PASS_DIRECTIVE.finditer(code))

    count = tokens(body)
    count.subtract(tokens(text))
    count.subtract(tokens(context))
    made = sorted(d for d, n in count.items() if n > 0)
    if not made:
        return ""
    return (
        f"a macro of the candidate expands to the directive {made[0][:40]!r}, which its text "
        "does not spell: the state it sets reaches the files read after the module, which its "
        "own proof cannot see; write the directives themselves, as the repository has them"
    )
