"""An x/z value written under a conditional directive whose macro some build of the
repository defines, in any Verilog text, for :mod:`._tb_x` (round 75).

rtlopt elaborates under its configured defines; the repository's own builds may define
others (``iverilog -DXSTIM``, ``+define+XINJECT`` in a ``.f`` file, ``defines={...}`` in a
FuseSoC core, a macro name built at run time). An x/z literal that may be written (not an
equality's operand nor a case item, :func:`._tb_x_forms.x_literals`) on a line a conditional
directive governs counts, in any Verilog text (a header without a unit, a wrapper, a
stimulus module, the non-target parts of the target's own files), when a macro of a
directive governing it is defined by some text of the repository (:func:`build_macros`) or
when the repository builds a macro name at run time (:func:`runtime_defines`). Which input
the x reaches is not followed: every input is fed (fail closed). The macros a tool predefines
(:data:`PREDEFINED`: ``__ICARUS__`` for every iverilog run, ``VERILATOR``, Yosys's ``YOSYS``)
are a build's too, with no text naming them (round 79 cases 17, 18): which tool runs a build
(a ``.f`` file, a script) is not told, so each counts for every repository. Any other macro no
text defines (``INC_ASSERT`` left to users) is judged as before (testbench texts only).

The other text of such branches (:func:`branch_lines`) and the branches holding none beside
one that holds some (:func:`left_branches`: the build entering an empty ```ifdef FAST`` or
the missing ```else`` of ```ifndef FAST`` drops the writes rtlopt's reading makes, an
absent assignment being an x source like a literal) are judged by the instance analysis
elaborated under the configuration entering them (:mod:`._tb_x_configs`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from rtlopt.evaluate import _tb_x_forms as tf

__all__ = [
    "PREDEFINED",
    "TOOL_PREDEFINED",
    "branch_lines",
    "build_macros",
    "directives",
    "governed_macros",
    "left_branches",
    "left_lines",
    "own_spans",
    "runtime_defines",
    "written_x",
    "written_x_all",
]

#: A conditional directive anywhere on a line (the preprocessor reads one after code and
#: before more: ``initial s = `ifdef X 1'bx `else 1'b0 `endif;``), with the macro it tests.
#: One on a line of its own: a text holding one reads as Verilog; one after code (in a
#: script's string, ``"`ifdef X"``) leaves a text whose words a build may define.
_OWN_LINE = re.compile(r"^[ \t]*`(?:ifdef|ifndef|elsif|else|endif)\b", re.M)
_COND = re.compile(r"`(?:(ifdef|ifndef|elsif)\b[ \t]*(\w*)|(else|endif)\b)")


def directives(code: str) -> Iterator[tuple[int, str, str]]:
    """The conditional directives of ``code`` (comments and strings blanked), wherever they
    stand on their line: (offset, word, the macro tested or "")."""
    for m in _COND.finditer(code):
        yield m.start(), m.group(1) or m.group(3), m.group(2) or ""


#: A macro defined on a command line, in a ``.f`` file, a Verilog text or a core/YAML file.
_DEFINES = (
    re.compile(r"(?:^|[\s\"'=(\[,])-D\s*([A-Za-z_]\w*)"),
    re.compile(r"\+define\+([\w+=]+)"),
    re.compile(r"`define[ \t]+([A-Za-z_]\w*)"),
    re.compile(r"\bdefines?\b\s*[=:]\s*[\[{(]?([^\n\]})]*)", re.I),
)
#: A macro name handed to a tool at run time (``-D$(NAME)``, ``+define+${X}``,
#: ``f"-D{name}"``, ``["-D", name]``, ``"-D" + name``, ``-D%s``).
_RUNTIME = re.compile(
    r"(?:-D|\+define\+)(?:[$%{(\[<@]|[\"']\s*(?:[+.,%)\]]|\s*$))"
    r"|[\"'](?:-D|\+define\+)[\"']",
    re.M,
)
_WORD = re.compile(r"[A-Za-z_]\w*")

#: The macros each tool defines in every run, measured here (``iverilog -E`` 11.0 on a probe;
#: Yosys 0.23 ``read_verilog``: ``YOSYS`` always, ``SYNTHESIS`` unless ``-nosynthesis``,
#: ``FORMAL`` in its place with ``-formal``) or documented (Verilator's ``VERILATOR``,
#: ``verilator``, ``verilator3``, ``SYSTEMVERILOG``, ``VERILATOR_TIMING`` with ``--timing``;
#: the commercial simulators' identity macros of ``evaluate._configs.TOOL_MACROS``).
PREDEFINED: dict[str, frozenset[str]] = {
    "iverilog": frozenset({"__ICARUS__"}),
    "verilator": frozenset(
        {"VERILATOR", "verilator", "verilator3", "SYSTEMVERILOG", "VERILATOR_TIMING"}
    ),
    "yosys": frozenset({"YOSYS", "SYNTHESIS", "FORMAL"}),
    "others": frozenset(
        {"XILINX_SIMULATOR", "MODEL_TECH", "QUESTA", "VCS", "INCA", "XCELIUM", "RIVIERA"}
    ),
}
#: Every tool's predefined macros: a build may define each (its tool is not told).
TOOL_PREDEFINED: frozenset[str] = frozenset().union(*PREDEFINED.values())


def _verilog(text: str) -> bool:
    """Whether ``text`` reads as Verilog (a unit or a preprocessor directive)."""
    return bool(_OWN_LINE.search(text) or tf.units(tf.lexed(text)))


def build_macros(
    texts: Iterable[str],
    read: Iterable[str] = (),
    configured: Iterable[str] = (),
    predefined: bool = True,
) -> set[str]:
    """The macro names some build of the repository may define: those a text defines
    (``-DM``, ``+define+M``, ```define M``, ``defines={...}``, ``define: M``), and every word
    of a text that is not Verilog (a Makefile, a script, a ``.f`` or YAML file: a macro
    named there may be handed to a tool in a way rtlopt does not parse). The texts ``read``
    by the elaboration count but for their ```define`` in a branch active under the
    ``configured`` defines (applied there by the elaboration: ``prim_assert.sv``'s
    ``INC_ASSERT`` for assertion-only code); one in an inactive branch is another build's
    (```ifdef REGRESSION `define XSTIM``, round 76). And every macro a tool predefines
    (:data:`TOOL_PREDEFINED`: the tool running a build is not told) unless ``predefined``
    is false (the macros a text names alone)."""
    out: set[str] = set(TOOL_PREDEFINED) if predefined else set()
    on = list(configured)
    for text in read:
        for rx in (*_DEFINES[:2], _DEFINES[3]):
            for m in rx.finditer(text):
                out.update(_WORD.findall(m.group(1)))
        if "`define" in text:
            inactive = governed_macros(text, on)
            for m in _DEFINES[2].finditer(text):
                if tf.line_of(text, m.start()) in inactive:
                    out.add(m.group(1))
    for text in texts:
        for rx in _DEFINES:
            for m in rx.finditer(text):
                out.update(_WORD.findall(m.group(1)))
        if not _verilog(text):
            out.update(_WORD.findall(text))
    return out


def runtime_defines(texts: Iterable[str]) -> str | None:
    """The first form in ``texts`` defining a macro whose name is built at run time."""
    for text in texts:
        m = _RUNTIME.search(text)
        if m:
            return m.group(0).strip()
    return None


def governed_macros(code: str, configured: Iterable[str] = ()) -> dict[int, list[set[str]]]:
    """For each line of ``code`` in a conditional branch inactive under the ``configured``
    defines, the macros of each inactive directive level governing it (a level's directive
    and the earlier branches of its chain): another build enters the branch only by
    switching each; a line of an active branch the elaboration reads already."""
    on = set(configured)
    out: dict[int, list[set[str]]] = {}
    #: per level: its macros, a branch of its chain taken, this branch's condition holds
    stack: list[tuple[set[str], bool, bool]] = []
    line = 1
    for at, kind, name in directives(code):
        here = tf.line_of(code, at)
        _mark(out, stack, range(line, here + 1))
        line = here
        if kind in ("ifdef", "ifndef"):
            holds = (name in on) == (kind == "ifdef")
            stack.append(({name} if name else set(), holds, holds))
        elif kind in ("elsif", "else") and stack:
            names, taken, _ = stack[-1]
            holds = not taken and (kind == "else" or name in on)
            stack[-1] = (names | ({name} if name else set()), taken or holds, holds)
        elif kind == "endif" and stack:
            stack.pop()
    _mark(out, stack, range(line, code.count("\n") + 2))  # an unclosed one governs the rest
    return out


def _mark(
    out: dict[int, list[set[str]]], stack: list[tuple[set[str], bool, bool]], lines: range
) -> None:
    levels = [s[0] for s in stack if not s[2]]
    if levels:
        for n in lines:
            out.setdefault(n, levels)


def own_spans(code: str, names: set[str]) -> list[tuple[int, int]]:
    """Offsets of the bodies of the units ``names`` in ``code`` (read by the elaboration
    under the configured defines)."""
    out = []
    for m in tf._UNIT.finditer(code):  # noqa: SLF001 - the same unit reader
        if m.group(1) in names:
            end = tf._END.search(code, m.end())  # noqa: SLF001
            out.append((m.start(), end.end() if end else len(code)))
    return out


def written_x_all(
    code: str,
    defined: set[str],
    runtime: bool,
    skip: list[tuple[int, int]],
    configured: Iterable[str] = (),
) -> list[tuple[int, str, list[set[str]]]]:
    """Every x/z value :func:`written_x` finds: (line, macro, the macros of each inactive
    directive level governing it)."""
    out: list[tuple[int, str, list[set[str]]]] = []
    if "`" not in code:
        return out
    governed: dict[int, list[set[str]]] | None = None
    known = defined | set(configured)
    for at in tf.x_literals(code):
        if any(a <= at < b for a, b in skip):
            continue
        if governed is None:
            governed = governed_macros(code, configured)
        line = tf.line_of(code, at)
        levels = governed.get(line)
        if levels and (runtime or all(ms & known for ms in levels)):
            hit = sorted(set().union(*levels) & known) or sorted(set().union(*levels))
            out.append((line, hit[0] if hit else "?", levels))
    return out


def written_x(
    code: str,
    defined: set[str],
    runtime: bool,
    skip: list[tuple[int, int]],
    configured: Iterable[str] = (),
) -> tuple[int, str] | None:
    """The first x/z value written in ``code`` (stripped) under a conditional directive
    whose macro is in ``defined`` (any macro when ``runtime``), in a branch inactive under
    the ``configured`` defines, outside ``skip``: (line, macro)."""
    hits = written_x_all(code, defined, runtime, skip, configured)
    return (hits[0][0], hits[0][1]) if hits else None


#: A directive selecting a branch, with its macro: the rest of its line is text.
_SELECTING = re.compile(r"`(?:(?:ifdef|ifndef|elsif)[ \t]+\w+|else\b|endif\b)")
#: What enters a branch: the macros defined and those undefined.
Entry = tuple[frozenset[str], frozenset[str]]


def entering(code: str, configured: Iterable[str] = ()) -> dict[int, Entry | None]:
    """For each line of ``code`` in a branch inactive under the ``configured`` defines, the
    macros a build entering it defines and those it leaves undefined (every directive level of
    the line, active ones too: the ```elsif N`` of ```ifdef M`` is entered with ``M``
    undefined and ``N`` defined, the ```else`` of ```ifdef SYNTHESIS`` by leaving a
    configured ``SYNTHESIS`` undefined), or None where no build enters it (```ifdef M`` ...
    ```elsif M``)."""
    on = set(configured)
    out: dict[int, Entry | None] = {}
    #: per level: the chain's earlier conditions negated, this branch's, it holds, one taken
    stack: list[tuple[Entry, Entry, bool, bool]] = []
    none: frozenset[str] = frozenset()
    line = 1
    for at, kind, name in directives(code):
        here = tf.line_of(code, at)
        _enter(out, stack, range(line, here + 1), on)
        line = here
        n = frozenset({name} if name else ())
        if kind in ("ifdef", "ifndef"):
            holds = (name in on) == (kind == "ifdef")
            cond, neg = ((n, none), (none, n)) if kind == "ifdef" else ((none, n), (n, none))
            stack.append((neg, cond, holds, holds))
        elif kind == "elsif" and stack:
            neg, _, _, taken = stack[-1]
            holds = not taken and name in on
            stack[-1] = ((neg[0], neg[1] | n), (neg[0] | n, neg[1]), holds, taken or holds)
        elif kind == "else" and stack:
            neg, _, _, taken = stack[-1]
            stack[-1] = (neg, neg, not taken, True)
        elif kind == "endif" and stack:
            stack.pop()
    _enter(out, stack, range(line, code.count("\n") + 2), on)
    return out


def _enter(
    out: dict[int, Entry | None],
    stack: list[tuple[Entry, Entry, bool, bool]],
    lines: range,
    on: set[str],
) -> None:
    if all(s[2] for s in stack):
        return
    defs = frozenset().union(*(s[1][0] for s in stack))
    undefs = frozenset().union(*(s[1][1] for s in stack))
    entry = None if defs & undefs else (defs, undefs)
    for n in lines:
        out.setdefault(n, entry)


def branch_lines(
    code: str,
    defined: set[str],
    runtime: bool,
    skip: list[tuple[int, int]],
    configured: Iterable[str] = (),
) -> list[tuple[int, str, Entry]]:
    """Every line of ``code`` (stripped) holding text (any code: a write of a value that may
    be x without an x literal, ```SEL_UNKNOWN``, an undriven ``reg``, a ```define``) in a
    branch inactive under the ``configured`` defines that a build of the repository may
    enter (:func:`entering`: each macro it defines is in ``defined``, any when ``runtime``;
    a configured one it undefines any build may leave undefined), outside ``skip``:
    (line, a macro entering it, the macros defined and left undefined)."""
    out: list[tuple[int, str, Entry]] = []
    if "`" not in code:
        return out
    on = set(configured)
    starts = [0, *(m.end() for m in re.finditer(r"\n", code))]
    for line, entry in sorted(entering(code, configured).items()):
        if line > len(starts) or entry is None:
            continue  # past the end, or a branch no definition enters
        at = starts[line - 1]
        end = code.find("\n", at)
        text = _SELECTING.sub("", code[at : end if end >= 0 else len(code)]).strip()
        if not text or any(a <= at < b for a, b in skip):
            continue
        add, drop = entry[0] - on, entry[1] & on
        if runtime or add <= defined:
            out.append((line, sorted(add or drop or {"?"})[0], entry))
    return out


class _Level:
    """One conditional chain being read by :func:`left_branches`."""

    def __init__(self, at: int, line: int, neg: Entry, cond: Entry, holds: bool) -> None:
        self.at, self.first, self.line, self.neg, self.cond = at, line, line, neg, cond
        self.holds = holds
        self.taken, self.has, self.any, self.has_else = holds, False, False, False
        self.empty: list[tuple[int, Entry, bool]] = []


def _close(stack: list[_Level]) -> None:
    """Record the branch the innermost chain of ``stack`` leaves, where it holds no text."""
    top = stack[-1]
    if not top.has:
        defs = frozenset().union(*(s.cond[0] for s in stack))
        undefs = frozenset().union(*(s.cond[1] for s in stack))
        top.empty.append((top.line, (defs, undefs), not all(s.holds for s in stack)))


def left_branches(
    code: str, configured: Iterable[str] = (), skip: Iterable[tuple[int, int]] = ()
) -> list[tuple[int, Entry]]:
    """The branches of ``code`` (stripped) inactive under the ``configured`` defines that
    hold no text while another branch of their chain does (```ifdef FAST`` left empty
    beside an ```else`` writing ``s``; the missing ```else`` of ```ifndef FAST``, of a
    configured ```ifdef SYNTHESIS``): a build entering one drops what rtlopt's reading
    writes there, which may leave a variable unassigned (round 83 case 11). Each as (the
    line of its directive, or of its chain's first one for a missing ```else``; the macros
    a build entering it defines and those it leaves undefined, every directive level of the
    line), outside the chains opening in ``skip``; none that no build enters."""
    on, spans = set(configured), list(skip)
    none: frozenset[str] = frozenset()
    out: list[tuple[int, Entry]] = []
    stack: list[_Level] = []
    end = 0
    for m in _COND.finditer(code):
        kind, name = m.group(1) or m.group(3), m.group(2) or ""
        if code[end : m.start()].strip():
            for s in stack:
                s.has = s.any = True
        end = m.end()
        line = tf.line_of(code, m.start())
        n = frozenset({name} if name else ())
        if kind in ("ifdef", "ifndef"):
            holds = (name in on) == (kind == "ifdef")
            cond, neg = ((n, none), (none, n)) if kind == "ifdef" else ((none, n), (n, none))
            stack.append(_Level(m.start(), line, neg, cond, holds))
            continue
        if not stack:
            continue
        _close(stack)
        top = stack[-1]
        if kind == "endif":
            if not top.has_else:
                top.cond, top.holds, top.has, top.line = top.neg, not top.taken, False, top.first
                _close(stack)
            stack.pop()
            if top.any and not any(a <= top.at < b for a, b in spans):
                out += [(ln, e) for ln, e, off in top.empty if off and not e[0] & e[1]]
            continue
        holds = not top.taken and (kind == "else" or name in on)
        top.cond = top.neg if kind == "else" else (top.neg[0] | n, top.neg[1])
        top.neg = top.neg if kind == "else" else (top.neg[0], top.neg[1] | n)
        top.holds, top.taken, top.has, top.line = holds, top.taken or holds, False, line
        top.has_else = kind == "else"
    return out


def left_lines(
    code: str,
    defined: set[str],
    runtime: bool,
    skip: list[tuple[int, int]],
    configured: Iterable[str] = (),
) -> list[tuple[int, str, Entry]]:
    """The branches :func:`left_branches` finds that a build of the repository may enter
    (each macro it defines is in ``defined``, any when ``runtime``; a configured one it
    undefines any build may leave undefined): (line, a macro entering it, its entry)."""
    out: list[tuple[int, str, Entry]] = []
    if "`" not in code:
        return out
    on = set(configured)
    for line, entry in left_branches(code, configured, skip):
        add, drop = entry[0] - on, entry[1] & on
        if runtime or add <= defined:
            out.append((line, sorted(add or drop or {"?"})[0], entry))
    return out
