"""Whether the tools agree on the parameter values the repository gives the target.

The repository's configurations of the target (:func:`rtlopt.frontend.parameterizations`) are
slang's elaboration of its tops, and slang resolves some overrides otherwise than iverilog and
Yosys: a body ``parameter`` of a module with a header parameter list is local to slang (IEEE
1800) and overridable to both others, of two overrides of one parameter (a duplicate named
assignment, two defparams, ``#()`` and a defparam) each tool keeps another, and slang truncates
an unsized decimal literal wider than 32 bits. Wherever they differ, the proven values are not
the built ones. :func:`disagreements` names each such place (file and line), from:

- slang's diagnostics (errors and warnings) about parameters, defparams, literals and constant
  conversions in the files that define the target's parents;
- the constructs the tools read differently where they reach the target: two overrides of one
  parameter of one instance, an override of a body ``parameter`` of a module with a header
  parameter list, an unsized decimal literal above 32 bits in a parent;
- Yosys's own elaboration of the repository (:mod:`._param_yosys`): the parameter values of
  each module Yosys derives from the target, compared with slang's instances.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.frontend._slang import node_kind
from rtlopt.frontend._sources import SV_SUFFIXES
from rtlopt.frontend.model import Design
from rtlopt.verilog import blank_comments

__all__ = ["Agreement", "disagreements", "PARAMETER_DIAGNOSTICS"]

log = logging.getLogger(__name__)

#: slang diagnostics (errors and warnings) about parameters and overrides: one in a parent's
#: file may give the target other values in another tool.
PARAMETER_DIAGNOSTICS = re.compile(r"Param|Defparam|DefParam")
#: slang diagnostics about literals and conversions: counted inside a parameter's value only
#: (an override, a defparam, a parent's parameter declaration), not in the parents' logic.
VALUE_DIAGNOSTICS = re.compile(r"Overflow|Literal|Conversion|Truncat|Shift|Sign")

#: An unsized decimal literal (no size, no base before it; no fraction, exponent or time unit).
_DECIMAL = re.compile(r"(?<![\w$'.`])(\d[\d_]*)(?![\w$'.])")


@dataclass
class Agreement:
    """What :func:`disagreements` found.

    Attributes:
        reasons: Each place where the tools may give the target other values (file:line: why).
        notes: What was not cross-checked, and why (Yosys cannot read the repository).
        values: slang's values of every parameter (local ones too) of each instance of the
            target: ``{name: value}`` per instance, a value as ``(width, bits)`` (MSB first;
            None: no integer value).
    """

    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    values: list[dict[str, tuple[int, str] | None]] = field(default_factory=list)


def disagreements(design: Design, *, yosys: bool = True, timeout_s: float = 60.0) -> Agreement:
    """Where slang's values of the target's parameters may not be those every tool builds
    (see the module docstring); with ``yosys``, Yosys's values are compared with slang's."""
    from rtlopt.frontend._params import _compile

    name = design.target.name
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    out = Agreement()
    try:
        comp = _compile(files, {}, design)
        root = comp.getRoot()
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        log.info("parameter agreement of %s not checked: %s", name, exc)
        out.reasons.append(f"the parameter values are not cross-checked: slang failed ({exc})")
        return out
    sm = comp.sourceManager
    defparams: list[Any] = []
    chains = list(_walk(root, [], defparams))
    found = [c for c in chains if c[-1].body.definition.name == name]
    if not found:
        return out
    parents: set[str] = set()
    tops: list[str] = []
    for chain in found:
        tops.append(chain[0].name)
        for inst in chain[:-1]:
            parents.add(_file(sm, inst.body.definition.location))
    tops = list(dict.fromkeys(tops))
    ranges = _value_ranges(defparams, found, sm)
    out.reasons += _double_overrides(found, defparams, sm)
    out.reasons += _body_overrides(name, found, defparams, sm)
    out.reasons += _wide_decimals(ranges)
    out.reasons += _signal_queries(ranges, found)
    out.values = [_bits_of(chain[-1]) for chain in found]
    read = _yosys_files(design, [c for c in chains if c[0].name in tops], sm)
    out.reasons += _simulator_differences(design, read, tops, found, out, timeout_s)
    if yosys:
        from rtlopt.frontend._param_yosys import yosys_differences

        diff, note = yosys_differences(design, read, tops, out.values, timeout_s=timeout_s)
        out.reasons += diff
        if note and _overridden(found, defparams, sm) and not _systemverilog(read):
            # a cross-check that cannot run leaves the values unchecked (fail closed), unless
            # no instance of the target overrides a parameter (every tool builds the defaults)
            # or the repository is SystemVerilog Yosys cannot read: Yosys builds none of it
            # (rtlopt reads it through slang, as ``flow.systemverilog = "auto"`` decides)
            out.reasons.append(f"the parameter values are not cross-checked with Yosys: {note}")
        elif note:
            out.notes.append(f"parameter values not cross-checked with Yosys: {note}")
    out.reasons += _diagnostics(comp, parents, ranges)
    out.reasons = list(dict.fromkeys(out.reasons))
    return out


def _simulator_differences(
    design: Design,
    read: list[Path],
    tops: list[str],
    found: list[list[Any]],
    out: Agreement,
    timeout_s: float,
) -> list[str]:
    """Each instance of the target whose parameters iverilog builds with other values than
    slang's (:mod:`._param_iverilog`); a repository iverilog does not compile is a note (its
    simulator is another, and the harness compiles the target alone)."""
    from rtlopt.frontend._param_iverilog import differences, iverilog_values

    paths = [
        (str(c[-1].hierarchicalPath), sorted(k for k, x in v.items() if x is not None))
        for c, v in zip(found, out.values, strict=True)
    ]
    got = iverilog_values(design, read, tops, paths, timeout_s=timeout_s)
    if isinstance(got, str):
        out.notes.append(f"parameter values not cross-checked with iverilog: {got}")
        return []
    name = design.target.name
    reasons: list[str] = []
    for (path, _), ours, theirs in zip(paths, out.values, got, strict=True):
        diff = differences(ours, theirs)
        if diff:
            reasons.append(
                f"iverilog builds {name} at {path} with {', '.join(diff)}: the simulator "
                "builds a configuration that is not checked"
            )
    return reasons


def _walk(sym: Any, above: list[Any], defparams: list[Any]) -> Iterator[list[Any]]:
    """Each instance below ``sym`` with the instances above it (from a top), ``sym`` being a
    root, an instance, a generate block or an instance array; the defparams met on the way
    are added to ``defparams``."""
    k = node_kind(sym)
    if k == "Root":
        for top in sym.topInstances:
            yield from _walk(top, [], defparams)
        return
    if k == "Instance":
        chain = [*above, sym]
        yield chain
        members, above = sym.body, chain
    elif k in ("GenerateBlock", "GenerateBlockArray", "InstanceArray"):
        if k == "GenerateBlock" and sym.isUninstantiated:
            return
        members = sym
    else:
        return
    for m in members:
        mk = node_kind(m)
        if mk == "DefParam":
            defparams.append(m)
        elif mk in ("Instance", "GenerateBlock", "GenerateBlockArray", "InstanceArray"):
            yield from _walk(m, above, defparams)


def _file(sm: Any, loc: Any) -> str:
    return str(sm.getFullPath(loc.buffer))


def _where(sm: Any, loc: Any) -> str:
    return f"{_file(sm, loc)}:{sm.getLineNumber(loc)}"


def _diagnostics(comp: Any, files: set[str], ranges: Ranges) -> list[str]:
    """slang's diagnostics about parameters and overrides in ``files``, and about literals
    and conversions inside ``ranges``."""
    import pyslang

    sm = comp.sourceManager
    out: list[str] = []
    for d in comp.getAllDiagnostics():
        code = str(d.code)
        about = PARAMETER_DIAGNOSTICS.search(code)
        if not about and not VALUE_DIAGNOSTICS.search(code):
            continue
        try:
            path = _file(sm, d.location)
            offset = int(d.location.offset)
            lines = pyslang.DiagnosticEngine.reportAll(sm, [d]).strip().splitlines()
        except Exception:  # noqa: BLE001 - a diagnostic without a location
            continue
        inside = any(a <= offset < b for a, b in ranges.get(path, ()))
        if (about and path in files) or inside:
            text = next((ln for ln in lines if "error: " in ln or "warning: " in ln), lines[0])
            why = re.split(r"\b(?=(?:error|warning): )", text, maxsplit=1)[-1]
            out.append(f"{_where(sm, d.location)}: slang reports {why}")
    return out


#: Where parameter values are written: full path -> ``(start, end)`` offsets.
Ranges = dict[str, list[tuple[int, int]]]


def _value_ranges(defparams: list[Any], found: list[list[Any]], sm: Any) -> Ranges:
    """The text of every value that reaches the target's parameters: the ``#()`` of each
    instance on the way down from a top, every defparam, and the parameter declarations of
    the parents."""
    out: Ranges = {}

    def add(node: Any) -> None:
        if node is None:
            return
        r = node.sourceRange
        path = str(sm.getFullPath(r.start.buffer))
        if path:
            out.setdefault(path, []).append((int(r.start.offset), int(r.end.offset)))

    for chain in found:
        for inst in chain[1:]:
            syn = inst.syntax
            add(getattr(getattr(syn, "parent", None), "parameters", None) if syn else None)
        for inst in chain[:-1]:
            for p in inst.body.parameters:
                add(getattr(p.syntax, "parent", None) if p.syntax is not None else None)
    for dp in defparams:
        add(dp.syntax)
    return out


#: A number every tool reads alike: a decimal of at most 9 digits, or a sized binary, octal,
#: decimal or hexadecimal number without x, z or a fill.
_PLAIN = re.compile(r"\d{1,9}|\d+\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-F_]+")


def _systemverilog(files: Any) -> bool:
    """Whether any file Yosys was given is a SystemVerilog source."""
    return any(Path(str(f)).suffix.lower() in SV_SUFFIXES for f in files)


def _overridden(found: list[list[Any]], defparams: list[Any], sm: Any) -> bool:
    """Whether any instance of the target has a parameter override (a ``#()`` or a defparam)
    whose value the tools may evaluate differently: anything but a plain number
    (:data:`_PLAIN`), a name of a constant (an enum member, a parameter) whose value is one
    (a parent's parameter through its own instance's override, up to the top), or a type
    without fills or system functions."""
    if defparams:
        return True
    for chain in found:
        inst = chain[-1]
        kinds = {p.name: str(p.kind) for p in inst.body.parameters}
        for name, a in _overrides_of(inst):
            expr = getattr(a, "expr", None)
            text = "" if expr is None else str(expr).strip()
            if "TypeParameter" in kinds.get(name, ""):
                if not text or re.search(r"['$`]", text):
                    return True
            elif not _plain(text, chain, len(chain) - 1, 8, sm):
                return True
    return False


def _plain(text: str, chain: list[Any], level: int, depth: int, sm: Any) -> bool:
    """Whether ``text``, a value written in the scope of ``chain[level - 1]`` (the parent of
    ``chain[level]``), is a plain number or names a constant whose value is one."""
    if _PLAIN.fullmatch(text):
        return True
    query = re.fullmatch(r"\$(?:bits|size)\s*\(\s*([^()]*?)\s*\)", text)
    if query and depth > 0 and level >= 1 and _NAME.fullmatch(query.group(1)):
        return _plain_type(query.group(1), chain, level, depth - 1, sm)
    if depth <= 0 or level < 1 or not _NAME.fullmatch(text):
        return False
    parent = chain[level - 1]
    try:
        sym = parent.body.lookupName(re.sub(r"\s+", "", text))
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
        return False
    if sym is None:
        return False
    kind = str(sym.kind)
    decl = _source(sym, sm)
    if "EnumValue" in kind and "=" not in decl:
        return True  # the next value of its enum
    if kind.endswith(".Parameter"):
        given = dict(_overrides_of(parent)) if level >= 2 else {}
        if "::" not in text and str(sym.name) in given:  # the parent's instance sets it
            expr = getattr(given[str(sym.name)], "expr", None)
            return expr is not None and _plain(str(expr).strip(), chain, level - 1, depth - 1, sm)
    if ("EnumValue" in kind or kind.endswith(".Parameter")) and "=" in decl:
        return _plain(decl.split("=", 1)[1].strip(), chain, level, depth - 1, sm)
    return False


def _plain_type(name: str, chain: list[Any], level: int, depth: int, sm: Any) -> bool:
    """Whether ``name`` is a type (seen from ``chain[level - 1]``) whose width every tool
    reads alike: no fill literal, system function or macro in its declaration, each range
    bound a plain value (:func:`_plain`), each type it names such a type too."""
    try:
        sym = chain[level - 1].body.lookupName(re.sub(r"\s+", "", name))
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
        return False
    if sym is None or "TypeAlias" not in str(sym.kind) or depth <= 0:
        return False
    decl = _source(sym, sm)
    if not decl or re.search(r"'[01xzXZ]|[$`]", decl):
        return False
    for bounds in re.findall(r"\[([^\[\]]*)\]", decl):
        for bound in re.split(r"[:+\-*/()]", bounds):
            if bound.strip() and not _plain(bound.strip(), chain, level, depth - 1, sm):
                return False
    for word in set(re.findall(r"(?<![\w$'])[A-Za-z_][\w$]*(?:::[A-Za-z_][\w$]*)?", decl)):
        try:
            other = chain[level - 1].body.lookupName(word)
        except Exception:  # noqa: BLE001 - a keyword: no type
            continue
        if other is not None and "TypeAlias" in str(other.kind) and word != name.split("::")[-1]:
            if not _plain_type(word, chain, level, depth - 1, sm):
                return False
    return True


def _source(sym: Any, sm: Any) -> str:
    """The source text of ``sym``'s declaration as written (directives and switched-off
    text too), comments blanked; "" when unknown."""
    try:
        r = sym.syntax.sourceRange
        text = Path(str(sm.getFullPath(r.start.buffer))).read_text(errors="replace")
        return blank_comments(text[int(r.start.offset) : int(r.end.offset)])
    except Exception:  # noqa: BLE001 - no syntax, a macro expansion, no file
        return ""


#: An array query function (iverilog 11 evaluates ``$bits`` of a net or variable in a constant
#: expression as 0) and its argument.
_QUERY = re.compile(
    r"\$(bits|size|left|right|high|low|increment|dimensions|unpacked_dimensions)\s*\(\s*"
    r"([^()]*?)\s*\)"
)
_NAME = re.compile(r"[A-Za-z_][\w$]*(?:\s*::\s*[A-Za-z_][\w$]*)*")


def _signal_queries(ranges: Ranges, found: list[list[Any]]) -> list[str]:
    """Each array query (``$bits``, ``$size``...) in a value that reaches the target whose
    argument is not a type the parents' scopes name: iverilog 11 reads ``$bits`` of a net or
    variable in a constant expression as 0 while slang and Yosys read its width, and iverilog's
    values are not elaborated here."""
    bodies = [inst.body for chain in found for inst in chain[:-1]]
    out: list[str] = []
    for path, spans in ranges.items():
        try:
            code = blank_comments(Path(path).read_text(errors="replace"))
        except OSError:
            continue
        for a, b in spans:
            for m in _QUERY.finditer(code, a, b):
                arg = m.group(2)
                if _NAME.fullmatch(arg) and _is_type(bodies, re.sub(r"\s+", "", arg)):
                    continue
                line = code.count("\n", 0, m.start()) + 1
                out.append(
                    f"{path}:{line}: ${m.group(1)}({arg}) in a value that reaches the target: "
                    "iverilog evaluates an array query of a net or variable in a constant "
                    "expression otherwise than slang and Yosys (iverilog's values are not "
                    "cross-checked)"
                )
    return out


def _is_type(bodies: list[Any], name: str) -> bool:
    """Whether ``name`` is a type in every scope of ``bodies`` that knows it (and one does)."""
    kinds = []
    for body in bodies:
        try:
            sym = body.lookupName(name)
        except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
            return False
        if sym is not None:
            kinds.append(str(sym.kind))
    return bool(kinds) and all("Type" in k for k in kinds)


def _overrides_of(inst: Any) -> list[tuple[str, Any]]:
    """``(parameter, syntax)`` of each ``#()`` assignment of ``inst`` (positional ones by the
    header's order)."""
    syn = inst.syntax
    pva = getattr(getattr(syn, "parent", None), "parameters", None) if syn is not None else None
    if pva is None:
        return []
    ports = [p.name for p in inst.body.parameters if getattr(p, "isPortParam", False)]
    out: list[tuple[str, Any]] = []
    for i, a in enumerate(pva.parameters):
        k = node_kind(a)
        if k == "NamedParamAssignment":
            out.append((a.name.valueText, a))
        elif k == "OrderedParamAssignment" and i < len(ports):
            out.append((ports[i], a))
    return out


