"""The target's parameterizations in every reading of the repository, not only synthesis's.

:func:`rtlopt.frontend.parameterizations` elaborates the repository once, with the design's
defines (``SYNTHESIS`` among them: the synthesis reading). A parent may pass the target
another value in another reading: a ``localparam``, a ```define`` or a package constant
chosen under ```ifdef SYNTHESIS``, a simulator's own macro (```ifdef __ICARUS__``), or a
macro the design's defines leave unset (```ifdef SIMULATION``: another build). Every
simulator reads the text without ``SYNTHESIS``, so those values are configurations of the
target as much as the synthesis reading's.

:func:`reading_parameterizations` finds the macros that decide such a value: those tested by
a conditional of a file above the target (a file of a module that instantiates it, at any
depth, a package those use, a header they include, the prelude; the target's own text left
out: the configuration rules read it) whose branches hold what can set a parameter (a
``parameter``/``localparam``/``defparam``, a parameter list ``#(``, a package, a function, a
type, an instance of the target or of a module above it, an ```include``, a ```define`` of
a macro a parameter uses or another such conditional tests). The readings are the synthesis
reading, the simulators' (``SYNTHESIS`` and ``YOSYS`` undefined, alone and with each
simulator macro found), each with every assignment of the other builds' macros found;
readings that read those files alike are elaborated once. More than :data:`MAX_READINGS`
leaves the change unchecked (fail closed), naming the file and macro.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rtlopt.frontend._params import Parameterization, parameterizations
from rtlopt.frontend._sources import SYNTHESIS_PRELUDE
from rtlopt.frontend.model import Design

__all__ = ["MAX_READINGS", "ReadingParams", "reading_parameterizations", "reading_macros"]

log = logging.getLogger(__name__)

#: At most this many readings besides the synthesis one are elaborated.
MAX_READINGS = 16

_COND = re.compile(r"`(ifdef|ifndef|elsif|else|endif)\b[ \t]*([A-Za-z_][\w$]*)?")
_DEFINE = re.compile(r"`define[ \t]+([A-Za-z_][\w$]*)")
_DEFINITION = re.compile(r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)((?:[^\n]*\\\n)*[^\n]*)", re.M)
_USE = re.compile(r"`([A-Za-z_][\w$]*)")
_PARAM_HEAD = re.compile(r"\s*(?:\(\*.*?\*\)\s*)*(?:parameter|localparam|defparam|typedef)\b")


@dataclasses.dataclass(frozen=True)
class ReadingParams:
    """The parameterizations only other readings elaborate (``where`` names the reading), or
    why they cannot be known (``unchecked``: the change is rejected)."""

    extra: tuple[Parameterization, ...] = ()
    unchecked: str = ""
    readings: int = 0


_CACHE: dict[Any, tuple[object, ReadingParams]] = {}


def reading_parameterizations(design: Design, found: Iterable[Parameterization]) -> ReadingParams:
    """The parameterizations of the target other readings elaborate beyond ``found`` (the
    synthesis reading's), once per design."""
    from rtlopt.evaluate._memo import per_design

    return per_design(_CACHE, design, lambda: _compute(design, list(found)))


def _compute(design: Design, found: list[Parameterization]) -> ReadingParams:
    from rtlopt.evaluate._configs import SIMULATOR_MACROS, SYNTHESIS_MACROS, active_tokens

    try:
        files, above = _files_above(design)
        macros, where = reading_macros(design, files, above)
    except (OSError, ValueError) as exc:
        return ReadingParams(unchecked=f"the files above the target cannot be read ({exc})")
    log.debug("%s: macros that choose what a parent passes: %s", design.target.name, macros)
    if not macros:
        return ReadingParams()
    base = dict(design.defines)
    tools: list[tuple[str, dict[str, str]]] = [("", base)]
    if macros & (SYNTHESIS_MACROS | SIMULATOR_MACROS):
        plain = {k: v for k, v in base.items() if k not in SYNTHESIS_MACROS}
        tools.append(("SYNTHESIS undefined", plain))
        for k in sorted(macros & SIMULATOR_MACROS):
            tools.append((f"{k} defined, SYNTHESIS undefined", {**plain, k: ""}))
    others = sorted(macros - SYNTHESIS_MACROS - SIMULATOR_MACROS - set(base))
    total = len(tools) * 2 ** len(others) - 1
    if total > MAX_READINGS:
        m = (others or sorted(macros))[-1]
        return ReadingParams(
            unchecked=(
                f"{where.get(m, '?')} tests macro {m} where a parent may choose the target's "
                f"parameters, and the readings to elaborate ({total}: the simulators' and "
                f"every assignment of {', '.join(others) or 'no other macro'}) exceed "
                f"{MAX_READINGS}: the parameters other readings pass to the target are not "
                "checked"
            )
        )
    seen: set[tuple[tuple[str, ...], ...]] = set()
    known = {pz: list(pz.where) for pz in found}
    extra: dict[Parameterization, list[str]] = {}
    n = 0
    for (label, defs), bits in itertools.product(
        tools, itertools.product((0, 1), repeat=len(others))
    ):
        on = [m for m, b in zip(others, bits, strict=True) if b]
        defines = {**defs, **dict.fromkeys(on, "")}
        try:
            key = tuple(tuple(active_tokens(code, defines)) for _, code in files)
        except ValueError:
            return ReadingParams(
                unchecked="the conditionals of a file above the target do not balance"
            )
        if key in seen:
            continue
        seen.add(key)
        if not label and not on:
            continue  # the synthesis reading itself: ``found``
        n += 1
        name = "; ".join([*([label] if label else []), *(f"{m} defined" for m in on)])
        # a simulator's reading keeps its own macro (the synthesis prelude undefines it)
        prelude = (
            design.prelude
            if not label
            else tuple(p for p in design.prelude if p.resolve() != SYNTHESIS_PRELUDE)
        )
        sources = dataclasses.replace(design.sources, defines=defines, prelude=prelude)
        got = parameterizations(dataclasses.replace(design, sources=sources), defaults=False)
        log.info(
            "%s: the reading with %s: %d parameterization(s)", design.target.name, name, len(got)
        )
        for pz in got:
            if pz in known:
                continue
            extra.setdefault(pz, []).extend(f"{w} (with {name})" for w in pz.where)
    return ReadingParams(
        tuple(Parameterization(p.values, tuple(w)) for p, w in extra.items()), "", n
    )


def _files_above(design: Design) -> tuple[list[tuple[Path, str]], set[str]]:
    """The files above the target (comments blanked, the target module's own text blanked):
    the prelude, the files of the modules that instantiate it at any depth, the packages they
    name, and the headers they include; and the names of those modules."""
    from rtlopt.evaluate._configs import read_files
    from rtlopt.evaluate._macros import package_files
    from rtlopt.verilog import module_spans

    known = list(dict.fromkeys([*design.prelude, *design.sources.files, *design.closure]))
    texts = dict(read_files(known, ()))
    spans = {p: module_spans(code) for p, code in texts.items()}
    above = {design.target.name}
    bodies = [(s.name, p, texts[p][s.start : s.end]) for p, ss in spans.items() for s in ss]
    grew = True
    while grew:
        grew = False
        for mod, _, body in bodies:
            if mod in above:
                continue
            if any(a in body and _instance(body, a) for a in sorted(above)):
                above.add(mod)
                grew = True
    above.discard(design.target.name)
    mine = [(p, body) for mod, p, body in bodies if mod in above]
    chosen = [*design.prelude, *(p for p, _ in mine)]
    chosen += package_files(design, [*(body for _, body in mine), design.target.text()])
    target = design.target.file.resolve()
    out: list[tuple[Path, str]] = []
    for p, code in read_files(dict.fromkeys(chosen), design.include_dirs):
        if p.resolve() == target:
            for s in module_spans(code):
                if s.name == design.target.name:
                    code = (
                        code[: s.start]
                        + re.sub(r"[^\n]", " ", code[s.start : s.end])
                        + code[s.end :]
                    )
        out.append((p, code))
    out.sort(key=lambda pc: str(pc[0]))
    return out, above


def reading_macros(
    design: Design, files: list[tuple[Path, str]], above: Iterable[str] = ()
) -> tuple[set[str], dict[str, str]]:
    """The macros tested by a conditional of ``files`` whose branches hold what can set a
    parameter a parent passes (include guards aside), each with the file that tests it;
    ``above``: the modules above the target."""
    from rtlopt.evaluate._configs import include_guard, tested_macros
    from rtlopt.frontend._param_deps import _KEYWORDS

    names = {design.target.name, *above}
    bodies: dict[str, str] = {}
    for _, code in files:
        for m in _DEFINITION.finditer(code):
            bodies.setdefault(m.group(1), m.group(2))
    plain = [(p, _STRINGS.sub('""', _without_bodies(code))) for p, code in files]
    # the names and macros a parameter's value may read: parameter declarations' values,
    # parameter lists, generate conditions, and the bodies of the macros they use
    ids: set[str] = set()
    loose: set[str] = set()
    macros: set[str] = set()
    for _, code in plain:
        for text, generate in _parameter_contexts(code):
            named = set(_ID.findall(re.sub(r"(?<![\w$])[A-Za-z_][\w$]*\s*:(?!:)", " ", text)))
            (loose if generate else ids).update(named)
            macros |= set(_USE.findall(text))
    todo = list(macros)
    while todo:
        body = bodies.get(todo.pop(), "")
        ids |= set(_ID.findall(body))
        for u in set(_USE.findall(body)) - macros:
            macros.add(u)
            todo.append(u)
    ids -= _KEYWORDS
    # what those names reach: the declarations (types, functions, packages, constants,
    # signals) of any name a value reads, and what their texts read in turn; a branch inside
    # one of them (a struct's field, an enum's member) decides the value
    reached = _reached(plain, set(ids), macros, bodies)
    loose = (loose | ids) - _KEYWORDS
    headers = {p.name: code for p, code in plain}
    found: set[str] = set()
    where: dict[str, str] = {}
    for _ in range(4):  # a define relevant through another conditional's test
        before = len(found)
        for path, code in plain:
            guard = include_guard(code)
            spans = reached.get(path, [])
            for tested, text, start in _branches(code):
                inside = any(a < start + len(text) and start < b for a, b in spans)
                if inside or _relevant(
                    code, text, start, (names, ids, loose), macros | found, headers
                ):
                    for name in tested - {guard, ""}:
                        found.add(name)
                        where.setdefault(name, _rel(design, path))
        for k in sorted(macros | found):  # a conditional inside a macro body a value uses
            for name in tested_macros(bodies.get(k, "")) - found:
                found.add(name)
                where.setdefault(name, f"the body of macro {k}")
        if len(found) == before:
            break
    return found, where


_ID = re.compile(r"(?<![\w$`'])[A-Za-z_][\w$]*")


def _reached(
    plain: list[tuple[Path, str]], ids: set[str], macros: set[str], bodies: dict[str, str]
) -> dict[Path, list[tuple[int, int]]]:
    """The spans of the declarations a value's names reach, transitively: a type, a function,
    a constant named (``ids`` grows with the names their texts read, ``macros`` with the
    macros), and a signal an array query or ``type()`` names (its type and ranges)."""
    from rtlopt.frontend._param_deps import _KEYWORDS

    units = [(p, a, b, names, sig) for p, code in plain for a, b, names, sig in _units(code)]
    texts = dict(plain)
    queried = {n for _, code in plain for n in _queried(code, ids)}
    out: dict[Path, list[tuple[int, int]]] = {}
    taken: set[int] = set()
    grew = True
    while grew:
        grew = False
        for i, (p, a, b, names, sig) in enumerate(units):
            if i in taken or not names & (queried if sig else ids):
                continue
            taken.add(i)
            grew = True
            out.setdefault(p, []).append((a, b))
            text = texts[p][a:b]
            if sig:  # a signal: its type and ranges
                text = text.split("=")[0]
            elif "{" in text:  # a struct's or union's field names are no references
                text = _FIELD.sub(";", text)
            read = set(_ID.findall(_COND.sub(" ", text))) - _KEYWORDS
            ids |= read
            queried |= set(_queried(text, read))
            todo = [u for u in _USE.findall(text) if u not in macros]
            while todo:
                u = todo.pop()
                macros.add(u)
                ids |= set(_ID.findall(bodies.get(u, ""))) - _KEYWORDS
                todo += [v for v in _USE.findall(bodies.get(u, "")) if v not in macros]
    return out


#: An array query or ``type()`` and its argument (a signal's declaration decides its value).
_QUERY = re.compile(
    r"(?:\$(?:bits|size|left|right|high|low|increment|dimensions|unpacked_dimensions)|"
    r"\btype)\s*\(\s*([A-Za-z_][\w$]*)"
)


def _queried(code: str, ids: set[str]) -> list[str]:
    """The names array queries in ``code`` ask about, where ``code`` holds a value (its
    parameter contexts) or is a reached declaration (every query in it: ``ids`` is what
    it reads)."""
    return [m.group(1) for m in _QUERY.finditer(code) if m.group(1) in ids]


#: A field's name at the end of its declaration.
_FIELD = re.compile(r"[A-Za-z_][\w$]*\s*(?:\[[^\]]*\]\s*)*;")
_UNIT_HEADS = re.compile(r"\b(?:(typedef)|(function|task)|(parameter|localparam))\b")
_LAST_NAME = re.compile(r"([A-Za-z_][\w$]*)\s*(?:\[[^\]]*\]\s*)*$")
_ASSIGNED = re.compile(r"([A-Za-z_][\w$]*)\s*(?:\[[^\]]*\]\s*)*=(?!=)")


def _units(code: str) -> list[tuple[int, int, set[str], bool]]:
    """Each declaration of ``code`` with the names it declares: a ``typedef`` (an enum's
    members too), a function or task, a parameter statement; and (marked true) each
    statement that declares signals."""
    out: list[tuple[int, int, set[str], bool]] = []
    for m in _UNIT_HEADS.finditer(code):
        if m.group(1):
            stmt = _statement(code, m.end())
            names = set(_LAST_NAME.findall(re.sub(r"\{.*\}", " ", stmt, flags=re.S)))
            if re.search(r"\benum\b", stmt):
                names |= set(_ID.findall(stmt))
            out.append((m.start(), m.end() + len(stmt), names, False))
        elif m.group(2):
            end = code.find(f"end{m.group(2)}", m.end())
            head = re.match(r"[^;(]*?([A-Za-z_][\w$]*)\s*[(;]", code[m.end() :])
            end = len(code) if end < 0 else end
            out.append((m.start(), end, {head.group(1)} if head else set(), False))
        else:
            stmt = _statement(code, m.end())
            out.append((m.start(), m.end() + len(stmt), set(_ASSIGNED.findall(stmt)), False))
    at = 0
    for chunk in code.split(";"):
        chunk = _COND.sub(lambda d: " " * len(d.group(0)), chunk)
        if _DECLARATION.match(chunk + ";"):
            names = set(_SIGNAL.findall(chunk.split("=")[0] if "(" not in chunk else chunk))
            out.append((at, at + len(chunk), names, True))
        at += len(chunk) + 1
    return out


_KEYWORD_OPEN = re.compile(r"\b(?:if|case|casez|casex|for)\s*\(")
_INCLUDED = re.compile(r'`include\s*[<"]([^>"\n]+)[>"]')


def _without_bodies(code: str) -> str:
    """``code`` with each ```define``'s body blanked (its conditionals are read where a
    value uses the macro)."""
    return _DEFINITION.sub(
        lambda m: f"`define {m.group(1)}" + re.sub(r"[^\n]", " ", m.group(2)), code
    )


def _parameter_contexts(code: str) -> list[tuple[str, bool]]:
    """The texts of ``code`` a parameter's value may read: a parameter or localparam
    declaration's values (after its first ``=``), a ``defparam``, a ``#(`` list; and (marked
    true) the condition of an ``if``/``case``/``for`` (a generate condition, or a procedural
    one: only a declaration of a constant is compared with those)."""
    out: list[tuple[str, bool]] = []
    for m in re.finditer(r"\b(?:parameter|localparam|defparam)\b", code):
        text = _statement(code, m.end())
        if "=" in text:  # the type (the declared name left out) and the value
            head, _, value = text.partition("=")
            text = (
                re.sub(r"[A-Za-z_][\w$]*(\s*(?:\[[^\]]*\]\s*)*)$", r"\1", head.rstrip())
                + " "
                + value
            )
        out.append((text, False))
    for m in re.finditer(r"#\s*\(", code):
        out.append((_balanced(code, m.end() - 1), False))
    for m in _KEYWORD_OPEN.finditer(code):
        out.append((_balanced(code, m.end() - 1), True))
    return out


def _statement(code: str, at: int) -> str:
    """The text from ``at`` to the ``;`` or the unbalanced ``)`` that ends its statement (a
    parameter of a header's list ends at the list's end)."""
    depth = 0
    for i in range(at, min(len(code), at + 20000)):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return code[at:i]
        elif c == ";" and depth <= 0:
            return code[at:i]
    return code[at : at + 20000]


def _balanced(code: str, at: int) -> str:
    """The parenthesized text that opens at ``at``."""
    depth = 0
    for i in range(at, min(len(code), at + 20000)):
        c = code[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return code[at : i + 1]
    return code[at : at + 20000]


def _branches(code: str) -> list[tuple[set[str], str, int]]:
    """Each stretch of ``code`` between two conditional directives inside a conditional: the
    macros of every conditional open there (their ```elsif``s too), its text and start."""
    from rtlopt.evaluate._configs import open_conditionals

    out: list[tuple[set[str], str, int]] = []
    at = 0
    for d, stack in open_conditionals(code, _COND):
        if stack and code[at : d.start()].strip():
            out.append(({m for c in stack for m in c}, code[at : d.start()], at))
        at = d.end()
    return out


def _relevant(
    code: str,
    text: str,
    start: int,
    names: tuple[set[str], set[str], set[str]],
    macros: set[str],
    headers: dict[str, str],
) -> bool:
    """Whether a branch's ``text`` (at ``start`` in ``code``) can set a value a parent passes:
    it instantiates a module above the target, names what a parameter's value reads
    (``names``: the modules above, the names parameter values and lists read, and those
    conditions read, which count only beside a declaration of a constant), defines or uses a
    macro one reads (``macros``), holds a ``defparam``, an ``import``, ```undef``, or an
    ```include`` of a header that does, or it stands inside a parameter declaration or list,
    or in the body of a function a parameter's value calls. A module the branch defines
    whole that is not above the target (a tracer's) counts only by its name."""
    above, ids, loose = names
    text = _MODULE_TEXT.sub(lambda m: m.group(0) if m.group(1) in above else " ", text)
    if _STRUCTURE.search(text):
        return True
    words = set(_ID.findall(text))
    if any(_instance(text, m) for m in words & above):
        return True
    types = {m for d in _TYPES for m in d.findall(text)}
    if _declared(text) & loose or (_signals(text) | types) & ids:
        return True
    if {*_DEFINE.findall(text), *_USE.findall(text)} & macros:
        return True
    for h in _INCLUDED.findall(text):
        header = headers.get(Path(h).name)
        if header is None or _relevant(header, header, 0, names, macros, {}):
            return True
    if _enclosing(code, start) in ids - {""}:  # a function a parameter's value calls
        return True
    return _in_parameter_context(code, start)


#: Declarations of constants (a condition may compare with them).
_DECLARES = (
    re.compile(r"\b(?:parameter|localparam)\b[^;=]*?([A-Za-z_][\w$]*)\s*(?:\[[^\]]*\]\s*)*=(?!=)"),
    re.compile(r",\s*([A-Za-z_][\w$]*)\s*(?:\[[^\]]*\]\s*)*=(?!=)"),
    re.compile(r"\b(?:package|let|import)\s+([A-Za-z_][\w$]*)"),
)
#: Declarations of types and functions (a parameter's value or type may name them).
_TYPES = (
    re.compile(r"\btypedef\b[^;{]*?([A-Za-z_][\w$]*)\s*(?:\[[^\]]*\]\s*)*;"),
    re.compile(r"\}\s*([A-Za-z_][\w$]*)\s*(?:\[[^\]]*\]\s*)*;"),
    re.compile(r"\bfunction\b[^;(]*?([A-Za-z_][\w$]*)\s*[(;]"),
)
_SIGNAL = re.compile(r"(?<![\w$.])([A-Za-z_][\w$]*)\s*(?:\[[^\]]*\]\s*)*(?:[;,=)]|$)")
_DECLARATION = re.compile(
    r"\s*(?:(?:input|output|inout|ref|const|var|static|automatic|signed|unsigned|wire|reg|"
    r"logic|bit|byte|int|integer|shortint|longint|real|realtime|time|string|tri|wand|wor)\b|"
    r"(?!(?:assign|always\w*|initial|final|if|else|case[xz]?|for|foreach|while|do|return|"
    r"begin|end\w*|force|release|wait|disable|repeat|forever)\b)"
    r"[A-Za-z_][\w$]*(?:::[A-Za-z_][\w$]*)?\s*(?:\[[^\]]*\]\s*)*[A-Za-z_][\w$]*\s*(?:\[[^\]]*\]\s*)*[;,=]|$)"
)
_STRINGS = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _declared(text: str) -> set[str]:
    """The constants, types, functions and packages ``text`` declares (an enum: its words)."""
    out = {m for d in _DECLARES for m in d.findall(text)}
    if re.search(r"\benum\b", text):
        out |= set(_ID.findall(text))
    return out


def _signals(text: str) -> set[str]:
    """The names the declarations of ``text`` may declare (each statement that opens with a
    type or a direction, or ``type name``: a name before ``;``, ``,``, ``=``, ``)``)."""
    out: set[str] = set()
    for chunk in text.split(";"):
        if _DECLARATION.match(chunk):
            out |= set(_SIGNAL.findall(chunk.split("=")[0] if "(" not in chunk else chunk))
    return out


def _instance(text: str, name: str) -> bool:
    """Whether ``text`` instantiates module ``name`` (or defines it)."""
    n = re.escape(name)
    return (
        re.search(rf"(?<![\w$`.]){n}\s*(?:#\s*\(|[A-Za-z_\\][\w$]*\s*[\[(])", text) is not None
        or re.search(rf"\bmodule\s+{n}(?![\w$])", text) is not None
    )


_STRUCTURE = re.compile(r"\b(?:defparam|config|import)\b|`(?:undef|undefineall)\b")
#: A module's whole text (to its ``endmodule``, or the branch's end).
_MODULE_TEXT = re.compile(
    r"\b(?:module|macromodule)\s+(?:(?:static|automatic)\s+)?([A-Za-z_][\w$]*)"
    r"(?:.*?\bendmodule\b|.*\Z)",
    re.S,
)
_FUNCTION = re.compile(
    r"\b(?:function|let)\b(?:[^;(]*?)([A-Za-z_][\w$]*)\s*[(;=]|\b(?:endfunction|package|endpackage)\b"
)


def _enclosing(code: str, at: int) -> str:
    """The function (or ``let``) whose body ``at`` stands in, or ""."""
    name = ""
    for m in _FUNCTION.finditer(code, 0, at):
        name = m.group(1) or ""
    return name


def _in_parameter_context(code: str, at: int) -> bool:
    """Whether ``at`` stands in a statement that declares a parameter, or inside ``#(``."""
    s = code.rfind(";", 0, at) + 1
    head = _COND.sub(" ", code[s:at])
    if _PARAM_HEAD.match(head):
        return True
    depth: list[bool] = []
    for i, c in enumerate(head):
        if c == "(":
            depth.append(head[:i].rstrip().endswith("#"))
        elif c == ")" and depth:
            depth.pop()
    return any(depth)


def _rel(design: Design, f: Path) -> str:
    try:
        return str(f.resolve().relative_to(design.root.resolve()))
    except ValueError:
        return str(f)
