"""A kept check's context: what its words mean besides its own text (the kept-check rule).

A check kept word for word means what it meant only where every name it reads resolves to a
declaration of the same type, and where it runs as often as it did. Rule (fail closed):

- It stands in the same context (:mod:`._kept_items`: the generate blocks and conditional
  directives enclosing it, with their conditions), and what those conditions read is read by
  the check too (a ``localparam`` a generate condition reads is kept word for word).
- What it reads is followed through the functions, tasks, ``let``, properties and sequences it
  calls and through the macros it uses (their bodies, as the repository defines them); a macro
  no text defines is read by no one: unchecked.
- Every name it reads has the same declarations, with their types (kind and direction aside:
  ``wire``/``reg``/``logic``/``input``; signedness, ranges, unpacked dimensions and type names
  count), in every scope it sees: the module and each enclosing generate block. A declaration
  the candidate adds there (a ``localparam`` shadowing an imported constant, a generate-block
  wire shadowing a port) or one it changes (``wire signed``) refuses it. A macro use in a scope
  it sees may declare the names its arguments and body name (one no text defines: any name).
- A check inside a subroutine (``function``, ``task``, ...) runs where it is called: the items
  calling it (transitively) are kept word for word, in their contexts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Protocol

from rtlopt.harness._kept_items import Chain, contexts, flat, items, normal, tokens_of
from rtlopt.harness._kept_items import words as _words


class _Module(Protocol):
    """What a module's text declares (:class:`rtlopt.harness._kept_checks._Module`)."""

    macros: Mapping[str, str]
    items: list[str]
    keyed: Counter[tuple[Chain, str]]
    scopes: dict[Chain, dict[str, set[str]]]
    item_words: dict[str, set[str]]
    bodies: dict[str, list[str]]
    declared: set[str]
    definitions: dict[str, list[str]]


__all__ = [
    "ANY",
    "FIX",
    "closure",
    "context_problems",
    "lost",
    "override_problems",
    "DEFAULTS",
    "macro_names",
    "callers",
    "declarations",
    "expand_macros",
    "subroutine_name",
    "visible",
]

FIX = "keep the reference's check"
#: The name a macro use no text defines may declare: every name.
ANY = "*"
#: What items that set how every check of a scope reads declare (``default clocking``,
#: ``default disable iff``, ``timeunit``): every check reads it.
DEFAULTS = "default"
_DEFAULTS = re.compile(r"(?:default|clocking|global|timeunit|timeprecision)(?![\w$])")
#: Macros every tool defines, and the directives (no macros).
_BUILTIN = frozenset(
    "__FILE__ __LINE__ ifdef ifndef elsif else endif define undef undefineall include "
    "timescale resetall default_nettype celldefine endcelldefine line pragma begin_keywords "
    "end_keywords nounconnected_drive unconnected_drive".split()
)
_MACRO_USE = re.compile(r"(?<!`)`([A-Za-z_][\w$]*)")
_IDENT = re.compile(r"[A-Za-z_][\w$]*\Z")
_SUBROUTINE = re.compile(
    r"(?:(?:static|automatic|virtual|pure|extern|protected|local) )*"
    r"(function|task|let|property|sequence|checker) "
)
#: Words of a declaration's type that do not change how a check reads the name.
_KIND = frozenset(
    "input output inout ref wire reg logic var tri uwire interconnect supply0 supply1".split()
)
_NO_DECLARATION = re.compile(
    r"(?:always\w*|assign|initial|final|if|else|for|foreach|case[xz]?|generate|begin|"
    r"end\w*|import|export|defparam|bind|alias|specify|assert|assume|cover|restrict|expect)"
    r"(?![\w$])"
)
_CONSTANT = frozenset({"localparam", "parameter", "const", "typedef", "specparam"})
_INSTANCE = re.compile(
    r"([A-Za-z_][\w$]*) (?:# \( .*? \) )?([A-Za-z_][\w$]*) (?:\[ [^\]]* \] )*\(", re.S
)
_LABEL = re.compile(r"([A-Za-z_][\w$]*) : ")


def expand_macros(text: str, macros: Mapping[str, str], depth: int = 0) -> tuple[str, set[str]]:
    """The bodies of the macros ``text`` uses, recursively, and the macros no text defines."""
    out: list[str] = []
    unknown: set[str] = set()
    for m in _MACRO_USE.finditer(text):
        name = m.group(1)
        if name in _BUILTIN:
            continue
        body = macros.get(name)
        if body is None:
            unknown.add(name)
        elif depth < 8:
            inner, more = expand_macros(body, macros, depth + 1)
            out += [body, inner]
            unknown |= more
    return "\n".join(out), unknown