def _defparam_name(dp: Any) -> tuple[str, str]:
    """``(instance path, parameter)`` a defparam sets: slang's target when it resolves one,
    else the last name of its path as written (a defparam slang refuses)."""
    target = getattr(dp, "target", None)
    if target is not None:
        path = str(target.hierarchicalPath)
        return path.rsplit(".", 1)[0], target.name
    written = " ".join(str(dp.syntax.name).split()) if dp.syntax is not None else ""
    return "", written.rsplit(".", 1)[-1]


def _double_overrides(found: list[list[Any]], defparams: list[Any], sm: Any) -> list[str]:
    """Each parameter of an instance of the target that two overrides set (a duplicate
    ``#()`` assignment, two defparams, ``#()`` and a defparam): slang, iverilog and Yosys each
    keep another of them."""
    count: dict[tuple[str, str], list[Any]] = {}
    for chain in found:
        inst = chain[-1]
        path = str(inst.hierarchicalPath)
        count.setdefault((path, ""), [])
        for p, _a in _overrides_of(inst):
            count.setdefault((path, p), []).append(inst.location)
    for dp in defparams:
        path, p = _defparam_name(dp)
        if (path, "") in count:  # a defparam on an instance of the target
            count.setdefault((path, p), []).append(dp.location)
    out: list[str] = []
    for (path, p), locs in count.items():
        if len(locs) > 1:
            out.append(
                f"{_where(sm, locs[-1])}: parameter {p} of {path} is overridden twice "
                "(iverilog, Yosys and slang keep different ones)"
            )
    return out


