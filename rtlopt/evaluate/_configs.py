"""Other configurations of a module with conditional compilation.

rtlopt proves the configuration the project's defines select. A module whose body tests
macros (```ifdef M`` / ```ifndef`` / ```elsif``) is also built in other configurations, and
code shared by several of them (outside every conditional, or in a branch more than one
selects) is proven only in this one: a rewrite that moves a statement across a branch, or
uses what one branch drives where another drives something else, reads the same here and
differently there.

:func:`differing_configurations` reads the reference module and the candidate under every
assignment of the tested macros (defined or not where the module starts, then as the module's
own ```define`` / ```undef`` lines change them) and compares their token streams: a change that
only touches branches this configuration alone selects reads the same everywhere else; every
other configuration is proven by ``evaluate/_config_check.py``. The macros the flow itself
fixes (``SYNTHESIS``: rtlopt proves the synthesized view) and the identity macros of tools are
not enumerated.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from rtlopt.harness._vocabulary import SYNTHESIS_MACROS
from rtlopt.verilog import (
    CONDITIONAL_DIRECTIVES,
    DIRECTIVES,
    PREPROCESSOR_DIRECTIVES,
    alternation,
    blank_comments,
    directive_line_end,
)

__all__ = [
    "SIMULATOR_MACROS",
    "SYNTHESIS_MACROS",
    "TOOL_MACROS",
    "active_tokens",
    "differing_configurations",
    "external_macros",
    "include_guard",
    "label",
    "other_configuration_change",
    "read_files",
    "selecting_macros",
    "switched_off_tokens",
    "tested_macros",
    "text_change_elsewhere",
    "used_macros",
    "valued_macros",
]

#: Macros that name the flow or a tool rather than a configuration of the design.
TOOL_MACROS = frozenset(
    {
        "SYNTHESIS",
        "__ICARUS__",
        "VERILATOR",
        "YOSYS",
        "XILINX_SIMULATOR",
        "MODEL_TECH",
        "QUESTA",
        "VCS",
        "INCA",
        "XCELIUM",
        "RIVIERA",
    }
)

#: The identity macros of simulators (each reads the text without ``SYNTHESIS``).
SIMULATOR_MACROS = TOOL_MACROS - SYNTHESIS_MACROS

#: Stands for a header included through a macro name (```include `HDR``) among the macros.
UNFOLLOWED = "`include `"

#: Marks what another build of the repository reads otherwise among the macros (a macro a
#: file this build does not read defines: ``evaluate._macros``; another file's definition of
#: a submodule is a build proven in its own right: ``evaluate._alternatives``).
OTHER_BUILD = "`other build: "

#: At most this many tested macros are enumerated (2**n readings of each text).
MAX_MACROS = 10

_DIRECTIVE = re.compile(rf"`({alternation(PREPROCESSOR_DIRECTIVES)})\b")
_ARGUMENT = re.compile(r"[ \t]*([A-Za-z_][\w$]*)?")
_CONDITION = re.compile(r"`(?:ifdef|ifndef|elsif)\s+([A-Za-z_][\w$]*)")
_TOKEN = re.compile(r"[A-Za-z_][\w$]*|\\\S+|\d[\w']*|'[sS]?[bBoOdDhH]\s*[\w?]+|\"[^\"\n]*\"|\S")


def tested_macros(code: str) -> set[str]:
    """The macros the conditionals of ``code`` (comments blanked) test."""
    return set(_CONDITION.findall(code))


def active_tokens(code: str, defined: Iterable[str]) -> list[str]:
    """The tokens of ``code`` (comments blanked) that a compilation in which ``defined`` are
    the defined macros reads: switched-off branches dropped, each active ``define`` /
    ``undef`` / ``include`` kept as one token (and applied).

    Raises:
        ValueError: unbalanced conditionals.
    """
    return _readings(code, defined)[0]


def switched_off_tokens(code: str, defined: Iterable[str]) -> list[str]:
    """The tokens of ``code`` (comments blanked) that a compilation in which ``defined`` are
    the defined macros does not read, and every conditional directive (as one token each).

    Raises:
        ValueError: unbalanced conditionals.
    """
    return _readings(code, defined)[1]


def switched_off_spans(code: str, defined: Iterable[str]) -> list[tuple[int, int]]:
    """The spans of ``code`` (comments blanked) a compilation in which ``defined`` are the
    defined macros does not read (switched-off branches, a switched-off ``define``'s body).

    Raises:
        ValueError: unbalanced conditionals.
    """
    spans: list[tuple[int, int]] = []
    _readings(code, defined, spans)
    return spans


def _readings(
    code: str, defined: Iterable[str], spans: list[tuple[int, int]] | None = None
) -> tuple[list[str], list[str]]:
    """(:func:`active_tokens`, :func:`switched_off_tokens`) of ``code``; the switched-off
    spans go to ``spans``.

    Raises:
        ValueError: unbalanced conditionals.
    """
    state = set(defined)
    out: list[str] = []
    off: list[str] = []
    spans = [] if spans is None else spans
    stack: list[tuple[bool, bool]] = []  # (the enclosing region is active, a branch was taken)
    active, pos = True, 0
    for m in _DIRECTIVE.finditer(code):
        if m.start() < pos:
            continue  # inside a define's body
        (out if active else off).extend(_TOKEN.findall(code[pos : m.start()]))
        if not active:
            spans.append((pos, m.start()))
        kind, arg, pos = m.group(1), "", m.end()
        if kind not in ("else", "endif", "undefineall"):
            a = _ARGUMENT.match(code, pos)
            assert a is not None  # the pattern matches the empty string
            arg, pos = a.group(1) or "", a.end()
        if kind in CONDITIONAL_DIRECTIVES:
            off.append(f"`{kind} {arg}".rstrip())
        if kind in ("ifdef", "ifndef"):
            taken = (arg in state) == (kind == "ifdef")
            stack.append((active, taken))
            active = active and taken
        elif kind in ("elsif", "else"):
            if not stack:
                raise ValueError(f"`{kind} without `ifdef")
            outer, taken = stack[-1]
            now = not taken and (kind == "else" or arg in state)
            stack[-1] = (outer, taken or now)
            active = outer and now
        elif kind == "endif":
            if not stack:
                raise ValueError("`endif without `ifdef")
            active = stack.pop()[0]
        else:
            end = directive_line_end(code, pos) if kind == "define" else pos
            if not active:
                off.append(f"`{kind} {arg} {' '.join(code[pos:end].split())}".rstrip())
                spans.append((pos, end))
            if active:
                out.append(f"`{kind} {arg} {' '.join(code[pos:end].split())}".rstrip())
                if kind == "define":
                    state.add(arg)
                elif kind == "undef":
                    state.discard(arg)
                elif kind == "undefineall":
                    state.clear()
            pos = end
    if stack:
        raise ValueError("`ifdef without `endif")
    (out if active else off).extend(_TOKEN.findall(code[pos:]))
    if not active:
        spans.append((pos, len(code)))
    return out, off


_INCLUDE = re.compile(r'`include\s+"([^"\n]+)"')
_GUARD_HEAD = re.compile(r"\s*`ifndef\s+(\w+)\s*\n\s*`define\s+(\w+)\b[^\n]*\n")
_NESTING = re.compile(
    rf"`({alternation([*CONDITIONAL_DIRECTIVES, 'define'])})\b[ \t]*([A-Za-z_][\w$]*)?"
)


def open_conditionals(
    code: str, pattern: re.Pattern[str] = _NESTING
) -> Iterator[tuple[re.Match[str], list[list[str]]]]:
    """Each directive ``pattern`` finds in ``code`` (comments blanked; group 1 its word, group
    2 its macro), with the conditionals open where it stands: per open ```ifdef``/```ifndef``
    its macro and those of its ```elsif``s so far, outermost first (the list is updated in
    place after each directive: read it before the next)."""
    stack: list[list[str]] = []
    for d in pattern.finditer(code):
        yield d, stack
        kind, word = d.group(1), d.group(2) or ""
        if kind in ("ifdef", "ifndef"):
            stack.append([word])
        elif kind == "elsif" and stack:
            stack[-1].append(word)
        elif kind == "endif" and stack:
            stack.pop()


def include_guard(code: str) -> str:
    """The include guard's macro of ``code`` (comments blanked): it opens with ```ifndef G``
    then ```define G``, the ```endif`` that closes that ```ifndef`` ends the file, and code
    follows the define; else "". ```ifndef M `define M v `endif`` alone, or followed by more
    text, is an overridable default (``+define+M=...`` selects another value), not a guard."""
    m = _GUARD_HEAD.match(code)
    if m is None or m.group(1) != m.group(2) or not code.rstrip().endswith("`endif"):
        return ""
    depth = 0
    for d in _NESTING.finditer(code):
        if d.group(1) in ("ifdef", "ifndef"):
            depth += 1
        elif d.group(1) == "endif":
            depth -= 1
            if depth == 0 and code[d.end() :].strip():
                return ""  # the guard closes before the end: what follows is not guarded
    body = code[m.end() : code.rstrip().rfind("`endif")]
    return m.group(1) if body.strip() else ""


def read_files(
    files: Iterable[Path], include_dirs: Iterable[Path], *, hardware: bool = False
) -> list[tuple[Path, str]]:
    """``files`` and the headers they include (searched in the including file's folder, then
    ``include_dirs``), each once with its text (comments blanked). ``hardware``: the texts as
    the builds without ``FORMAL`` read them (``harness._verification_only``: only the formal
    build defines it)."""
    from rtlopt.harness._verification_only import hardware_text

    dirs = tuple(include_dirs)
    seen: set[Path] = set()
    out: list[tuple[Path, str]] = []
    todo = [Path(f) for f in files]
    while todo and len(seen) < 2000:
        f = todo.pop()
        try:
            key = f.resolve()
            if key in seen or not f.is_file():
                continue
            seen.add(key)
            code = blank_comments(f.read_text(errors="replace"), strings=False)
        except OSError:
            continue
        out.append((f, hardware_text(code) if hardware else code))
        for name in _INCLUDE.findall(code):
            todo += [d / name for d in (f.parent, *dirs) if (d / name).is_file()][:1]
    return out


def external_macros(
    files: Iterable[Path], include_dirs: Iterable[Path], *, hardware: bool = False
) -> frozenset[str]:
    """The macros the conditionals of ``files`` and of the headers they include (searched in
    the including file's folder, then ``include_dirs``) test, include guards and the flow's
    own macros aside: switches of code outside the target module's own text (its submodules,
    a header it includes) that the token comparison cannot see. ``hardware``: as
    :func:`read_files`."""
    out: set[str] = set()
    for _, code in read_files(files, include_dirs, hardware=hardware):
        out |= tested_macros(code) - {include_guard(code)}
        if re.search(r"`include\s*`", code):
            out.add(UNFOLLOWED)  # a header named by a macro: not followed, fail closed
    return frozenset(out - TOOL_MACROS)


_USE = re.compile(r"`([A-Za-z_][\w$]*)")


def used_macros(code: str) -> set[str]:
    """The text macros ``code`` (comments blanked) expands."""
    return set(_USE.findall(code)) - DIRECTIVES


def selecting_macros(
    sources: list[tuple[Path, str]], used: Iterable[str]
) -> tuple[frozenset[str], dict[str, Path]]:
    """The macros whose conditionals select a definition of a macro of ``used`` in
    ``sources`` (``(file, text)``; include guards aside), and those selecting theirs: with
    ```ifdef FAST `define OP & `else `define OP ^ `endif`` a module that uses ```OP`` reads
    another operator in the configuration FAST defined, though it tests no macro itself. Also
    the macros among them with an overridable default (```ifndef M `define M v``: any
    ``+define+M=...`` selects another value), each with the file that holds it."""
    wanted, found = set(used), set[str]()
    defaults: dict[str, Path] = {}
    while True:
        more: set[str] = set()
        for f, code in sources:
            guard = include_guard(code)
            for d, stack in open_conditionals(code):
                word = d.group(2) or ""
                if d.group(1) == "define" and word in wanted:
                    chain = {m for c in stack for m in c if m and m != guard}
                    more |= chain
                    if word in chain:
                        defaults.setdefault(word, f)
        more -= TOOL_MACROS | found
        if not more:
            return frozenset(found), defaults
        found |= more
        wanted |= more


def valued_macros(sources: list[tuple[Path, str]]) -> frozenset[str]:
    """The macros ``sources`` define with a value (an empty ```define`` of one is no build
    of the repository: the configuration lines never set it in front of the module)."""
    out: set[str] = set()
    for _, code in sources:
        for d in re.finditer(r"`define[ \t]+([A-Za-z_][\w$]*)(\([^)]*\))?[ \t]*(\S?)", code):
            if d.group(3) and d.group(3) != "\n":
                out.add(d.group(1))
    return frozenset(out)


def differing_configurations(
    reference: str,
    candidate: str,
    defined: frozenset[str],
    *,
    external: frozenset[str] = frozenset(),
    limit: int = MAX_MACROS,
) -> tuple[list[str], list[frozenset[str]], str]:
    """The tested macros, the assignments of them (the macros defined where the module starts)
    other than this configuration's that must be proven, and why none can be listed ("": they
    can). ``defined``: the tested macros defined here (the configuration proven).

    An assignment is left out only when it gives ``external`` macros (tested outside the
    module's own text) their values here, the module includes no header (whose directives
    this reading does not apply), and ``candidate`` reads the same as ``reference`` under it
    (both the module's text, comments blanked)."""
    if UNFOLLOWED in external:
        return (
            [],
            [],
            "a file of the design includes a header through a macro name, whose conditionals "
            "rtlopt cannot follow",
        )
    other = sorted(m for m in external if m.startswith(OTHER_BUILD))
    if other:
        return (
            [],
            [],
            f"another build of the repository reads the design differently "
            f"({other[0].removeprefix(OTHER_BUILD)}), and rtlopt proves only this build (set "
            'harness.other_configurations = "ignore" if only it is built)',
        )
    macros = sorted((tested_macros(reference) | tested_macros(candidate) | external) - TOOL_MACROS)
    if not macros:
        return [], [], ""
    if len(macros) > limit:
        return (
            macros,
            [],
            (
                f"the design's conditionals test {len(macros)} macros ({', '.join(macros[:4])}, "
                f"...); rtlopt checks a change in at most {limit}"
            ),
        )
    fixed = {m for m in defined if m in TOOL_MACROS}
    here = frozenset(m for m in macros if m in defined)
    opaque = "`include" in reference or "`include" in candidate  # also `include `NAME
    out: list[frozenset[str]] = []
    for bits in itertools.product((False, True), repeat=len(macros)):
        config = frozenset(m for m, on in zip(macros, bits, strict=True) if on)
        if config == here:
            continue
        if opaque or any((m in config) != (m in here) for m in external):
            out.append(config)
            continue
        try:
            same = active_tokens(reference, config | fixed) == active_tokens(
                candidate, config | fixed
            )
            same = same or _as_here(reference, candidate, config | fixed, here | fixed)
        except ValueError as exc:
            return macros, [], f"the module's conditionals do not nest ({exc})"
        if not same:
            out.append(config)
    return macros, out, ""


def _as_here(reference: str, candidate: str, config: frozenset[str], here: frozenset[str]) -> bool:
    """Both sides read under ``config`` as under ``here`` (the configuration proven), blocks
    that only report aside (``ifdef VERBOSE initial $display(...)``: no value of any build
    depends on them): the proofs of ``here``, x-faithfulness included, are the proofs of
    ``config``."""
    from rtlopt.evaluate._reporting_blocks import without_any_reporting_block

    for side in (reference, candidate):
        bare = without_any_reporting_block(side)
        if active_tokens(bare, config) != active_tokens(bare, here):
            return False
    return True


def label(macros: list[str], config: frozenset[str]) -> str:
    """``A defined, B undefined``: one configuration of ``macros``."""
    return ", ".join(f"{m} {'defined' if m in config else 'undefined'}" for m in macros)


def other_configuration_change(
    reference: str, candidate: str, defined: frozenset[str], *, limit: int = MAX_MACROS
) -> str:
    """Why ``candidate`` reads differently from ``reference`` in another configuration (the
    first one), or "" when it reads the same in every one."""
    macros, configs, why = differing_configurations(reference, candidate, defined, limit=limit)
    if why or not configs:
        return why
    return (
        f"with {label(macros, configs[0])} (another configuration of the module's `ifdef) "
        "the change reads differently"
    )


def text_change_elsewhere(old: str, new: str, defined: Iterable[str], fixed: bool) -> str:
    """The configuration (of the macros the conditionals of ``old`` and ``new`` test, include
    guards and the flow's macros aside) other than this one in which a changed header reads
    differently, labelled, or "" when there is none. ``defined``: the macros defined here;
    ``fixed``: whether that is known (else every configuration counts as another)."""
    a, b = blank_comments(old, strings=False), blank_comments(new, strings=False)
    macros = sorted(
        (tested_macros(a) | tested_macros(b)) - {include_guard(a), include_guard(b)} - TOOL_MACROS
    )
    if not macros:
        return ""
    if len(macros) > MAX_MACROS:
        return f"its conditionals test {len(macros)} macros ({', '.join(macros[:4])}, ...)"
    here = frozenset(m for m in macros if m in set(defined))
    for bits in itertools.product((False, True), repeat=len(macros)):
        config = frozenset(m for m, on in zip(macros, bits, strict=True) if on)
        if fixed and config == here:
            continue
        try:
            if active_tokens(a, config) != active_tokens(b, config):
                return f"with {label(macros, config)} it reads differently"
        except ValueError as exc:
            return f"its conditionals do not nest ({exc})"
    return ""