def macro_names(text: str) -> set[str]:
    """The macros ``text`` uses (no directive)."""
    return {m.group(1) for m in _MACRO_USE.finditer(text)} - _BUILTIN


def subroutine_name(item: str) -> str | None:
    """The name a subroutine declaration ``item`` (normalised) declares, else ``None``."""
    m = _SUBROUTINE.match(item)
    if not m:
        return None
    toks = tokens_of(item[m.end() :])
    if m.group(1) in ("function", "task"):
        head = []
        for t in toks:
            if t in ("(", ";"):
                break
            head.append(t)
        names = [t for t in head if _IDENT.match(t)]
        return names[-1] if names else None
    return toks[0] if toks and _IDENT.match(toks[0]) else None


def _split(toks: list[str]) -> list[list[str]]:
    """``toks`` split at the commas outside brackets."""
    out: list[list[str]] = [[]]
    level = 0
    for t in toks:
        if t in "([{":
            level += 1
        elif t in ")]}":
            level -= 1
        if t == "," and level == 0:
            out.append([])
        else:
            out[-1].append(t)
    return out


def _declarator(toks: list[str]) -> tuple[str, list[str], list[str]] | None:
    """``(name, type tokens, unpacked dimensions)`` of one declarator, else ``None``."""
    level, end = 0, len(toks)
    for k, t in enumerate(toks):
        level += t in "([{"
        level -= t in ")]}"
        if t == "=" and level == 0:
            end = k
            break
    level, at = 0, -1
    for k, t in enumerate(toks[:end]):
        level += t in "([{"
        level -= t in ")]}"
        if level == 0 and _IDENT.match(t) and t not in ("signed", "unsigned"):
            at = k
    if at < 0:
        return None
    return toks[at], toks[:at], toks[at + 1 : end]


def _typed(kind: list[str], unpacked: list[str]) -> str:
    return " ".join([t for t in kind if t not in _KIND] + unpacked)


def _port_lists(toks: list[str]) -> list[tuple[str, str]]:
    """The declarations of a module header's parameter and port lists."""
    out: list[tuple[str, str]] = []
    k = 0
    while k < len(toks):
        if toks[k] != "(":
            k += 1
            continue
        level, j = 0, k
        while j < len(toks):
            level += toks[j] == "("
            level -= toks[j] == ")"
            if level == 0:
                break
            j += 1
        parameters = k and toks[k - 1] == "#"
        kind: list[str] = []
        for seg in _split(toks[k + 1 : j]):
            found = _declarator(seg)
            if found is None:
                continue
            name, own, unpacked = found
            kind = own or kind
            out.append((name, " ".join(seg) if parameters else _typed(kind, unpacked)))
        k = j + 1
    return out


def declarations(
    item: str, macros: Mapping[str, str], checks: bool = False
) -> list[tuple[str, str]]:
    """``(name, type)`` of each name module item ``item`` (normalised) declares; ``checks``:
    the item holds a check (only its label or a declared property's name count)."""
    toks = tokens_of(item)
    if not toks:
        return []
    first = toks[0]
    if first.startswith("`"):  # a macro may declare what its arguments and body name
        body, unknown = expand_macros(item, macros)
        named = {t for t in tokens_of(item + " " + body) if _IDENT.match(t)}
        return [(n, f"macro {item}") for n in sorted(named | ({ANY} if unknown else set()))]
    name = subroutine_name(item)
    if name is not None:
        return [(name, item)]
    if _DEFAULTS.match(item):
        return [(DEFAULTS, item)]
    label = _LABEL.match(item)
    if checks or _NO_DECLARATION.match(item):
        return [(label.group(1), "label")] if label else []
    if first in ("module", "macromodule", "interface", "program", "(", "#"):
        return _port_lists(toks)
    inst = _INSTANCE.match(item)
    if inst:
        return [(inst.group(2), f"instance {inst.group(1)}")]
    rest = toks[:-1] if toks[-1] == ";" else toks
    if first in _CONSTANT or "enum" in rest:
        names = _enumerators(rest) + [
            d[0] for seg in _split(rest) if (d := _declarator(seg)) is not None
        ]
        return [(n, item) for n in names]
    out: list[tuple[str, str]] = []
    kind: list[str] = []
    for seg in _split(rest):
        found = _declarator(seg)
        if found is not None:
            kind = found[1] or kind
            out.append((found[0], _typed(kind, found[2])))
    return out


def _enumerators(toks: list[str]) -> list[str]:
    out: list[str] = []
    for k, t in enumerate(toks):
        if t == "{" and k and toks[k - 1] not in ("'",):
            for seg in _split(toks[k + 1 :]):
                if seg and _IDENT.match(seg[0]):
                    out.append(seg[0])
                if "}" in seg:
                    break
    return out