def _body_parameters(inst: Any) -> set[str]:
    """The ``parameter`` (not ``localparam``) declarations in the body of ``inst``'s module
    when it also has a header parameter list: local to slang, overridable to iverilog and
    Yosys."""
    params = list(inst.body.parameters)
    if not any(getattr(p, "isPortParam", False) for p in params):
        return set()
    out: set[str] = set()
    for p in params:
        if getattr(p, "isPortParam", False):
            continue
        decl = getattr(p.syntax, "parent", None) if p.syntax is not None else None
        kw = getattr(getattr(decl, "keyword", None), "valueText", "")
        if kw == "parameter":
            out.add(p.name)
    return out


def _body_overrides(name: str, found: list[list[Any]], defparams: list[Any], sm: Any) -> list[str]:
    """Each override (``#()`` or defparam) of a body ``parameter`` of the target's module when
    it has a header parameter list."""
    out: list[str] = []
    paths = {str(c[-1].hierarchicalPath) for c in found}
    for chain in found:
        inst = chain[-1]
        body = _body_parameters(inst)
        for p, _a in _overrides_of(inst):
            if p in body:
                out.append(
                    f"{_where(sm, inst.location)}: {inst.hierarchicalPath} overrides {p}, a "
                    f"body parameter of {name} (local to slang, overridable to iverilog and Yosys)"
                )
        for dp in defparams:
            path, p = _defparam_name(dp)
            if p in body and (not path or path in paths):
                out.append(
                    f"{_where(sm, dp.location)}: a defparam overrides {p}, a body parameter "
                    f"of {name} (local to slang, overridable to iverilog and Yosys)"
                )
    return out


