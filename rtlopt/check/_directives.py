"""The directives a file leaves in force after its end, judged on the text a build reads.

A build that compiles the files in one unit (a glob, in any order) reads a directive a file
leaves in force in every later file: ```default_nettype``, ```unconnected_drive``,
```celldefine``, ```begin_keywords``. A file that sets one and takes it back is harmless only
when the taking back is read by every build: a ```nounconnected_drive`` in an ```ifdef``
branch that no build takes, or in a macro body no one calls, takes nothing back.

So the file is read once per configuration of the macros its conditionals test (each
defined or not; a ```define`` / ```undef`` in the file followed as a preprocessor does), and a
directive in force at the end of any of them is a finding. With more than
:data:`_CONFIGURED_MACROS` such macros the file is walked as a tree instead: each branch of
an ```ifdef`` group starts from the state before it (a group without ```else`` has an empty
branch too), and where the branches end differently the state depends on the
configuration, a finding unless a later directive outside the group sets it. A
state-changing directive in a macro body (in force wherever the macro is called) or in an
escaped identifier (no directive for iverilog), a macro named like a directive, and a
conditional left open or closed without its opening are findings too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rtlopt.verilog import blank_comments, line_of

_DIRECTIVE = re.compile(r"`\s*([A-Za-z_][A-Za-z0-9_]*)")
_ESCAPED = re.compile(r"\\[^ \t\n\r\f]+")
_CONDITIONALS = {"ifdef", "ifndef", "elsif", "else", "endif"}
#: directives whose state reaches the files compiled after the file
STATEFUL = {
    "default_nettype",
    "unconnected_drive",
    "nounconnected_drive",
    "celldefine",
    "endcelldefine",
    "begin_keywords",
    "end_keywords",
}
#: names a macro must not take (a tool may read the directive as the macro after it)
_DIRECTIVES = (
    STATEFUL
    | _CONDITIONALS
    | {
        "define",
        "undef",
        "undefineall",
        "include",
        "timescale",
        "resetall",
        "line",
        "pragma",
        "default_decay_time",
        "default_trireg_strength",
        "delay_mode_distributed",
        "delay_mode_path",
        "delay_mode_unit",
        "delay_mode_zero",
    }
)
_AFTER = "every file a build compiles after it reads it"


@dataclass(frozen=True)
class _State:
    """What is in force: each entry ``(line, text)`` or None (the default), or ``(line,
    "?")`` where the branches of the conditional at that line end differently."""

    nettype: tuple[int, str] | None = None
    drive: tuple[int, str] | None = None
    cell: tuple[int, str] | None = None
    keywords: tuple[tuple[int, str], ...] = ()

    def key(self) -> tuple[object, ...]:
        """The state without its lines (two branches that set the same value agree)."""
        return (
            self.nettype and self.nettype[1],
            self.drive and self.drive[1],
            self.cell and self.cell[1],
            tuple(k for _, k in self.keywords),
        )


def _merge(branches: list[_State], line: int) -> _State:
    """The state after a conditional group whose branches end in ``branches``."""
    first = branches[0]
    if all(b.key() == first.key() for b in branches):
        return first
    unsure = (line, "?")
    keys = [b.key() for b in branches]

    def pick(i: int, value: tuple[int, str] | None) -> tuple[int, str] | None:
        return value if all(k[i] == keys[0][i] for k in keys) else unsure

    words = first.keywords if all(k[3] == keys[0][3] for k in keys) else (unsure,)
    return _State(pick(0, first.nettype), pick(1, first.drive), pick(2, first.cell), words)


def _apply(state: _State, name: str, arg: str, line: int) -> _State:
    """``state`` after the directive ``name`` (argument ``arg``; a version string of
    ```begin_keywords`` is blanked) at ``line``."""
    if name == "default_nettype":
        # none: an implicit net in a later file is an error, not another meaning
        return replace(state, nettype=None if arg in ("wire", "none") else (line, arg))
    if name == "unconnected_drive":
        return replace(state, drive=(line, arg))
    if name == "nounconnected_drive":
        return replace(state, drive=None)
    if name == "celldefine":
        return replace(state, cell=(line, ""))
    if name == "endcelldefine":
        return replace(state, cell=None)
    if name == "begin_keywords":
        return replace(state, keywords=(*state.keywords, (line, "")))
    if name == "end_keywords":
        return replace(state, keywords=state.keywords[:-1])
    return state


def _body_end(code: str, start: int) -> int:
    """Where the ```define`` starting at ``start`` ends (its backslash continuations)."""
    end = start
    while True:
        eol = code.find("\n", end)
        if eol < 0:
            return len(code)
        if not code[end:eol].rstrip().endswith("\\"):
            return eol
        end = eol + 1


@dataclass
class _Group:
    """An open ```ifdef`` group: its line, the state before it, the states its closed
    branches end in, and whether it has an ```else``."""

    line: int
    before: _State
    ends: list[_State]
    has_else: bool = False


def _conditional(
    name: str, line: int, state: _State, groups: list[_Group], out: list[tuple[int, str]]
) -> _State:
    """The state after the conditional directive ``name``."""
    if name in ("ifdef", "ifndef"):
        groups.append(_Group(line, state, []))
        return state
    if not groups:
        out.append((line, f"`{name} without its `ifdef: balance the conditionals"))
        return state
    group = groups[-1]
    group.ends.append(state)
    if name == "else":
        group.has_else = True
    if name != "endif":
        return group.before
    groups.pop()
    # without an `else a configuration takes no branch: the state before the group goes on
    return _merge([*group.ends, *([] if group.has_else else [group.before])], group.line)


@dataclass(frozen=True)
class _Token:
    """A directive: its name, line, first word after it (a macro's name, a value)."""

    name: str
    line: int
    arg: str


def _tokens(text: str, code: str, out: list[tuple[int, str]]) -> list[_Token]:
    """The directives of ``code`` in order, a macro body's left out (each state-changing
    directive there a finding in ``out``)."""
    tokens: list[_Token] = []
    at = 0
    while (m := _DIRECTIVE.search(code, at)) is not None:
        name, line = m.group(1), line_of(text, m.start())
        at = m.end()
        eol = code.find("\n", m.end())
        words = code[m.end() : eol if eol >= 0 else len(code)].split()
        tokens.append(_Token(name, line, words[0] if words else ""))
        if name == "define":
            at = _body_end(code, m.start())
            if words and words[0].split("(")[0] in _DIRECTIVES:
                out.append(
                    (
                        line,
                        f"a macro named like the directive `{words[0].split('(')[0]}: a tool "
                        "may read each later use as the macro; give the macro another name",
                    )
                )
            out += [
                (
                    line_of(text, inner.start()),
                    f"`{inner.group(1)} in a macro body is in force wherever the macro is "
                    "called, which the gate does not follow: write it outside the macro",
                )
                for inner in _DIRECTIVE.finditer(code, m.end(), at)
                if inner.group(1) in STATEFUL
            ]
    return tokens


def _walk(tokens: list[_Token], out: list[tuple[int, str]]) -> _State:
    """The state after the file whatever branches a build takes (each ```ifdef`` group's
    branches merged); unbalanced conditionals are findings in ``out``."""
    groups: list[_Group] = []
    state = _State()
    for t in tokens:
        if t.name in _CONDITIONALS:
            state = _conditional(t.name, t.line, state, groups, out)
        elif t.name in STATEFUL:
            state = _apply(state, t.name, t.arg, t.line)
    out += [
        (g.line, f"`ifdef left open at the end of the file ({_AFTER}): close it") for g in groups
    ]
    return state


def _configured(tokens: list[_Token], defined: set[str]) -> _State:
    """The state after the file in the configuration where the macros ``defined`` (and
    those the file defines on its way) are defined, as a preprocessor reads it."""
    defined = set(defined)
    stack: list[tuple[bool, bool]] = []  # (the enclosing text is read, a branch was taken)
    active = True
    state = _State()
    for t in tokens:
        if t.name in ("ifdef", "ifndef"):
            cond = (t.arg in defined) == (t.name == "ifdef")
            stack.append((active, cond))
            active = active and cond
        elif t.name in ("elsif", "else") and stack:
            outer, taken = stack[-1]
            cond = not taken and (t.name == "else" or t.arg in defined)
            stack[-1] = (outer, taken or cond)
            active = outer and cond
        elif t.name == "endif" and stack:
            active = stack.pop()[0]
        elif not active:
            continue
        elif t.name == "define":
            defined.add(t.arg)
        elif t.name == "undef":
            defined.discard(t.arg)
        elif t.name in STATEFUL:
            state = _apply(state, t.name, t.arg, t.line)
    return state


#: at most this many macros tested: every configuration is read; more: the branches merged
_CONFIGURED_MACROS = 8


def _final_states(tokens: list[_Token], out: list[tuple[int, str]]) -> list[_State]:
    """The states the file can end in: one per configuration of the macros its conditionals
    test, or (too many) the merged state."""
    merged = _walk(tokens, out)
    tested = sorted({t.arg for t in tokens if t.name in ("ifdef", "ifndef", "elsif")})
    if len(tested) > _CONFIGURED_MACROS or any(
        "without its" in m or "left open" in m for _, m in out
    ):
        return [merged]
    return [
        _configured(tokens, {m for i, m in enumerate(tested) if bits >> i & 1})
        for bits in range(1 << len(tested))
    ]


def directives_in_force(text: str) -> list[tuple[int, str]]:
    """``(line, message)`` for each directive the file leaves in force after its end in
    some configuration, each state-changing directive in a macro body, and each unbalanced
    conditional."""
    out: list[tuple[int, str]] = []
    code = blank_comments(text)
    # the backquote of an escaped identifier (\x`nounconnected_drive) starts no directive
    for m in _ESCAPED.finditer(code):
        inner = {d.group(1) for d in _DIRECTIVE.finditer(m.group(0))}
        if inner & STATEFUL:
            out.append(
                (
                    line_of(text, m.start()),
                    f"`{min(inner & STATEFUL)} inside an escaped identifier, which tools read "
                    "differently: rename the identifier",
                )
            )
    code = _ESCAPED.sub(lambda m: " " * len(m.group(0)), code)
    states = _final_states(_tokens(text, code, out), out)
    fix = "take it back after the file's last module, outside any `ifdef"
    count: dict[tuple[str, int, str], int] = {}
    for state in states:
        for what, value in (
            ("default_nettype", state.nettype),
            ("unconnected_drive", state.drive),
            ("celldefine", state.cell),
            *(("begin_keywords", k) for k in state.keywords),
        ):
            if value is not None:
                key = (what, *value)
                count[key] = count.get(key, 0) + 1
    for (what, line, arg), n in count.items():
        where = "after the file" + ("" if n == len(states) else " in some configuration")
        if arg == "?":
            msg = f"the branches of this conditional leave `{what} differently in force"
        else:
            msg = f"leaves {f'`{what} {arg}'.rstrip()} in force"
        out.append((line, f"{msg} {where} ({_AFTER}): {fix}"))
    return out