Scopes = dict[Chain, dict[str, set[str]]]


def scopes(items: Iterable[tuple[str, Chain, Chain, bool]], macros: Mapping[str, str]) -> Scopes:
    """Per generate scope, each name's declarations: ``(item, directives, generate blocks,
    holds a check)`` per module item; a declaration's type names the directives around it."""
    out: Scopes = {}
    for item, directives, blocks, check in items:
        where = " ".join(directives)
        for name, typed in declarations(item, macros, check):
            out.setdefault(blocks, {}).setdefault(name, set()).add(f"{where} :: {typed}")
    return out


def visible(found: Scopes, blocks: Chain, name: str) -> list[frozenset[str]]:
    """The declarations of ``name`` (and of every name, :data:`ANY`) a check inside the
    generate blocks ``blocks`` sees, the module's first."""
    out: list[frozenset[str]] = []
    for k in range(len(blocks) + 1):
        scope = found.get(blocks[:k], {})
        out.append(frozenset(scope.get(name, set()) | scope.get(ANY, set())))
    return out


def callers(
    name: str, keyed: Counter[tuple[Chain, str]], words: Mapping[str, set[str]]
) -> Counter[tuple[Chain, str]]:
    """The items (with their contexts) that call subroutine ``name``, transitively through
    the subroutines calling it; ``words``: each item's words."""
    out: Counter[tuple[Chain, str]] = Counter()
    todo, seen = [name], {name}
    while todo:
        called = todo.pop()
        for key, count in keyed.items():
            item = key[1]
            if key in out or called not in words.get(item, ()):
                continue
            if subroutine_name(item) == called:
                continue
            out[key] = count
            outer = subroutine_name(item)
            if outer is not None and outer not in seen:
                seen.add(outer)
                todo.append(outer)
    return out


def closure(text: str, ref: _Module, blocks: Chain = ()) -> tuple[set[str], set[str]]:
    """The names ``text`` reads, through the macros it uses, the subroutines it calls and the
    types of what it reads (declared in the scopes of generate blocks ``blocks``), and the
    macros no text defines."""
    expanded, unknown = expand_macros(text, ref.macros)
    names = _words(text) | _words(expanded)
    todo = sorted(names)
    while todo:
        name = todo.pop()
        more: set[str] = set()
        for item in ref.bodies.get(name, []):
            expanded, missing = expand_macros(item, ref.macros)
            more |= _words(item) | _words(expanded)
            unknown |= missing
        for declared in visible(ref.scopes, blocks, name):  # the constants of its type
            more |= {w for d in declared for w in _words(_declared_type(d)) if w in ref.declared}
        todo += sorted(more - names)
        names |= more
    return names, unknown


_LABELLED = re.compile(r"begin : ([A-Za-z_][\w$]*)$")


def _label(header: str) -> str:
    """The label of a generate block's header (``''`` when none)."""
    m = _LABELLED.search(header)
    return m.group(1) if m else ""


def _declared_type(declared: str) -> str:
    typed = declared.split(" :: ", 1)[-1]
    return "" if typed.startswith(("macro ", "instance ", "label")) else typed


def _named(name: str) -> str:
    if name == ANY:
        return "a name a macro no text defines may declare"
    if name == DEFAULTS:
        return "the scope's defaults (default clocking, disable iff, time unit)"
    return name


def lost(item: str, theirs: Counter[tuple[Chain, str]]) -> str:
    """Why a check of the reference is not kept: missing, or kept in another context."""
    moved = [chain for (chain, i), n in theirs.items() if i == item and n > 0]
    if not moved:
        return (
            f"is missing from the candidate: the repository's simulation reads it; {FIX} "
            "(the same text)"
        )
    inside = " / ".join(moved[0]) or "the module itself"
    return (
        f"stands in the candidate in another context ({inside[:80]}): a generate condition "
        "or conditional directive enclosing it decides whether and how the simulation "
        f"elaborates it (unchecked); {FIX} where it stands, inside the same generate blocks "
        "and directives"
    )


