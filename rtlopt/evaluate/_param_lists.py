"""Parameter settings rtlopt cannot read by name: value lists, computed names, package copies.

:mod:`._param_mentions` fails closed on a watched parameter's *name*; a setting need not
name it. Three classes, each fail-closed:

* a parameter value list of an instance of the target (or of a module above it, which may
  hand a value down: elaborated with the list to see) in any text slang does not elaborate
  whole (:func:`instance_lists`): a
  Verilog ``tgt #(37)`` of any file name (``.vt``, a netlist), a VHDL ``generic map (37)``,
  a SystemVerilog ``config`` block's ``use #(...)``, a list holding a text macro
  (```TBW``: slang reads an undefined macro as nothing, the defaults). Each list is read
  as a setting when every value is a literal and the target's entries are known (by
  position: the target's non-local parameters in order; by name, any case), so the
  configuration it sets is checked; else its value is "" (the change is unchecked).
* a recognised setting form whose name part is no literal (:func:`computed_name`): a
  runner's ``parameters=`` bound to anything but a dictionary display of quoted names
  (a comprehension, ``**``, a call), an option ``-G``/``-P``/``-pvalue+``/``-defparam``
  whose name is a variable, a format or an f-string field (``-G$(N)=``, ``f"-G{n}={v}"``,
  ``"-G" + n``).
* a package the target's text depends on (``p::``, ``import p``, through packages) that
  the repository's texts define more than once with different texts
  (:func:`package_copies`): another build may compile the other copy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rtlopt.frontend.model import Design

__all__ = [
    "ListSetting",
    "computed_name",
    "instance_lists",
    "owners",
    "package_copies",
    "unelaborated",
]

_VHDL = frozenset({".vhd", ".vhdl", ".vho"})
_VERILOG_NUMBER = re.compile(
    r"[+-]?\d[\d_]*|\d*\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ?_]+|[+-]?\d+\.\d+"
)
#: A parameter's declaration to its separator or line end (a value a list may hand on).
_DECLARATION = re.compile(r"\b(?:parameter|localparam)\b[^;,)\n]*")
_HEADER = re.compile(r"\b(?:module|macromodule|program|interface|class)\s+\Z")
_CONFIG_USE = re.compile(r"\buse\b[^;#]*#\s*\(")
_CONFIG = re.compile(r"\bconfig\s+[A-Za-z_][\w$]*\s*;(.*?)\bendconfig\b", re.S)


@dataclass(frozen=True)
class ListSetting:
    """A parameter value list: where it starts, its text, and its values for the target
    (``(name, literal)``; a literal "" where it cannot be read), whether it is surely the
    target's (an instance of it) and the top above it whose parameters it sets ("")."""

    at: int
    end: int
    form: str
    values: tuple[tuple[str, str], ...]
    exact: bool
    top: str = ""


