"""The configurations that exist: every parameterization the repository gives the target.

A module is checked under the parameters someone uses. slang elaborates the repository from its
tops and reports each parameter of every instance of the target, after overrides (``#(.P(v))``,
positional, ``defparam``) and the parents' parameters; the defaults are always one of them.
Two instances with the same values are one parameterization. :func:`specialize` writes one
into a module's text as its defaults, so every tool reads it without options of its own.
:func:`never_elaborated` lists the generate blocks no parameterization elaborates, each with
its guard chain: a change there is checked by nothing but probes
(:func:`probe_parameterizations`, :func:`probe_values`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.frontend._enum_params import EnumParameter, enum_parameters, typed_overrides
from rtlopt.frontend._one_build import build_files
from rtlopt.frontend._probe_values import (
    _probe_values,
    around,
    beyond,
    probe_values,
    sizes,
)
from rtlopt.frontend._slang import compilation_options, node_kind, preprocessor
from rtlopt.frontend.model import Design

__all__ = [
    "Parameterization",
    "never_elaborated",
    "parameterizations",
    "Elaborations",
    "enum_members",
    "elaborated_blocks",
    "probe",
    "probe_parameterizations",
    "declared_parameters",
    "tied_roots",
    "probe_values",
    "sizes",
    "around",
    "beyond",
    "specialize",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Parameterization:
    """One set of parameter values of the target (non-local parameters, elaborated).

    Attributes:
        values: ``(name, value)`` in declaration order; values as Verilog literals.
        where: Hierarchical names of the instances that use it (``defaults`` for the target on
            its own).
    """

    values: tuple[tuple[str, str], ...]
    where: tuple[str, ...] = field(default=(), compare=False)

    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.values) or "no parameters"

    def differs(self, other: Parameterization) -> dict[str, str]:
        """Values of this one that ``other`` does not have."""
        theirs = dict(other.values)
        return {k: v for k, v in self.values if theirs.get(k) != v}


def _compile(
    files: Sequence[Path],
    texts: Mapping[Path, str],
    design: Design,
    tops: Sequence[str] = (),
    overrides: Sequence[str] = (),
) -> Any:
    import pyslang
    from pyslang import ast, syntax

    sm, popts = preprocessor(design.include_dirs, design.defines)
    copts = compilation_options()
    if tops:
        copts.topModules = set(tops)
    if overrides:
        copts.paramOverrides = list(overrides)
    bag = pyslang.Bag([popts, copts])
    comp = ast.Compilation(bag)
    for path in files:
        try:
            bufs = [sm.readSource(str(p)) for p in design.prelude if p != path]
            if path in texts:
                bufs.append(sm.assignText(str(path), texts[path]))
            else:
                bufs.append(sm.readSource(str(path)))
            comp.addSyntaxTree(syntax.SyntaxTree.fromBuffers(bufs, sm, bag))
        except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
            log.debug("parameterizations: %s not read: %s", path, exc)
    return comp


def _instances(sym: Any, path: str) -> Iterator[tuple[str, Any]]:
    """``(hierarchical name, InstanceSymbol)`` below ``sym`` (itself included)."""
    k = node_kind(sym)
    if k == "Instance":
        name = f"{path}.{sym.name}" if path else sym.name
        yield name, sym
        for m in sym.body:
            yield from _instances(m, name)
    elif k in ("GenerateBlock", "GenerateBlockArray", "InstanceArray"):
        if k == "GenerateBlock" and sym.isUninstantiated:
            return
        sub = f"{path}.{sym.name}" if sym.name else path
        for m in sym:
            yield from _instances(m, sub)


def _values(inst: Any) -> Parameterization | None:
    """The instance's non-local parameters; a type parameter's value is its type as slang
    prints it (an instance that gives it another type is another configuration)."""
    out: list[tuple[str, str]] = []
    for p in inst.body.parameters:
        kind = node_kind(p)
        if kind not in ("Parameter", "TypeParameter") or p.isLocalParam:
            continue
        try:
            value = str(p.value) if kind == "Parameter" else str(p.targetType.type)
        except Exception:  # noqa: BLE001 - a value slang cannot print: not comparable
            return None
        if value and not value.startswith("<"):  # <unset>: slang could not evaluate it
            out.append((p.name, value))
    return Parameterization(tuple(out))


def parameterizations(design: Design, *, defaults: bool = True) -> list[Parameterization]:
    """The defaults (unless not ``defaults``: another reading's call), then every other
    distinct parameterization of the target the repository's tops elaborate (empty when
    slang cannot read the repository), from every file and from each module's build
    definition: an elaboration of every file keeps the last of two definitions (a stale
    copy of a parent hid the build's W = 36: round 108), the build's choice drops another
    build's parent (another filelist's, a testbench's `top`, one under `ifndef`: round 109)."""
    name = design.target.name
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    try:
        build = build_files(design)
    except Exception:  # noqa: BLE001 - which definition the build reads is not known
        build = files
    try:
        alone = _compile(files, {}, design, tops=[name]).getRoot() if defaults else None
        sets = dict.fromkeys((tuple(files), tuple(build)))
        every = [_compile(fs, {}, design).getRoot() for fs in sets]
    except Exception as exc:  # noqa: BLE001 - no parameterizations known: defaults only
        log.info("parameterizations of %s not found: %s", name, exc)
        return []
    # a parent a build may compile alone as its top (`iverilog -s tb_wide`) while another
    # top instantiates it with other values: each at its own defaults (round 109)
    # (each definition of a parent that several files define: a stale copy may come last)
    above = _ancestors(design)
    for fs in _per_definition(files, above) if above else []:
        try:
            every.append(_compile(fs, {}, design, tops=above).getRoot())
        except Exception as exc:  # noqa: BLE001 - those tops alone: no more configurations
            log.info("parents of %s as tops not elaborated: %s", name, exc)
    found: dict[Parameterization, list[str]] = {}
    for top in alone.topInstances if alone is not None else ():
        if top.name == name:
            pz = _values(top)
            if pz is not None:
                found[pz] = ["defaults"]
    for root in every:
        for top in root.topInstances:
            for where, inst in _instances(top, ""):
                pz = _values(inst) if inst.body.definition.name == name else None
                if pz is not None and where not in found.setdefault(pz, []):
                    found[pz].append(where)
    return [Parameterization(p.values, tuple(w)) for p, w in found.items()]


def _per_definition(files: list[Path], names: list[str]) -> list[list[Path]]:
    """``files``, then for each file defining one of ``names`` that another file defines too,
    ``files`` without those others (round 110: a stale later copy of a parent)."""
    from rtlopt.verilog import module_declarations

    definers: dict[str, list[Path]] = {}
    for f in files:
        try:
            declared = {n for n, _ in module_declarations(f.read_text(errors="replace"))}
        except OSError:
            continue
        for n in declared & set(names):
            definers.setdefault(n, []).append(f)
    out = [files]
    for fs in definers.values():
        for keep in fs if len(fs) > 1 else ():
            out.append([f for f in files if f == keep or f not in fs])
    return out


def _ancestors(design: Design) -> list[str]:
    """The modules with parameters whose hierarchy holds the target, sorted."""
    parents: dict[str, set[str]] = {}
    for m in design.modules.values():
        for child in m.instances:
            parents.setdefault(child, set()).add(m.name)
    seen: set[str] = set()
    todo = [design.target.name]
    while todo:
        for p in parents.get(todo.pop(), ()):
            if p not in seen:
                seen.add(p)
                todo.append(p)
    return sorted(n for n in seen if any(not q.local for q in design.modules[n].parameters))


def _declarators(root: Any, module: str) -> Iterator[tuple[Any, Any]]:
    """``(declaration, declarator)`` of the non-local parameters of ``module`` in a syntax
    tree: value parameters (``Declarator``) and type parameters (``TypeAssignment``)."""
    stack = [root]
    while stack:
        node = stack.pop()
        k = node_kind(node)
        if k == "ModuleDeclaration" and node.header.name.valueText != module:
            continue
        if k in ("ParameterDeclaration", "TypeParameterDeclaration") and (
            node.keyword.valueText != "localparam"
        ):
            for d in node.declarators:
                if node_kind(d) in ("Declarator", "TypeAssignment"):
                    yield node, d
            continue
        if k in ("FunctionDeclaration", "TaskDeclaration"):
            continue
        if hasattr(node, "valueText"):
            continue
        try:
            stack.extend(c for c in node if c is not None)
        except TypeError:
            continue


#: Data types whose values a plain literal sets (any other named type, an enum say, takes a
#: cast: ``base_isa_e'(1)``, since SystemVerilog converts no integer to an enum implicitly).
_PLAIN_TYPES = re.compile(
    r"(?:(?:integer|int|shortint|longint|byte|bit|logic|reg|signed|unsigned|real|"
    r"realtime|string|time)\b|\[|$)"
)


def _written(decl: Any, d: Any, value: str) -> tuple[Any, str]:
    """The node a parameterization's ``value`` replaces in declarator ``d`` of ``decl``, and
    the text that replaces it: a type for a type parameter, a value cast to the declared type
    when that is a named type (an enum), else the value as slang printed it."""
    if node_kind(d) == "TypeAssignment":
        return (d.assignment.type if d.assignment is not None else None), value
    declared = " ".join(str(getattr(decl, "type", "") or "").split())
    if declared and not _PLAIN_TYPES.match(declared) and not value.startswith('"'):
        value = f"{declared}'({value})"
    return (d.initializer.expr if d.initializer is not None else None), value


def specialize(text: str, module: str, values: Mapping[str, str]) -> str:
    """``text`` with ``module``'s parameter defaults set to ``values`` (others unchanged),
    each written as the frontend read it: a type as a type, an enum's value cast to the
    enum."""
    from pyslang import syntax

    if not values:
        return text
    tree = syntax.SyntaxTree.fromText(text)
    edits: list[tuple[int, int, str]] = []
    for decl, d in _declarators(tree.root, module):
        name = d.name.valueText
        if name not in values:
            continue
        node, value = _written(decl, d, values[name])
        if node is not None:
            r = node.sourceRange
            edits.append((int(r.start.offset), int(r.end.offset), value))
    raw = text.encode("utf-8", "surrogateescape")
    for a, b, v in sorted(edits, reverse=True):
        raw = raw[:a] + v.encode() + raw[b:]
    return raw.decode("utf-8", "surrogateescape")


def declared_parameters(text: str, module: str) -> dict[str, tuple[str, ...]]:
    """``module``'s non-local parameters in ``text``, each with the other parameters its
    default names (``W = B + 1``: ``W`` -> ``(B,)``; ``KEEP_WIDTH = DATA_WIDTH / 8``); a type
    parameter maps to ``("type",)``."""
    from pyslang import syntax

    tree = syntax.SyntaxTree.fromText(text)
    found: dict[str, str] = {}
    types: set[str] = set()
    for _decl, d in _declarators(tree.root, module):
        name = d.name.valueText
        if node_kind(d) == "TypeAssignment":
            types.add(name)
        found[name] = str(d.initializer.expr) if getattr(d, "initializer", None) else ""
    del tree
    out: dict[str, tuple[str, ...]] = {}
    for name, default in found.items():
        named = set(re.findall(r"(?<![\w$`'])[A-Za-z_][A-Za-z0-9_$]*", default))
        out[name] = ("type",) if name in types else tuple(p for p in found if p in named)
    return out


def tied_roots(ties: Mapping[str, Sequence[str]], name: str) -> tuple[str, ...]:
    """The parameters that set ``name`` through defaults (``ties`` from
    :func:`declared_parameters`): ``name`` itself when its default names no other parameter,
    else the roots of those it names (``B = W - 1``: ``W``), so that a probe changes the root
    and the tied ones follow as the module declares them."""
    out: list[str] = []
    todo, seen = [name], set()
    while todo:
        p = todo.pop(0)
        if p in seen:
            continue
        seen.add(p)
        named = [q for q in ties.get(p, ()) if q != "type"]
        if named:
            todo += named
        else:
            out.append(p)
    return tuple(dict.fromkeys(out))


@dataclass
class _Blocks:
    """The generate blocks of one elaboration of ``module`` as the top (offsets in its text)."""

    ends: dict[int, int] = field(default_factory=dict)
    used: set[int] = field(default_factory=set)
    guards: dict[int, str] = field(default_factory=dict)
    errors: int = 0
    values: Parameterization | None = None
    enums: dict[str, EnumParameter] = field(default_factory=dict)


def _elaborate(text: str, module: str, design: Design, overrides: Sequence[str]) -> _Blocks:
    """Elaborate ``text``'s ``module`` as the top with ``overrides``, beside the whole
    repository (packages, headers and submodules as the tops see them)."""
    path = Path("rtlopt_params_probe.sv")
    lib = [
        f
        for f in dict.fromkeys([*design.sources.files, *design.closure])
        if f != design.target.file
    ]
    comp = _compile([*lib, path], {path: text}, design, tops=[module], overrides=overrides)
    out = _Blocks()
    for top in comp.getRoot().topInstances:
        out.values = _values(top)
        out.enums = enum_parameters(top)
        for blk in _generate_blocks(top):
            syn = blk.syntax
            if syn is None or str(syn.sourceRange.start.buffer) == "":
                continue
            a, b = int(syn.sourceRange.start.offset), int(syn.sourceRange.end.offset)
            out.ends[a] = b
            out.guards.setdefault(a, _guard(syn))
            if not blk.isUninstantiated:
                out.used.add(a)
    out.errors = sum(1 for d in comp.getAllDiagnostics() if d.isError())
    return out


def _words(raw: bytes) -> str:
    """A block's text with its white space normalized (a re-indented block is the same)."""
    return " ".join(raw.decode("utf-8", "surrogateescape").split())


def _flat(node: Any) -> str:
    return " ".join(str(node).split())


def _start(node: Any) -> int:
    return int(node.sourceRange.start.offset)


def _guard(syn: Any) -> str:
    """Every condition that decides whether block ``syn`` is elaborated, innermost first: each
    enclosing if-generate's condition with the branch taken, case-generate's expression with
    the item's labels (a default item: all labels), loop-generate's header."""
    parts: list[str] = []
    child, node = syn, syn.parent
    for _ in range(256):
        if node is None:
            break
        k = node_kind(node)
        if k == "ModuleDeclaration":
            break
        if k == "IfGenerate":
            branch = "then" if _start(node.block) == _start(child) else "else"
            parts.append(f"if ({_flat(node.condition)}) {branch}")
        elif k == "CaseGenerate":
            labels = [
                _flat(i.expressions)
                for i in node.items
                if node_kind(child) == "DefaultCaseItem" or _start(i) == _start(child)
                if node_kind(i) == "StandardCaseItem"
            ]
            default = "default " if node_kind(child) == "DefaultCaseItem" else ""
            parts.append(f"case ({_flat(node.condition)}) {default}{' | '.join(labels)}")
        elif k == "LoopGenerate":
            parts.append(
                f"for ({_flat(node.identifier)} = {_flat(node.initialExpr)}; "
                f"{_flat(node.stopExpr)}; {_flat(node.iterationExpr)})"
            )
        child, node = node, node.parent
    return " / ".join(parts)


#: Elaborations already done, ``(text, module, overrides) -> blocks``.
Elaborations = dict[tuple[str, str, tuple[str, ...]], _Blocks]


def _overrides(pz: Parameterization) -> tuple[str, ...]:
    return tuple(f"{k}={v}" for k, v in pz.values)


def _elaborated(
    text: str, module: str, design: Design, overrides: Sequence[str], cache: Elaborations | None
) -> _Blocks:
    """:func:`_elaborate`, each ``(text, module, overrides)`` once per ``cache``."""
    if overrides:  # an enum's value cast to its type: RV32M=2 would leave it unset
        enums = _elaborated(text, module, design, (), cache).enums
        overrides = typed_overrides(overrides, enums)
    key = (text, module, tuple(overrides))
    if cache is None:
        return _elaborate(text, module, design, overrides)
    if key not in cache:
        cache[key] = _elaborate(text, module, design, overrides)
    return cache[key]


def enum_members(
    text: str, module: str, design: Design, cache: Elaborations | None = None
) -> dict[str, tuple[str, ...]]:
    """Each enum parameter of ``module`` in ``text`` with its members: its legal values."""
    return {k: v[1] for k, v in _elaborated(text, module, design, (), cache).enums.items()}


def never_elaborated(
    text: str,
    module: str,
    design: Design,
    settings: Sequence[Parameterization],
    cache: Elaborations | None = None,
) -> list[str]:
    """Every generate block of ``module`` in ``text`` that none of ``settings`` elaborates, in
    source order, each as ``[its guard]`` and its text (``module`` as the top, each setting as
    overrides): two texts whose lists are equal leave the same code unchecked under the same
    conditions."""
    ends: dict[int, int] = {}
    used: set[int] = set()
    guards: dict[int, str] = {}
    for pz in settings or [Parameterization(())]:
        blocks = _elaborated(text, module, design, _overrides(pz), cache)
        ends.update(blocks.ends)
        used |= blocks.used
        guards.update(blocks.guards)
    raw = text.encode("utf-8", "surrogateescape")
    dead = [(a, b) for a, b in sorted(ends.items()) if a not in used]
    return [f"[{guards.get(a, '')}]\n" + _words(raw[a:b]) for a, b in dead]


def elaborated_blocks(
    text: str,
    module: str,
    design: Design,
    overrides: Sequence[str],
    cache: Elaborations | None = None,
    *,
    guards: bool = True,
) -> frozenset[str]:
    """The generate blocks of ``module`` in ``text`` that ``overrides`` elaborate, each as
    ``[its guard]`` (unless ``guards`` is false: the code alone) and its text: two texts
    elaborate the same code where these are equal."""
    blocks = _elaborated(text, module, design, overrides, cache)
    raw = text.encode("utf-8", "surrogateescape")
    return frozenset(
        (f"[{blocks.guards.get(a, '')}]\n" if guards else "") + _words(raw[a : blocks.ends[a]])
        for a in blocks.used
    )


def probe(
    text: str,
    module: str,
    design: Design,
    base: Parameterization,
    values: Mapping[str, str],
    cache: Elaborations | None = None,
) -> Parameterization | None:
    """The parameterization of ``module`` with ``values`` (``name -> value``; parameters tied
    to them by their defaults follow) and the others as in ``base`` (the defaults), if it
    elaborates with no more slang errors than ``base`` does."""
    ref = _elaborated(text, module, design, _overrides(base), cache)
    set_ = [f"{k}={v}" for k, v in values.items()]
    blocks = _elaborated(text, module, design, set_, cache)
    if blocks.errors > ref.errors or blocks.values is None:
        return None
    got = dict(blocks.values.values)
    if any(k not in got for k in values):
        return None  # slang left a parameter it sets unset: no value of it a user can write
    label = f"a probe: {', '.join(set_)}, no instance of the repository uses it"
    return Parameterization(blocks.values.values, (label,))


def probe_parameterizations(
    text: str,
    module: str,
    design: Design,
    settings: Sequence[Parameterization],
    limit: int,
    cache: Elaborations | None = None,
) -> list[Parameterization]:
    """Up to ``limit`` parameterizations no instance uses that elaborate the generate blocks
    of ``module`` none of ``settings`` elaborates: one parameter changed from the defaults
    (the values from :func:`_probe_values`), no more slang errors than the defaults have,
    chosen greedily by how many of those blocks each elaborates."""
    if limit <= 0 or not settings:
        return []
    seen = [_elaborated(text, module, design, _overrides(pz), cache) for pz in settings]
    guards = {a: g for blocks in seen for a, g in blocks.guards.items()}
    dead = set(guards) - {a for blocks in seen for a in blocks.used}
    if not dead:
        return []
    found: list[tuple[Parameterization, set[int]]] = []
    enums = _elaborated(text, module, design, (), cache).enums
    for name, value in _probe_values(text, [guards[a] for a in sorted(dead)], settings[0]):
        if name in enums and value not in enums[name][1]:
            continue  # an enum's legal values are its members
        pz = probe(text, module, design, settings[0], {name: value}, cache)
        if pz is None:
            continue
        covers = dead & _elaborated(text, module, design, [f"{name}={value}"], cache).used
        if covers:
            found.append((pz, covers))
    chosen: list[Parameterization] = []
    while found and len(chosen) < limit and dead:
        pz, covers = max(found, key=lambda fc: len(fc[1] & dead))
        if not covers & dead:
            break
        chosen.append(pz)
        dead -= covers
    return chosen


def _generate_blocks(sym: Any) -> Iterator[Any]:
    for m in sym.body if node_kind(sym) == "Instance" else sym:
        k = node_kind(m)
        if k == "GenerateBlock":
            yield m
            if not m.isUninstantiated:
                yield from _generate_blocks(m)
        elif k == "GenerateBlockArray":
            yield from _generate_blocks(m)