def context_problems(
    item: str, directives: Chain, blocks: Chain, ref: _Module, cand: _Module
) -> str:
    """Why the kept check ``item`` (inside ``directives`` and generate blocks ``blocks``)
    means otherwise in the candidate: a macro no text defines or the module defines otherwise,
    a subroutine it calls changed, a name it reads declared otherwise in a scope it sees, a
    call of the subroutine holding it changed (see :mod:`._kept_context`)."""
    body = item.removeprefix("translate_off: ") + " " + " ".join(blocks)
    names, unknown = closure(body, ref, blocks)
    if unknown:
        return (
            f"uses macro `{sorted(unknown)[0]}, which no text of the repository defines: what "
            f"the check reads cannot be followed (unchecked); {FIX} and define the macro in "
            "the repository"
        )
    called = [i for n in sorted(names) for i in ref.bodies.get(n, [])]
    used = macro_names(" ".join([body, *called]))
    used |= {m for d in directives for m in re.findall(r"`(?:ifn?def|elsif) ([\w$]+)", d)}
    used |= {w for u in sorted(used) for w in macro_names(expand_macros(f"`{u}", ref.macros)[0])}
    for name in sorted(used):
        if ref.definitions.get(name, []) != cand.definitions.get(name, []):
            return (
                f"uses or is enclosed by macro `{name}, which the candidate defines otherwise "
                f"in the module (unchecked); {FIX} and the module's `define/`undef lines"
            )
    for sub in called:
        if cand.items.count(sub) < ref.items.count(sub):
            return (
                f"calls {sub[:60]}, which the candidate changes: what the check reads changes "
                f"with it (unchecked); {FIX} and what it calls, word for word"
            )
    into = names - {_label(h) for h in blocks}  # (its own blocks' labels: no reading into)
    inner = [
        key
        for key, n in ref.keyed.items()
        if cand.keyed[key] < n and any(_LABELLED.search(h) and _label(h) in into for h in key[0])
    ]
    if inner:
        return (
            f"reads into generate block {_label(next(h for h in inner[0][0] if _label(h)))}, "
            f"which the candidate changes ({inner[0][1][:60]}): no proof compares what it "
            f"reads there (unchecked); {FIX} and the block's items, word for word"
        )
    for name in sorted(names | {ANY, DEFAULTS}):
        mine, theirs = visible(ref.scopes, blocks, name), visible(cand.scopes, blocks, name)
        if mine != theirs:
            return (
                f"reads {_named(name)}, which the candidate declares otherwise where the check "
                "stands (a declaration added in a scope the check sees shadows it, or its type "
                f"changed): the check reads another thing than the reference's (unchecked); {FIX} "
                "and the declarations it reads, with their types"
            )
    holder = subroutine_name(item)
    if holder is not None:
        need = callers(holder, ref.keyed, ref.item_words)
        gone = [key for key, n in need.items() if cand.keyed[key] < n]
        if gone:
            return (
                f"stands in {holder}, whose call ({gone[0][1][:60]}) the candidate changes: "
                f"the check runs only where {holder} is called (unchecked); {FIX} and the "
                f"items calling {holder}, word for word"
            )
    return ""


def _overrides(text: str, modules: set[str]) -> Counter[str]:
    """The parameter overrides of ``text``'s instances of ``modules`` (with their context and
    instance name) and its ``defparam`` items."""
    code = flat(text)
    nested: list[Chain] = []
    spans = items(code, nested)
    out: Counter[str] = Counter()
    for (a, b), chain in zip(spans, contexts(text, spans, nested), strict=True):
        item = normal(code[a:b])
        if item.startswith("defparam "):
            out[f"{' / '.join(chain)}: {item}"] += 1
            continue
        inst = _INSTANCE.match(item)
        if inst is None or inst.group(1) not in modules:
            continue
        toks = tokens_of(item)
        override = ""
        if len(toks) > 2 and toks[1] == "#" and toks[2] == "(":
            level, j = 0, 2
            for j in range(2, len(toks)):
                level += (toks[j] == "(") - (toks[j] == ")")
                if level == 0:
                    break
            override = " ".join(toks[1 : j + 1])
        # the instance's name aside: a renamed instance sets what the reference's did
        out[f"{' / '.join(chain)}: {inst.group(1)} {override}"] += 1
    return out


def override_problems(reference: str, candidate: str, modules: set[str], fix: str) -> list[str]:
    """A check of a module below decides where it stands (a generate condition) and what it
    reads by the parameters its instance sets, which no proof compares where they change no
    output: the ``candidate`` (a module's text) sets the parameters of its instances of the
    design's ``modules`` as the ``reference`` does (and keeps its ``defparam`` items), in
    the same contexts."""
    mine, theirs = _overrides(reference, modules), _overrides(candidate, modules)
    if mine == theirs:
        return []
    changed = sorted((mine - theirs) + (theirs - mine))[0]
    return [
        f"sets the parameters of an instance otherwise ({changed[:100]}): the checks of the "
        "module below read them (where they stand, what they compare), which no proof "
        f"compares; {fix}s below and set the instance's parameters as the reference does"
    ]
