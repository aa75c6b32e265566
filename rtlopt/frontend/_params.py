"""The configurations that exist: every parameterization the repository gives the target.

A module is checked under the parameters someone uses. slang elaborates the repository from
its tops (every module nobody instantiates) and reports the value of each parameter of every
instance of the target, after overrides (``#(.P(v))``, positional, ``defparam``) and the
parents' own parameters; the defaults are always one of them (the target on its own, or a
top). Two instances with the same values are one parameterization.

:func:`specialize` writes a parameterization into a module's text as its defaults (an
instance override and a changed default elaborate alike), so that every tool (iverilog, Yosys,
the formal engines) reads it without options of its own. :func:`never_elaborated` lists the
generate blocks that none of the parameterizations elaborates: a change there is checked by
nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.frontend._slang import node_kind, preprocessor
from rtlopt.frontend.model import Design

__all__ = ["Parameterization", "never_elaborated", "parameterizations", "specialize"]

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
    copts = ast.CompilationOptions()
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
    out: list[tuple[str, str]] = []
    for p in inst.body.parameters:
        if node_kind(p) != "Parameter" or p.isLocalParam:
            continue
        try:
            value = str(p.value)
        except Exception:  # noqa: BLE001 - a value slang cannot print: not comparable
            return None
        if value and not value.startswith("<"):  # <unset>: slang could not evaluate it
            out.append((p.name, value))
    return Parameterization(tuple(out))


def parameterizations(design: Design) -> list[Parameterization]:
    """The defaults first, then every other distinct parameterization of the target that the
    repository's tops elaborate (empty when slang cannot read the repository)."""
    name = design.target.name
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    try:
        alone = _compile(files, {}, design, tops=[name]).getRoot()
        every = _compile(files, {}, design).getRoot()
    except Exception as exc:  # noqa: BLE001 - no parameterizations known: defaults only
        log.info("parameterizations of %s not found: %s", name, exc)
        return []
    found: dict[Parameterization, list[str]] = {}
    for top in alone.topInstances:
        if top.name == name:
            pz = _values(top)
            if pz is not None:
                found[pz] = ["defaults"]
    for top in every.topInstances:
        for where, inst in _instances(top, ""):
            if inst.body.definition.name != name:
                continue
            pz = _values(inst)
            if pz is not None:
                found.setdefault(pz, []).append(where)
    return [Parameterization(p.values, tuple(w)) for p, w in found.items()]


def _declarators(root: Any, module: str) -> Iterator[Any]:
    """Declarators of the non-local parameters of ``module`` in a syntax tree."""
    from pyslang import syntax  # noqa: F401 - the tree types

    stack = [root]
    while stack:
        node = stack.pop()
        k = node_kind(node)
        if k == "ModuleDeclaration" and node.header.name.valueText != module:
            continue
        if k == "ParameterDeclaration" and node.keyword.valueText == "parameter":
            for d in node.declarators:
                if node_kind(d) == "Declarator":
                    yield d
            continue
        if k in ("FunctionDeclaration", "TaskDeclaration"):
            continue
        if hasattr(node, "valueText"):
            continue
        try:
            stack.extend(c for c in node if c is not None)
        except TypeError:
            continue


def specialize(text: str, module: str, values: Mapping[str, str]) -> str:
    """``text`` with ``module``'s parameter defaults set to ``values`` (others unchanged)."""
    from pyslang import syntax

    if not values:
        return text
    tree = syntax.SyntaxTree.fromText(text)
    edits: list[tuple[int, int, str]] = []
    for d in _declarators(tree.root, module):
        name = d.name.valueText
        if name in values and d.initializer is not None:
            r = d.initializer.expr.sourceRange
            edits.append((int(r.start.offset), int(r.end.offset), values[name]))
    raw = text.encode("utf-8", "surrogateescape")
    for a, b, v in sorted(edits, reverse=True):
        raw = raw[:a] + v.encode() + raw[b:]
    return raw.decode("utf-8", "surrogateescape")


def never_elaborated(
    text: str, module: str, design: Design, settings: Sequence[Parameterization]
) -> list[str]:
    """The text of every generate block of ``module`` in ``text`` that none of ``settings``
    elaborates, in source order (``module`` as the top, each setting as overrides)."""
    path = Path("rtlopt_params_probe.sv")
    # the whole repository beside the text: packages, headers and submodules as the tops see
    lib = [
        f
        for f in dict.fromkeys([*design.sources.files, *design.closure])
        if f != design.target.file
    ]
    ends: dict[int, int] = {}
    used: dict[int, int] = {}
    for pz in settings or [Parameterization(())]:
        overrides = [f"{k}={v}" for k, v in pz.values]
        comp = _compile([*lib, path], {path: text}, design, tops=[module], overrides=overrides)
        for top in comp.getRoot().topInstances:
            for blk in _generate_blocks(top):
                syn = blk.syntax
                if syn is None or str(syn.sourceRange.start.buffer) == "":
                    continue
                a, b = int(syn.sourceRange.start.offset), int(syn.sourceRange.end.offset)
                ends[a] = b
                used[a] = used.get(a, 0) + (0 if blk.isUninstantiated else 1)
    raw = text.encode("utf-8", "surrogateescape")
    return [
        raw[a:b].decode("utf-8", "surrogateescape")
        for a, b in sorted(ends.items())
        if used.get(a, 0) == 0
    ]


def _generate_blocks(sym: Any) -> Iterator[Any]:
    for m in sym.body if node_kind(sym) == "Instance" else sym:
        k = node_kind(m)
        if k == "GenerateBlock":
            yield m
            if not m.isUninstantiated:
                yield from _generate_blocks(m)
        elif k == "GenerateBlockArray":
            yield from _generate_blocks(m)