def _balanced(text: str, at: int) -> str:
    """The text inside the parentheses that open at ``at``."""
    depth = 0
    for i in range(at, min(len(text), at + 20000)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[at + 1 : i]
    return text[at + 1 : at + 20000]


def _split(body: str) -> list[str]:
    """The entries of a list at its top level (commas inside brackets do not split)."""
    out, depth, last = [], 0, 0
    for i, c in enumerate(body):
        depth += 1 if c in "([{" else -1 if c in ")]}" else 0
        if c == "," and depth == 0:
            out.append(body[last:i].strip())
            last = i + 1
    out.append(body[last:].strip())
    return [e for e in out if e]


def _literal(value: str) -> str:
    """``value`` when it is a Verilog or VHDL number literal (no macro, no name), else ""."""
    v = value.strip()
    if _VERILOG_NUMBER.fullmatch(v):
        return v.replace("_", "") if "'" not in v else v
    return ""


def _entries(design: Design, owner: str, body: str, vhdl: bool) -> tuple[tuple[str, str], ...]:
    """The values a list sets on ``owner``'s parameters: by position (its non-local
    parameters in order), by name (``.W(37)``, ``W => 37``: any case); an entry that cannot
    be read (a name not known, a macro, an expression) as ``(name or "?", "")``."""
    mod = design.target if owner == design.target.name else design.modules.get(owner)
    params = [p.name for p in mod.parameters if not p.local] if mod is not None else []
    body = _uncommented(body, vhdl)
    lower = {p.lower(): p for p in params}
    out: list[tuple[str, str]] = []
    for i, e in enumerate(_split(body)):
        named = re.fullmatch(r"\.\s*([A-Za-z_][\w$]*)\s*\((.*)\)", e, re.S) or (
            re.fullmatch(r"([A-Za-z_]\w*)\s*=>\s*(.*)", e, re.S) if vhdl else None
        )
        if named:
            name = lower.get(named.group(1).lower())
            if name is None and named.group(1).lower() not in lower and mod is not None:
                continue  # a name the module does not declare: not one of its settings
            out.append((name or named.group(1), _literal(named.group(2))))
        else:
            name = params[i] if i < len(params) else "?"
            out.append((name, _literal(e) if name != "?" else ""))
    return tuple(out)


def _uncommented(body: str, vhdl: bool) -> str:
    """``body`` with its comments blanked (Verilog ``//`` and ``/* */``, VHDL ``--``): a
    comment in a value list sets nothing (picosoc's testbench explains its ``MEM_WORDS``).
    A string holding a comment marker loses its rest: its value then reads as no literal."""
    if vhdl:
        return re.sub(r"--[^\n]*", " ", body)
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", body, flags=re.S)


def _bare(owner: str, text: str, vhdl: bool) -> list[re.Match[str]]:
    """Verilog-1995's one value without parentheses: ``tgt #37 u (...)``, ``tgt #`W u``."""
    if vhdl:
        return []
    q = re.escape(owner)
    rx = re.compile(rf"(?<![\w$.]){q}\s*#\s*([^\s(][^\s(]*)\s+[A-Za-z_\\][\w$]*\s*[\[(]")
    return list(rx.finditer(text))


_OWNERS: dict[int, tuple[object, list[str]]] = {}


def owners(design: Design, tops: list[str]) -> list[str]:
    """The target, the tops that hand it parameters, and every module of the design above
    it (its instance's list may hand a value down: the list is elaborated to see)."""
    hit = _OWNERS.get(id(design))
    if hit is not None and hit[0] is design:
        return [*hit[1], *(t for t in tops if t not in hit[1])]
    out = [design.target.name, *tops]
    todo = [design.target.name]
    while todo:
        name = todo.pop()
        for m in design.modules.values():
            if name in m.instances and m.name not in out:
                out.append(m.name)
                todo.append(m.name)
    if len(_OWNERS) > 8:
        _OWNERS.clear()
    _OWNERS[id(design)] = (design, out)
    return out


def instance_lists(
    design: Design, path: Path, text: str, tops: list[str], *, elaborated: bool
) -> list[ListSetting]:
    """Every parameter value list of an instance of the target or of a top above it
    (``tops``) in ``text`` slang does not read whole: in a file it does not elaborate
    (``elaborated`` false) every list, in one it does a list holding a macro; and every
    ``config`` block's ``use ... #(...)`` list (``exact`` false: its instance path is not
    resolved, the values are tried on the target)."""
    out: list[ListSetting] = []
    vhdl = path.suffix.lower() in _VHDL
    for owner in owners(design, tops):
        q = re.escape(owner)
        if vhdl:
            rx = re.compile(rf"(?<![\w$]){q}(?:\s*\(\s*\w+\s*\))?\s+generic\s+map\s*\(", re.I)
        else:
            rx = re.compile(rf"(?<![\w$.]){q}\s*#\s*\(")
        for m in [*rx.finditer(text), *_bare(owner, text, vhdl)]:
            if _HEADER.search(text, max(0, m.start() - 60), m.start()):
                continue  # the module's own declaration (a copy of it), no instance
            body = m.group(1) if m.re.groups else _balanced(text, m.end() - 1)
            if not body.strip() or (elaborated and "`" not in body):
                continue
            values = _entries(design, owner, body, vhdl)
            top = "" if owner == design.target.name else owner
            if top and any(n == "?" for n, _ in values):
                values = tuple((n, "") for n, _ in values)  # more values than it declares
            form = " ".join(text[m.start() : m.end() + len(body) + 1].split())[:80]
            if values:
                end = m.end() + (len(body) if not m.re.groups else 0)
                out.append(ListSetting(m.start(), end, form, values, True, top))
    named = vhdl and re.search(rf"(?<![\w$]){re.escape(design.target.name)}(?![\w$])", text, re.I)
    if named:  # a component renamed by a configuration: every other generic map
        known = {ls.at for ls in out}
        for m in re.finditer(r"\bgeneric\s+map\s*\(", text, re.I):
            body = _balanced(text, m.end() - 1)
            if any(a <= m.start() <= a + 200 for a in known) or not body.strip():
                continue
            values = _entries(design, design.target.name, body, True)
            form = " ".join(text[m.start() : m.end() + len(body) + 1].split())[:80]
            if values:
                out.append(ListSetting(m.start(), m.end() + len(body), form, values, False))
    for c in _CONFIG.finditer(text) if not vhdl else ():
        for u in _CONFIG_USE.finditer(text, c.start(1), c.end(1)):
            body = _balanced(text, u.end() - 1)
            values = _entries(design, design.target.name, body, False)
            form = " ".join(text[u.start() : u.end() + len(body) + 1].split())[:80]
            if values and any(not v for _, v in values):
                values = tuple((n, "") for n, _ in values)
            if values:
                out.append(ListSetting(u.start(), u.end() + len(body), form, values, False))
    return out


#: A parameter option whose name part is computed: ``-G$(N)=``, ``-G{n}=``, ``-G%s=``,
#: ``-Ptb.$(N)=``, ``+pvalue+${N}=``, ``-defparam $p=``, ``"-G" + n``.
_COMPUTED_OPTION = re.compile(
    r"(?:(?<![\w-])(?:-[GP]|[-+]pvalue\+|-defparam\s+|-chparam\s+)"
    r"(?:[\w$]+\.)*(?:[$%{@<]|\[)"
    r"|(?<![\w-])-[GP][\"']\s*(?:\+|%|\.format|,\s*[A-Za-z_]))"
)
_PARAMETERS = re.compile(r"(?<![\w.])(?:parameters\s*=(?!=)|[\"']parameters[\"']\s*:)\s*")


def computed_name(design: Design, path: Path, text: str) -> tuple[int, str]:
    """The offset and text of the first setting form in ``text`` whose parameter name is
    no literal (see the module's docstring), or ``(-1, "")``."""
    for m in _COMPUTED_OPTION.finditer(text):
        return m.start(), _line(text, m.start())
    if "parameters" not in text:
        return -1, ""
    for m in _PARAMETERS.finditer(text):
        value = text[m.end() :]
        if _literal_dict(value):
            continue
        var = re.match(r"([A-Za-z_]\w*)\s*[,)\n}]", value)
        if var and var.group(1) in ("None", "null", "dict"):
            continue
        if var and _variable_literal(text, var.group(1)):
            continue
        return m.start(), _line(text, m.start())
    return -1, ""


def _literal_dict(value: str) -> bool:
    """Whether ``value`` starts with a dictionary display whose keys are quoted names (no
    comprehension, no ``**``), or ``dict(...)`` of keywords, or an empty one."""
    if value[:1] == "[":  # a list of names or of "N=V" strings: the mention rule reads them
        return not re.search(r"\bfor\b|\*", _braced(value))
    if value[:1] == "{":
        body = _braced(value)
        if re.search(r"\bfor\b|\*\*", body):
            return False
        return all(re.match(r"[\"'][A-Za-z_][\w$]*[\"']\s*:", e) for e in _split(body))
    if re.match(r"dict\s*\(", value):
        body = _balanced(value, value.index("("))
        if re.search(r"\bfor\b|\*\*", body):
            return False
        if body.strip()[:1] == "[":  # dict([("W", 37)]): pairs of a quoted name and a value
            pairs = _split(_braced(body.strip()))
            return all(re.match(r"\(\s*[\"'][A-Za-z_][\w$]*[\"']\s*,", e) for e in pairs)
        return all(re.match(r"[A-Za-z_]\w*\s*=", e) for e in _split(body))
    return False


def _braced(value: str) -> str:
    depth = 0
    for i, c in enumerate(value[:20000]):
        depth += 1 if c in "([{" else -1 if c in ")]}" else 0
        if depth == 0:
            return value[1:i]
    return value[1:20000]


def _variable_literal(text: str, var: str) -> bool:
    """Whether every binding of ``var`` in ``text`` is a literal dictionary and every
    change of it names a quoted key (``var["W"] = 37``, ``var.update({...})``)."""
    q = re.escape(var)
    binds = [  # not the keyword that hands it on (``parameters=parameters``)
        b
        for b in re.finditer(rf"(?<![\w.]){q}\s*(?::[^=\n]*)?=(?!=)\s*", text)
        if not re.match(rf"{q}\s*[,)]", text[b.end() :])
    ]
    if not binds or not all(_literal_dict(text[b.end() :]) for b in binds):
        return False
    for m in re.finditer(rf"(?<![\w.]){q}\s*(\[|\.\s*(\w+)\s*\()", text):
        if m.group(1) == "[":
            if not re.match(r"\[\s*[\"'][A-Za-z_][\w$]*[\"']\s*\]", text[m.end() - 1 :]):
                return False
        elif m.group(2) == "update":
            arg = text[m.end() :]
            if not _literal_dict(arg) and not re.match(r"(?:[A-Za-z_]\w*\s*=[^,)]*,?\s*)+\)", arg):
                return False
        elif m.group(2) not in ("get", "items", "keys", "values", "copy"):
            return False
    return re.search(rf"\*\*\s*{q}\b|\b(?:setattr|exec|eval)\s*\(", text) is None


def _line(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return " ".join(text[start : end if end >= 0 else len(text)].split())[:80]


_PACKAGE = re.compile(r"\bpackage\s+(?:automatic\s+|static\s+)?([A-Za-z_][\w$]*)\s*;")
_UNIT_IMPORT = re.compile(r"^import\s+([A-Za-z_][\w$]*)\s*::", re.M)
_USES = re.compile(r"\b([A-Za-z_][\w$]*)\s*::")


def package_copies(design: Design, texts: list[tuple[Path, str]]) -> str:
    """Why the change is unchecked where a package the target's text depends on (its
    ``p::`` names and imports, through the packages it reaches) is defined more than once
    in the repository's ``texts`` with different texts, or ""."""
    defs: dict[str, dict[str, Path]] = {}
    for path, text in texts:
        for m in _PACKAGE.finditer(text):
            end = re.compile(r"\bendpackage\b").search(text, m.end())
            body = " ".join(text[m.start() : end.end() if end else len(text)].split())
            defs.setdefault(m.group(1), {}).setdefault(body, path)
    try:
        own = design.target.file.read_text(errors="replace")  # file-level imports too
    except OSError:
        return ""
    seen: set[str] = set()
    todo = set(_USES.findall(own))
    for _, text in texts:  # a compilation unit's imports reach every module after them
        todo |= {m.group(1) for m in _UNIT_IMPORT.finditer(text)}
    while todo:
        name = todo.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        copies = defs[name]
        if len(copies) > 1:
            a, b = list(copies.values())[:2]
            return (
                f"package {name}, which {design.target.name}'s parameters may depend on, is "
                f"defined differently in {_rel(design, a)} and {_rel(design, b)}; a build "
                "that compiles the other copy gives the target other values, which are not "
                "checked: keep one definition of the package in the repository, or give the "
                "copies different names"
            )
        for body in copies:
            todo |= set(_USES.findall(body))
    return ""


def _rel(design: Design, f: Path) -> str:
    try:
        return f.resolve().relative_to(Path(design.root).resolve()).as_posix()
    except ValueError:
        return f.name


def unelaborated(design: Design, texts: list[tuple[Path, str]]) -> str:
    """Why the change is unchecked where a text slang elaborates (``texts``) holds an
    instance of the target or of a module above it with a parameter value list, and slang
    reports an error inside such a list or a parameter's declaration of that text (an
    undefined macro, a construct it cannot read): its
    elaboration's values are not the ones a simulator builds, so "the configurations the
    repository uses" would miss them; or ""."""
    from rtlopt.frontend._params import _compile

    lists: dict[Path, list[ListSetting]] = {}
    spans: dict[Path, list[tuple[int, int]]] = {}
    for path, text in texts:
        got = [ls for ls in instance_lists(design, path, text, [], elaborated=False) if ls.exact]
        if got:
            lists[path.resolve()] = got
            spans[path.resolve()] = [(ls.at, ls.end + 1) for ls in got] + [
                (m.start(), m.end()) for m in _DECLARATION.finditer(text)
            ]
    if not lists:
        return ""
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    try:
        comp = _compile(files, {}, design)
        comp.getRoot()
        sm = comp.sourceManager
        errors = [
            (Path(sm.getFileName(d.location)).resolve(), d, d.location.offset)
            for d in comp.getAllDiagnostics()
            if d.isError()
        ]
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        return f"slang cannot elaborate the repository ({exc}), and its texts set parameters"
    for path, diag, at in errors:
        if not any(a <= at < b for a, b in spans.get(path, ())):
            continue  # an error away from the values (a missing include's line)
        ls = min(lists[path], key=lambda x: abs(x.at - at))
        text = next(t for p, t in texts if p.resolve() == path)
        line = text.count("\n", 0, ls.at) + 1
        code = str(diag.code).removeprefix("DiagCode(").rstrip(")")
        return (
            f"{_rel(design, path)}:{line} sets parameters of an instance ({ls.form}), and slang "
            f"cannot elaborate that file without errors ({code}): "
            "the values a simulator builds it with are not known, so they are not checked: "
            "make the file elaborate with the repository's sources (the macros, packages "
            "and includes it names), or take it out of the repository if no build uses it"
        )
    return ""
