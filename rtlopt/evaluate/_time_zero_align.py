"""Names only the candidate declares paired with those only the reference declares, for the
time-0 rule (:mod:`rtlopt.evaluate._time_zero`)."""

from __future__ import annotations

from rtlopt.harness._event_blocks import ModuleItems

__all__ = ["aligned", "reached", "writers"]

#: Net declarations whose initializer is a continuous assignment.
_NETS = frozenset({"wire", "tri", "uwire"})


def writers(items: ModuleItems, name: str) -> tuple[str, ...]:
    """The texts of the items that may write ``name``, sorted, each in one form: a net's
    declaration with an initializer and ``assign`` both as ``name = value ;``, and a select of
    a name's whole declared range (``a [ 23 : 0 ]``, of an unsigned name) as the name; the
    first entry is the name's declared dimensions (a name declared otherwise than by plain
    words and packed dimensions: its side's declaration is not compared, so none matches)."""
    declared = dict(items.dims)
    dims = {n: d for n, d in declared.items() if d}
    out = [f"[declared] {declared[name]}" if name in declared else f"[unread] {id(items)}"]
    if any(c.isalpha() or c == "_" for c in out[0][len("[declared] ") :]):
        out[0] += " " + " ; ".join(items.params)  # a width named by parameters: their values
    for i in items.items:
        if name not in i.writes:
            continue
        tokens = i.text.split(" ")
        if tokens[0] in _NETS and i.writes == {name} and "=" in tokens:
            tokens = [name, *tokens[tokens.index("=") :]]
        elif tokens[0] == "assign":
            tokens = tokens[1:]
        out.append(" ".join(_whole(tokens, dims)))
    return (out[0], *sorted(out[1:]))


def _whole(tokens: list[str], dims: dict[str, str]) -> list[str]:
    """``tokens`` with each select of a name's whole declared range dropped."""
    out: list[str] = []
    k = 0
    while k < len(tokens):
        out.append(tokens[k])
        d = dims.get(tokens[k])
        if d is not None:
            n = len(d.split(" "))
            if " ".join(tokens[k + 1 : k + 1 + n]) == d:
                k += n
        k += 1
    return out


def aligned(ref: ModuleItems, cand: ModuleItems) -> ModuleItems:
    """``cand`` with signals only it declares renamed to those only the reference declares
    where the items read alike: every item whose text, each such name a wildcard, is found
    once on each side pairs the names at the same places (``l3_acc <= ...`` with ``acc3_q
    <= ...``); a name paired two ways, or two names paired with one, is left. Renaming a
    candidate's own name to one it does not use changes nothing it means, so any such map
    is sound: a rename of a register is no change in when anything runs."""
    from dataclasses import replace

    mine, theirs = cand.signals - ref.signals, ref.signals - cand.signals
    if not mine or not theirs:
        return cand

    def wild(items: ModuleItems, own: frozenset[str]) -> dict[str, list[list[str]]]:
        out: dict[str, list[list[str]]] = {}
        for i in items.items:
            tokens = i.text.split(" ")
            out.setdefault(" ".join("?" if t in own else t for t in tokens), []).append(tokens)
        return out

    ours, others = wild(cand, mine), wild(ref, theirs)
    seen: dict[str, set[str]] = {}
    for text, found in ours.items():
        if "?" not in text or len(found) != 1 or len(others.get(text, [])) != 1:
            continue
        for a, b in zip(found[0], others[text][0], strict=True):
            if a in mine and b in theirs:
                seen.setdefault(a, set()).add(b)
    pairs = {a: next(iter(b)) for a, b in seen.items() if len(b) == 1}
    hit: dict[str, int] = {}
    for b in pairs.values():
        hit[b] = hit.get(b, 0) + 1
    pairs = {a: b for a, b in pairs.items() if hit[b] == 1}
    if not pairs:
        return cand

    def renamed(names: frozenset[str]) -> frozenset[str]:
        return frozenset(pairs.get(n, n) for n in names)

    items = tuple(
        replace(
            i,
            text=" ".join(pairs.get(t, t) for t in i.text.split(" ")),
            writes=renamed(i.writes),
            mentions=renamed(i.mentions),
            waits=None if i.waits is None else renamed(i.waits),
            clocks=renamed(i.clocks),
            connections=None
            if i.connections is None
            else (
                i.connections[0],
                tuple(
                    (p, " ".join(pairs.get(t, t) for t in e.split(" ")), renamed(ns))
                    for p, e, ns in i.connections[1]
                ),
            ),
        )
        for i in cand.items
    )
    return replace(
        cand,
        items=items,
        signals=renamed(cand.signals),
        ranges=tuple(sorted((pairs.get(n, n), lo, hi) for n, lo, hi in cand.ranges)),
        fixed=renamed(cand.fixed),
        dims=tuple(sorted((pairs.get(n, n), d) for n, d in cand.dims)),
    )


def reached(
    start: frozenset[str], items: ModuleItems, held: frozenset[str] = frozenset()
) -> frozenset[str]:
    """The names ``start`` reaches: written by an item that mentions one (transitively),
    ``start`` included; a register clocked by a name of ``held`` (:func:`clock_cells`) is
    not reached through its clock."""
    seen = set(start)
    stack = list(start)
    while stack:
        n = stack.pop()
        for i in items.items:
            if n in i.mentions and n not in (i.clocks & held):
                new = i.writes - seen
                seen |= new
                stack += sorted(new)
    return frozenset(seen)
