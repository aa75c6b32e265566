"""The reference's simulation-only checks, which a candidate must keep, reading what is proven.

A repository's regression reads what synthesis does not: an assertion, an ``$error`` report in
a ``translate_off`` region or an ```ifndef SYNTHESIS`` branch, a ``final`` block. Such a check
changes no output, so the proofs pass a candidate without it (or with it made vacuous), while
the repository's own regression (which fails on an ``ERROR`` in its log) no longer sees it.

Rule (fail closed where it applies):

- A *check* is a module item (a statement up to its ``;`` or the ``end`` closing its block, an
  ``if`` with its ``else``, a macro use with its arguments) that holds an assertion keyword
  (``assert``, ``assume``, ``cover``, ``restrict``, ``expect``, ``property``, ``sequence``), a
  ``final`` block or a failing report (``$error``, ``$fatal``, ``$warning``), directly or
  through a macro the repository defines (ibex's ``ASSERT*``); every conditional branch is
  read. A ``translate_off`` region holding a check is one too, as a whole. Module headers,
  ports, declarations and design code holding none of these are no checks.
- The candidate holds every check of the reference's modules it redefines, white space and
  comments aside, as often as the reference does (a branch only the formal build reads,
  :mod:`._verification_only`, is left out on both sides); else the change is refused naming the
  check's ``file:line`` (:data:`FIX`).
- What a kept check reads must be the same on both sides: a port is proven equal; a parameter
  an instance can set keeps its default (the interface check); a constant the module declares
  (``localparam``, ``typedef``, ``function``) keeps its declaration word for word; a signal of
  the target is proven equal (:func:`exposed_signals`: the proofs expose it as an output of
  both sides), so the candidate must have it; a name the module does not declare comes from a
  package or ``$unit``, so the candidate's imports must be the reference's; a name read
  through an instance (``u_core.x``) is the same where the candidate keeps the instance word
  for word (what it connects read as the check's own reads) and does not change its module;
  a signal of a redefined submodule is compared by no proof and refuses the change.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.harness._kept_context import (
    FIX,
    closure,
    context_problems,
    declarations,
    lost,
    override_problems,
    scopes,
    subroutine_name,
)
from rtlopt.harness._kept_exposable import comparable_names, defines
from rtlopt.harness._kept_items import KEYWORDS as _KEYWORDS
from rtlopt.harness._kept_items import STRING as _STRING
from rtlopt.harness._kept_items import Chain, chain_at, directive_events
from rtlopt.harness._kept_items import flat as _flat
from rtlopt.harness._kept_items import items as _items
from rtlopt.harness._kept_items import normal as _normal
from rtlopt.harness._kept_items import words as _words
from rtlopt.verilog import blank_comments

if TYPE_CHECKING:
    from rtlopt.frontend.model import Design, Module

__all__ = [
    "FIX",
    "check_items",
    "design_kept_checks",
    "dropped_checks",
    "exposed_signals",
    "kept_spans",
]


#: What makes a module item a check.
_CHECK = re.compile(
    r"(?<![\w$`])(?:assert|assume|cover|restrict|expect|final|property|sequence)(?![\w$])"
    r"|\$(?:error|fatal|warning)(?![\w$])"
)
#: What a kept check may not hold for the screen's word rules to pass over it: an assumption
#: (it would constrain the proof), ending the simulation, files, the shell, macros.
_NOT_KEPT = re.compile(
    r"(?<![\w$`])(?:assume|restrict)(?![\w$])|\$(?:fatal|finish|stop|f\w+|dump\w*|"
    r"writemem\w*|readmem\w*|system|sformat\w*|swrite\w*|s?scanf)(?![\w$])|`"
)
_DEFINE = re.compile(r"`define[ \t]+([A-Za-z_][\w$]*)((?:[^\n\\]|\\.)*)", re.S)
_DEFINITION = re.compile(r"`(?:define|undef)[ \t]+([A-Za-z_][\w$]*)(?:[^\n\\]|\\.)*", re.S)
_MACRO_USE = re.compile(r"`([A-Za-z_][\w$]*)")


#: A module item declaring constants: its text must be kept where a check reads them.
_CONSTANT = re.compile(
    r"\s*(?:localparam|typedef|function|parameter|const|let)\b|\s*(?:static|automatic)\s+function\b"
)
_IMPORT = re.compile(r"(?<![\w$])import\s+[^;\"]*?::[^;]*;")


def _is_check(item: str, macros: Mapping[str, str], depth: int = 0) -> bool:
    """Whether ``item`` holds a check, directly or through a macro the repository defines."""
    if _CHECK.search(_STRING.sub(" ", item)):
        return True
    for m in _MACRO_USE.finditer(item):
        body = macros.get(m.group(1))
        if body is not None and depth < 8 and _is_check(body, macros, depth + 1):
            return True
    return False


def _regions(text: str, macros: Mapping[str, str]) -> list[tuple[int, str]]:
    """``(offset, normalised text)`` of each ``translate_off`` region of ``text`` holding a
    check."""
    from rtlopt.harness._translate_off import regions

    found = {(s, c) for spans in regions(text).values() for s, _, c in spans if c}
    return [
        (start, "translate_off: " + _normal(c))
        for start, c in sorted(found)
        if _is_check(c, macros)
    ]


def check_items(text: str, macros: Mapping[str, str]) -> list[tuple[int, str]]:
    """``(offset, normalised text)`` of each check of ``text`` (one module's text): its
    ``translate_off`` regions holding a check, then the module items holding one."""
    return [(offset, item) for offset, item, _, _ in chained_checks(text, macros)]


def chained_checks(text: str, macros: Mapping[str, str]) -> list[tuple[int, str, Chain, Chain]]:
    """:func:`check_items` with the context of each: ``(offset, item, the conditional
    directives enclosing it, the generate blocks enclosing it)``."""
    code = _flat(text)
    nested: list[Chain] = []
    events: list[tuple[int, Chain]] = []
    spans = _items(code, nested, events)
    directives = directive_events(blank_comments(text, strings=False))
    out = [(s, c, chain_at(directives, s), chain_at(events, s)) for s, c in _regions(text, macros)]
    out += [
        (a, _normal(code[a:b]), chain_at(directives, a), nested[k])
        for k, (a, b) in enumerate(spans)
        if _is_check(code[a:b], macros)
    ]
    return out


class _Module:
    """What a module's text declares, for judging what a check reads."""

    def __init__(
        self, text: str, ports: set[str], parameters: set[str], macros: Mapping[str, str]
    ) -> None:
        flat = _flat(text)
        nested: list[Chain] = []
        spans = _items(flat, nested)
        self.items = [_normal(flat[a:b]) for a, b in spans]
        self.macros = macros
        directives = directive_events(blank_comments(text, strings=False))
        outer = [chain_at(directives, a) for a, _ in spans]
        #: (context, item) -> how often the module holds the item in that context
        self.keyed = Counter((d + b, i) for d, b, i in zip(outer, nested, self.items, strict=True))
        checks = [bool(_CHECK.search(_STRING.sub(" ", i))) for i in self.items]
        #: generate scope -> name -> its declarations there (with their types)
        self.scopes = scopes(zip(self.items, outer, nested, checks, strict=True), macros)
        self.item_words = {i: _words(i) for i in self.items}
        #: macro name -> its ``define``/``undef`` lines in the module's text
        self.definitions: dict[str, list[str]] = {}
        for m in _DEFINITION.finditer(blank_comments(text, strings=False)):
            self.definitions.setdefault(m.group(1), []).append(_normal(m.group(0)))
        #: subroutine (function, task, let, property, sequence) name -> its declarations
        self.bodies: dict[str, list[str]] = {}
        for item in self.items:
            name = subroutine_name(item)
            if name is not None:
                self.bodies.setdefault(name, []).append(item)
        #: names a module-level item declares plainly (no generate block, no memory): the
        #: only ones a proof can expose by name
        self.comparable = comparable_names(self.items, nested)
        self.ports, self.parameters = ports, parameters
        self.constants: dict[str, list[str]] = {}
        #: the names the constant items declare
        self.declared: set[str] = set()
        self.words: set[str] = set()
        #: word -> the design items (neither check nor constant) mentioning it
        self.uses: dict[str, list[str]] = {}
        for item in self.items:
            if _CONSTANT.match(item):
                self.declared.update(n for n, _ in declarations(item, macros))
                for word in _words(item):
                    self.constants.setdefault(word, []).append(item)
            elif not _CHECK.search(_STRING.sub(" ", item)):
                for word in _words(item):
                    self.uses.setdefault(word, []).append(item)
        self.words = set(self.uses)
        self.hardware = _hardware_words(text)
        self.imports = sorted(_normal(m.group(0)) for m in _IMPORT.finditer(flat))
        #: instance name -> (module type, the items instantiating it)
        self.instances: dict[str, tuple[str, list[str]]] = {}
        for item in self.items:
            inst = _INSTANCE.match(item)
            if inst and inst.group(1) not in _KEYWORDS and inst.group(2) not in _KEYWORDS:
                self.instances.setdefault(inst.group(2), (inst.group(1), []))[1].append(item)


#: A module item instantiating a module or interface (normalised: one space between tokens).
_INSTANCE = re.compile(
    r"([A-Za-z_][\w$]*) (?:# \( .*? \) )?([A-Za-z_][\w$]*) (?:\[ [^\]]* \] )*\(", re.S
)


_SIM_DIRECTIVE = re.compile(r"`(ifdef|ifndef|elsif|else|endif)\b[ \t]*([A-Za-z_][\w$]*)?")


def _hardware_words(text: str) -> set[str]:
    """The words of the design items (no check) of ``text`` synthesis reads: ``translate_off``
    regions and the branches only a build without ``SYNTHESIS`` takes left out (Yosys defines
    ``SYNTHESIS``)."""
    from rtlopt.harness._translate_off import regions

    code = list(blank_comments(text, strings=False))
    for spans in regions(text).values():
        for a, b, _ in spans:
            code[a:b] = " " * (b - a)
    joined = "".join(code)
    # per open conditional: (its current branch is simulation only, it tests SYNTHESIS, its
    # first branch is simulation only: every later branch of it is the opposite)
    stack: list[tuple[bool, bool, bool]] = []
    sim_from: int | None = None
    for m in _SIM_DIRECTIVE.finditer(joined):
        kind, word = m.group(1), m.group(2) or ""
        if kind in ("ifdef", "ifndef"):
            first = kind == "ifndef" and word == "SYNTHESIS"
            stack.append((first, word == "SYNTHESIS", first))
        elif stack and kind == "endif":
            stack.pop()
        elif stack and stack[-1][1]:  # an else / elsif of a SYNTHESIS conditional
            stack[-1] = (not stack[-1][2], True, stack[-1][2])
        now = any(entry[0] for entry in stack)
        if now and sim_from is None:
            sim_from = m.end()
        elif not now and sim_from is not None:
            code[sim_from : m.start()] = " " * (m.start() - sim_from)
            sim_from = None
    if sim_from is not None:
        code[sim_from:] = " " * (len(code) - sim_from)
    flat = _flat("".join(code))
    pieces = [flat[a:b] for a, b in _items(flat)]
    return {w for p in pieces if not _CHECK.search(_STRING.sub(" ", p)) for w in _words(p)}


def _reads(check: str, ref: _Module) -> tuple[set[str], set[str], set[str], set[str], Counter[str]]:
    """What ``check`` reads of module ``ref``: ``(constants, signals, outside, through,
    simulation)``: names a constant item declares, names design code uses, names the module
    does not declare, instances read through (``u_core.x``: what their items read is read
    too), and the items of simulation-only code defining what it reads (synthesis reads none
    of them, so no proof compares them: what they read is read too)."""
    body = check.removeprefix("translate_off: ")
    through = {
        m.group(1)
        for m in re.finditer(r"(?<![\w$`'.\\])([A-Za-z_][\w$]*)\s*\.\s*[A-Za-z_]", body)
        if m.group(1) in ref.instances
    }
    names = closure(body, ref)[0]
    for inst in through:
        kind, items = ref.instances[inst]
        names |= {w for item in items for w in _words(item)} - {kind}
    names -= ref.ports | ref.parameters | through
    simulation: Counter[str] = Counter()
    todo = sorted(n for n in names if n in ref.words and n not in ref.hardware)
    while todo:
        for item in ref.uses.get(todo.pop(), []):
            if item not in simulation:
                simulation[item] = ref.items.count(item)
                more = _words(item) - names - ref.ports - ref.parameters
                names |= more
                todo += [n for n in more if n in ref.words and n not in ref.hardware]
    constants = {n for n in names if n in ref.constants}
    # a name a constant item only reads (a function body's signal) is a signal too
    signals = {n for n in names - ref.declared if n in ref.words}
    return constants, signals, names - constants - signals, through, simulation


def _constant_items(names: set[str], ref: _Module) -> Counter[str]:
    """The constant items defining ``names``, transitively through the constants they read."""
    todo, seen = sorted(names), set(names)
    out: Counter[str] = Counter()
    while todo:
        for item in ref.constants.get(todo.pop(), []):
            if item in out:
                continue
            out[item] = ref.items.count(item)
            for word in _words(item) - seen:
                if word in ref.constants:
                    seen.add(word)
                    todo.append(word)
    return out


def dropped_checks(
    reference: str,
    candidate: str,
    known: tuple[set[str], set[str]],
    macros: Mapping[str, str],
    where: Callable[[int], str],
    *,
    target: bool = True,
    redefined: AbstractSet[str] = frozenset(),
    kept: set[str] | None = None,
) -> list[str]:
    """Messages for the checks of ``reference`` (one module's text) that the ``candidate``
    text (the same module's) does not keep, or keeps reading what no proof shows the same;
    ``known``: the module's ports and the parameters an instance can set; ``where`` names an
    offset of the reference (``file:line``); ``target``: the module is the compared one (its
    signals are proven equal); ``redefined``: the modules the candidate changes; ``kept``
    collects the checks kept so."""
    mine = chained_checks(reference, macros)
    if not mine:
        return []
    ref = _Module(reference, *known, macros)
    cand = _Module(candidate, set(), set(), macros)
    theirs = Counter(cand.keyed)
    theirs.update(
        (d + b, item)
        for _, item, d, b in chained_checks(candidate, macros)
        if item.startswith("translate_off: ")
    )
    out = []
    for offset, item, directives, blocks in mine:
        shown = item if len(item) <= 80 else item[:77] + "..."
        if theirs[directives + blocks, item] <= 0:
            out.append(f"the reference's check at {where(offset)} ({shown}) {lost(item, theirs)}")
            continue
        theirs[directives + blocks, item] -= 1
        why = _read_problems(
            item + " " + " ".join(blocks), ref, cand, target, redefined
        ) or context_problems(item, directives, blocks, ref, cand)
        if why:
            out.append(f"the reference's check at {where(offset)} ({shown}) {why}")
        elif kept is not None and not item.startswith("translate_off: "):
            if not _NOT_KEPT.search(item):  # (a region's items are judged one by one)
                kept.add(item)
    return out


def _read_problems(
    item: str, ref: _Module, cand: _Module, target: bool, redefined: AbstractSet[str]
) -> str:
    """Why what the kept check ``item`` reads is not shown the same in the candidate."""
    constants, signals, outside, through, simulation = _reads(item, ref)
    changed = [i for i, n in simulation.items() if cand.items.count(i) < n]
    if changed:
        return (
            f"reads what simulation-only code defines ({changed[0][:60]}), which the "
            f"candidate defines otherwise and no proof compares: unchecked; {FIX} and the "
            "simulation code it reads, word for word"
        )
    for inst in sorted(through):
        kind, items = ref.instances[inst]
        if kind in redefined or any(cand.items.count(i) < items.count(i) for i in items):
            return (
                f"reads through instance {inst}, which the candidate changes (its module "
                f"{kind} or its instance): no proof compares what the check reads there; {FIX} "
                "and the instance as it is"
            )
    changed = [c for c, n in _constant_items(constants, ref).items() if cand.items.count(c) < n]
    if changed:
        return (
            f"reads constants the candidate declares otherwise ({changed[0][:60]}): "
            f"unchecked; {FIX} and the declarations it reads, word for word"
        )
    missing = sorted(s for s in signals if s not in cand.words and s not in cand.constants)
    if missing:
        return (
            f"reads {', '.join(missing[:4])}, which the candidate does not have (the proof "
            f"compares what the check reads): {FIX} and the signals it reads"
        )
    hidden = sorted(s for s in signals if s not in ref.comparable)
    writers = [i for n in hidden for i in ref.uses.get(n, []) if defines(i, n)]
    changed = [i for i in writers if cand.items.count(i) < ref.items.count(i)]
    if changed:
        return (
            f"reads {', '.join(hidden[:4])}, which no proof compares (not declared plainly at "
            "module level: in a generate block, a memory), and the candidate changes the code "
            f"defining it ({changed[0][:60]}): unchecked; {FIX} and that code word for word"
        )
    if signals and not target:
        return (
            f"reads {', '.join(sorted(signals)[:4])} inside a submodule the candidate "
            f"redefines, which no proof compares: unchecked; {FIX} and keep the module as it is"
        )
    if outside and ref.imports != cand.imports:
        return (
            f"reads {', '.join(sorted(outside)[:4])} from outside the module, and the "
            f"candidate imports other packages ({', '.join(cand.imports[:3]) or 'none'}; "
            f"expected {', '.join(ref.imports[:3]) or 'none'}): {FIX} and the reference's "
            "imports"
        )
    return ""


def repository_macros(texts: list[str], defines: Mapping[str, str]) -> dict[str, str]:
    """Macro name -> the bodies of every definition of it in ``texts`` and ``defines``."""
    out: dict[str, str] = {k: str(v) for k, v in defines.items()}
    for text in texts:
        for m in _DEFINE.finditer(blank_comments(text, strings=False)):
            out[m.group(1)] = out.get(m.group(1), "") + "\n" + m.group(2)
    return out


def _known(mod: Module) -> tuple[set[str], set[str]]:
    return {p.name for p in mod.ports}, {p.name for p in mod.parameters if not p.local}


def design_kept_checks(
    candidate: str, design: Design, kept: set[str] | None = None
) -> list[tuple[int, str]]:
    """``(line, message)`` for the checks of the reference's modules that the ``candidate``
    (its own text) redefines and drops, or keeps reading what no proof shows the same (see the
    module's text). ``kept`` collects the checks kept so, which the screen's word rules pass
    over (:func:`kept_spans`)."""
    from rtlopt.harness._verification_only import hardware_reading
    from rtlopt.verilog import module_spans

    spans = {s.name: s for s in module_spans(candidate)}
    texts: dict[str, tuple[Module, str, str]] = {}  # the changed modules: reference, theirs
    for name in dict.fromkeys([design.target.name, *design.submodules]):
        mod = design.target if name == design.target.name else design.modules.get(name)
        span = spans.get(name)
        if mod is None or span is None:
            continue
        try:  # a branch only the formal build reads is no simulation's check, on both sides
            text = hardware_reading(design, "\n" * max(mod.line - 1, 0) + mod.text(), source=True)
        except OSError:
            continue
        own = hardware_reading(design, candidate[span.start : span.end], source=True)
        if _normal(_flat(own)) != _normal(_flat(text)):
            texts[name] = (mod, text, own)  # (unchanged: its checks read what they read)
    out: list[tuple[int, str]] = []
    for name, (mod, text, own) in texts.items():
        macros = _design_macros(design) if "`" in text else {}
        where = functools.partial(_where, text, _shown(mod.file, design.root))
        line = candidate.count("\n", 0, spans[name].start) + 1
        found = dropped_checks(
            text,
            own,
            _known(mod),
            macros,
            where,
            target=mod is design.target,
            redefined=set(texts),
            kept=kept,
        )
        out += [(line, m) for m in found]
        holding = _holding_checks(design, name)
        if holding:
            out += [(line, m) for m in override_problems(text, own, holding, FIX)]
    return out


#: A macro use that may expand to a check (a directive is none).
_EXPANDING = re.compile(
    r"`(?!(?:ifdef|ifndef|elsif|else|endif|define|undef|undefineall|include|timescale|"
    r"celldefine|endcelldefine|resetall|default_nettype|line|pragma|begin_keywords|"
    r"end_keywords|unconnected_drive|nounconnected_drive)\b)[A-Za-z_][\w$]*"
)


def _holding_checks(design: Design, parent: str) -> set[str]:
    """The modules of ``design`` other than ``parent`` that hold a check, or whose
    instances below do (a parameter passed down reaches it), or that use a macro that may
    expand to one, or cannot be read (fail closed)."""
    from rtlopt.frontend import module_closure

    def holds(name: str) -> bool:
        mod = design.modules.get(name)
        if mod is None:
            return False
        try:
            text = blank_comments(mod.text(), strings=False)
        except OSError:
            return True
        if _is_check(text, macros):
            return True
        # a macro no text of the repository defines may expand to one
        return any(m.group(0)[1:] not in macros for m in _EXPANDING.finditer(text))

    macros = _design_macros(design)
    below = [n for n in module_closure([parent], design.modules) if n != parent]
    direct = {n for n in below if holds(n)}
    return {n for n in below if direct.intersection(module_closure([n], design.modules))}


def exposed_signals(design: Design) -> tuple[str, ...]:
    """The target's own signals its checks read (see the module's text): every proof exposes
    them as outputs of both sides, so a kept check reads the same values."""
    from rtlopt.harness._verification_only import hardware_reading

    t = design.target
    try:
        text = hardware_reading(design, t.text(), source=True)
    except OSError:
        return ()
    if not _CHECK.search(text) and "`" not in text:
        return ()
    macros = _design_macros(design) if "`" in text else {}
    found = chained_checks(text, macros)
    if not found:
        return ()
    ref = _Module(text, *_known(t), macros)
    out: set[str] = set()
    for _, item, _, blocks in found:
        out |= _reads(item + " " + " ".join(blocks), ref)[1]
    return tuple(sorted(out))


#: :func:`repository_macros` per design object (a design's files do not change while it is
#: evaluated).
_MACROS: dict[int, tuple[object, dict[str, str]]] = {}


def _design_macros(design: Design) -> dict[str, str]:
    from rtlopt.harness._hierarchy import macro_texts

    hit = _MACROS.get(id(design))
    if hit is None or hit[0] is not design:
        if len(_MACROS) > 8:
            _MACROS.clear()
        hit = _MACROS[id(design)] = (
            design,
            repository_macros(list(macro_texts(design)), design.defines),
        )
    return hit[1]


def _where(text: str, shown: str, offset: int) -> str:
    return f"{shown}:{text.count(chr(10), 0, offset) + 1}"


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except (OSError, ValueError):
        return str(path)


def kept_spans(code: str, kept: set[str]) -> list[tuple[int, int]]:
    """The spans of ``code`` (a candidate's text) that are module items of ``kept``
    (:func:`design_kept_checks`): the reference's own checks, word for word, reading what the
    proofs show the same, holding no assumption, no end of the simulation, no file and no
    macro."""
    if not kept:
        return []
    flat = _flat(code)
    return [(a, b) for a, b in _items(flat) if _normal(flat[a:b]) in kept]
