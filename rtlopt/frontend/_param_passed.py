"""A parameter passed on to an instance: uses the target's own text does not show.

The split proof (:mod:`._param_split`) reads every use of a parameter as a value from an
input, in the target's own text and, through an instance's parameter assignment (``m_chk
#(.K(W))``), in a copy of the instantiated module that reads ``K``'s value uses from an input
too (``hit = b && (K * K == 10000)`` inside a helper differs only at ``W = 100``: red-team
round 103; a wrapper handing ``DATA_WIDTH`` to its receiver: held-out trial 51). What no input
reaches is a guard: :func:`passed_on` finds each assignment of a parameter (or a localparam
computed from one) to an instance's parameter whose module guards on it (a generate
condition, a constant comparison, an alias's too), at any depth, or that cannot be read (a
positional assignment, a module with no text): the change is then unchecked unless a probe
refutes it. The variable of a generate loop bounded by such a parameter counts as one (it
takes every value below the bound). A module that uses it only in widths and selects is left
to the probes, as the target's own widths are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rtlopt.frontend._param_deps import _module

__all__ = ["passed_on"]

#: A module's text and name by its name (the candidate's helpers, the repository's modules);
#: None for a module rtlopt has no text of.
Sources = Callable[[str], str | None]
#: How many instances' parameters an assignment is followed through.
_DEPTH = 8


def passed_on(
    text: str,
    module: str,
    names: Sequence[str],
    sources: Sources,
    own: frozenset[str] = frozenset(),
) -> str:
    """The first instance of ``module`` in ``text`` (then of the modules it passes them to)
    whose parameter receives one of ``names`` (or a localparam computed from them) and whose
    module uses it as a value or passes it on, as ``"u_chk.K (module m_chk)"``; ""
    when there is none."""
    seen = {(module, n) for n in names}  # the target's own uses: the split proof's
    return _passed(text, module, set(names), sources, seen, "", own)


def _passed(
    text: str,
    module: str,
    names: set[str],
    sources: Sources,
    seen: set[tuple[str, str]],
    at: str,
    own: frozenset[str],
) -> str:
    from pyslang import syntax

    from rtlopt.frontend._param_deps import identifiers
    from rtlopt.frontend._param_split import _aliases, assignments, split_values

    tree = syntax.SyntaxTree.fromText(text.encode("utf-8", "surrogateescape").decode("latin-1"))
    mod = _module(tree.root, module)
    if mod is None:
        return f"{at or module} (a module rtlopt cannot read)"
    every = _bounded(mod, names | {a for a, _ in _aliases(mod, names) or []})
    for sub, inst, param, expr in assignments(mod):
        # any mention: a replication's count too (`.K({W{1'b1}})`: red-team round 105)
        if not identifiers(str(expr)) & every:
            continue
        where = f"{at}{inst}.{param or '(a positional assignment)'} (module {sub})"
        if param is not None and (sub, param) in seen:
            continue  # read already (a recursive module passing its own parameter down)
        child = sources(sub) if param is not None else None
        if child is None or param is None or len(seen) > _DEPTH + len(names):
            return where
        seen.add((sub, param))
        # a value use there is split there (_param_split.split_values with sources); a
        # guard singles out values no split input reaches
        split = split_values(child, sub, [param])
        if split is None or _guarded(child, sub, param, sub in own):
            return where
        deeper = _passed(child, sub, {param}, sources, seen, f"{at}{inst}.", own)
        if deeper:
            return deeper
    return ""


def _bounded(mod: Any, names: set[str]) -> set[str]:
    """``names`` and the variables of the generate loops their headers name (nested loops
    too: :func:`._param_split.bounded_loops`)."""
    from rtlopt.frontend._param_split import bounded_loops

    out = set(names)
    while True:
        more = {var for var, _, _ in bounded_loops(mod, out)} - out
        if not more:
            return out
        out |= more


def _guarded(text: str, module: str, param: str, own: bool) -> bool:
    """Whether ``module`` computes a guard from ``param`` (a generate condition ``K == 99``
    singles out a value as a value use does: :mod:`._param_guards`). A narrow net a
    repository's module (not ``own``: the candidate's) assigns the value (uart_rx's 4-bit
    ``bit_cnt <= DATA_WIDTH + 2``) is none: the split proof reads that value from its input,
    and such a module is no text the candidate shapes to hide a difference in."""
    from rtlopt.frontend._param_deps import identifiers
    from rtlopt.frontend._param_guards import _guards

    # a guard on an alias carries the alias's declaration (``M > 2048 (where localparam
    # integer M = N)``): its names, not its words (red-team round 119: ``N)``)
    return any(param in identifiers(g) for g in _guards(text, module, writes=own) or ())
