#!/usr/bin/env python3
"""Which acceptance targets the repository feeds x (``frontend/_open_inputs.py``), measured.

For every case of ``bench/repos.py`` (a fresh copy of its repository) this prints:

- ``open``: the reason :func:`rtlopt.frontend._open_inputs.open_inputs_reason` gives (every
  rewrite of the target is then unchecked), or ``-``;
- ``reg``: the inputs of the target's instances that a register of the repository feeds with
  neither a reset nor an initial value (x at power-up in the repository's simulation until
  its first write), following connections through the parents' input ports the way the walk
  does. A register is a variable written in an edge-triggered block (``always_ff``,
  ``always @(posedge ...)``); it counts as reset or initialised when some write of it in the
  module is a defined constant, or its declaration has an initializer. This rule is measured
  only: rtlopt does not apply it.

    python bench/x_inputs.py [--only 'ibex/*' ...] [--hops N]
"""

from __future__ import annotations

import argparse
import fnmatch
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.acceptance.runner import (  # noqa: E402
    default_repos_path,
    load_cases,
    prepare_repo,
    repo_source,
)

_EDGE = re.compile(r"^\s*@\s*\(\s*(posedge|negedge)")


def _registers(body: Any, root: Any) -> dict[str, bool]:
    """Variables of ``body`` written in an edge-triggered block: name -> reset or
    initialised (a defined constant written anywhere in ``body``, or an initializer)."""
    from pyslang import ast

    from rtlopt.frontend._net_bits import _const, pieces
    from rtlopt.frontend._net_drivers import key

    regs: dict[str, bool] = {}
    const: set[str] = set()

    def block(node: Any) -> Any:
        text = str(getattr(node.body, "syntax", "") or "")
        edge = node.procedureKind.name == "AlwaysFF" or bool(_EDGE.match(text))

        def assign(a: Any) -> None:
            names = [key(s) for s, _, _ in pieces(a.left, root)]
            defined = _const(a.right, root) is not None
            for n in names:
                if edge:
                    regs.setdefault(n, False)
                if defined or node.procedureKind.name == "Initial":
                    const.add(n)

        node.body.visit(lookup_table={ast.ExpressionKind.Assignment: assign})
        return ast.VisitAction.Skip

    def declared(node: Any) -> None:
        if getattr(node, "initializer", None) is not None:
            const.add(key(node))

    body.visit(
        lookup_table={
            ast.SymbolKind.ProceduralBlock: block,
            ast.SymbolKind.Variable: declared,
            ast.SymbolKind.Instance: lambda _n: ast.VisitAction.Skip,
            ast.SymbolKind.GenerateBlock: lambda n: (
                ast.VisitAction.Skip if n.isUninstantiated else ast.VisitAction.Advance
            ),
        }
    )
    return {n: n in const for n in regs}


def _unreset(
    walk: Any, inst: Any, seen: dict[str, dict[str, bool]], depth: int = 0, hops: int = 0
) -> list[str]:
    """``instance.port <- register`` for each input of ``inst`` a register without reset or
    initial value feeds, through the parents' input ports."""
    from rtlopt.frontend._net_bits import pieces
    from rtlopt.frontend._open_inputs import _inputs

    out: list[str] = []
    where = str(inst.hierarchicalPath)
    for port, expr in _inputs(inst):
        if expr is None or depth > 64:
            continue
        for sym, _, _ in pieces(expr, walk.root, reading=True):
            parent = walk._parent_input(sym)
            if parent is not None:
                out += [
                    o
                    for o in _unreset(walk, parent[0], seen, depth + 1, hops)
                    if o.split(" <- ")[0] == f"{parent[0].hierarchicalPath}.{parent[1]}"
                ]
                continue
            reg = _register(walk, sym, seen, 0, hops)
            if reg:
                out.append(f"{where}.{port.name} <- {reg}")
    return out


def _register(
    walk: Any, sym: Any, seen: dict[str, dict[str, bool]], depth: int = 0, hops: int = 0
) -> str:
    """The register without reset or initial value that ``sym`` is, or that drives it
    through outputs of instances (the walk's submodule outputs) and up to ``hops``
    continuous assignments, or ""."""
    from rtlopt.frontend._net_drivers import Drivers, Port, key, named

    scope = key(sym).rpartition(".")[0]
    while scope and scope not in walk.instances:
        scope = scope.rpartition(".")[0]
    if not scope or depth > 16:
        return ""
    if scope not in seen:
        seen[scope] = _registers(walk.instances[scope].body, walk.root)
    if seen[scope].get(key(sym)) is False:
        return key(sym)
    if scope not in walk.local:
        walk.local[scope] = Drivers(walk.instances[scope].body, walk.root, local=True)
    for (_, _, value), _ in walk.local[scope]._of.get(key(sym), []):
        if not isinstance(value, Port):
            if value is not None and hops > 0:  # through a combinational assignment
                for s in named(value):
                    found = _register(walk, s, seen, depth + 1, hops - 1)
                    if found:
                        return found
            continue
        for p in value.instance.body.portList:
            inner = getattr(p, "internalSymbol", None)
            if str(getattr(p, "name", "")) == value.port and inner is not None:
                found = _register(walk, inner, seen, depth + 1, hops)
                if found:
                    return found
    return ""


def measure(design: Any, hops: int = 0) -> tuple[str, list[str]]:
    from rtlopt.frontend._open_inputs import _Walk, open_inputs_reason
    from rtlopt.frontend._params import _compile

    reason = open_inputs_reason(design)
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    walk = _Walk(_compile(files, {}, design))
    seen: dict[str, dict[str, bool]] = {}
    regs: list[str] = []
    for inst in walk.instances.values():
        if inst.body.definition.name == design.target.name:
            regs += _unreset(walk, inst, seen, 0, hops)
    return reason, sorted(set(regs))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="glob patterns on REPO/MODULE")
    ap.add_argument(
        "--hops", type=int, default=0, help="continuous assignments followed back to a register"
    )
    args = ap.parse_args()
    from rtlopt.session import TargetSpec, open_target

    cases = [
        c
        for c in load_cases()
        if not args.only or any(fnmatch.fnmatch(c.name, p) for p in args.only)
    ]
    roots: dict[str, Path] = {}
    n_open = n_reg = 0
    with tempfile.TemporaryDirectory(prefix="x_inputs_") as tmp:
        for c in cases:
            if c.repo not in roots:
                src = repo_source(default_repos_path(), c.repo)
                roots[c.repo] = prepare_repo(src, Path(tmp) / c.repo)
            t = open_target(TargetSpec(roots[c.repo] / c.target, c.module, with_pdk=False))
            reason, regs = measure(t.design, args.hops)
            n_open += bool(reason)
            n_reg += bool(regs)
            known = f" (case marked unchecked: {c.unchecked[:60]})" if c.unchecked else ""
            print(f"{c.name}: open {reason[:300] or '-'}{known}")
            print(f"{c.name}: reg {len(regs)} {'; '.join(regs[:4])}")
    print(f"cases {len(cases)}; open-input reason {n_open}; fed by an unreset register {n_reg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