def _wide_decimals(ranges: Ranges) -> list[str]:
    """Each unsized decimal literal above 2**31 - 1 inside ``ranges`` (the values that reach
    the target's parameters): slang truncates it to 32 bits, iverilog and Yosys keep its
    bits."""
    out: list[str] = []
    for f, spans in sorted(ranges.items()):
        try:
            text = blank_comments(Path(f).read_text(errors="surrogateescape"))
        except OSError:
            continue
        raw = text.encode("utf-8", "surrogateescape")
        for a, b in sorted(set(spans)):
            chunk = raw[a:b].decode("utf-8", "surrogateescape")
            for m in _DECIMAL.finditer(chunk):
                digits = m.group(1).replace("_", "")
                if len(digits) >= 10 and int(digits) > 2**31 - 1:
                    line = raw[:a].count(b"\n") + chunk[: m.start()].count("\n") + 1
                    out.append(
                        f"{f}:{line}: the unsized decimal literal {m.group(1)} is wider than "
                        "32 bits (slang truncates it, iverilog and Yosys keep it)"
                    )
    return list(dict.fromkeys(out))


#: A file that defines a design unit (else it only declares macros or the like: kept).
_UNIT = re.compile(r"\b(?:module|macromodule|primitive|interface|program)\b")


def _yosys_files(design: Design, chains: list[list[Any]], sm: Any) -> list[Path]:
    """The repository's files Yosys reads to elaborate the tops that reach the target: those
    defining a module below them, those holding a package, and those defining no module (a
    file of macros), in the design's order: a testbench or another top's file Yosys cannot
    read does not stop the cross-check."""
    used = {_file(sm, inst.body.definition.location) for c in chains for inst in c}
    out: list[Path] = []
    for f in dict.fromkeys([*design.sources.files, *design.closure]):
        if str(f) in used:
            out.append(f)
            continue
        try:
            text = f.read_text(errors="surrogateescape")
        except OSError:
            continue
        if re.search(r"\bpackage\b", text) or not _UNIT.search(text):
            out.append(f)
    return out


def _bits_of(inst: Any) -> dict[str, tuple[int, str] | None]:
    """slang's value of each parameter of ``inst`` (local ones too) as ``(width, bits)``."""
    out: dict[str, tuple[int, str] | None] = {}
    for p in inst.body.parameters:
        if node_kind(p) != "Parameter":
            continue
        try:
            out[p.name] = svint_bits(p.value.value)
        except Exception:  # noqa: BLE001 - no value slang can give
            out[p.name] = None
    return out


def svint_bits(v: Any) -> tuple[int, str] | None:
    """An SVInt as ``(width, bits)``, MSB first (x and z kept); None for anything else."""
    import pyslang

    if not isinstance(v, pyslang.SVInt):
        return None
    width = int(v.bitWidth)
    if not v.hasUnknown:
        n = int(v.toString(pyslang.LiteralBase.Decimal, False)) & ((1 << width) - 1)
        return width, format(n, f"0{width}b")
    raw = v.toString(pyslang.LiteralBase.Binary, False).lstrip("-")
    return width, raw.rjust(width, "0")[-width:].lower()
