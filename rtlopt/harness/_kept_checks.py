"""The reference's verification content, which a candidate must keep.

A repository's regression reads what synthesis does not: a ``translate_off`` region, a branch
only simulation takes (```ifndef SYNTHESIS``), an assertion, an ``$error`` or ``$display``, a
file it writes, a ``final`` block. Such content changes no output, so the proofs and rtlopt's
simulation pass a candidate without it, while the repository's own regression (which fails on
an ``ERROR`` in its log, or reads the file) no longer sees the check: a candidate dropping it
changes the repository's verification verdict.

Rule (fail closed). The reference module's text is read with every conditional branch taken
(directives blanked: a branch any build reads counts) and cut into module items (a statement
up to its ``;`` or the ``end`` closing its block, an ``if``'s ``else`` with it, a macro use
with its arguments). An item is verification content when it holds an assertion keyword, a
reporting, file or simulation-control system task (:data:`_VERIFY`), or a macro whose
definition holds one, uses another macro, or is not found (a macro not read here may expand
to a check); each ``translate_off`` region (any tool's reading) is one too. The candidate must
hold every such item, white space and comments aside, as often as the reference does, and
the names it reads must mean the same there: ports and parameters of the module (the proof
makes the ports equal; parameters are the same configuration), or names the item declares.
An item that reads any other name (a register the candidate may re-encode: ``cnt == 4'hf``)
cannot be shown to mean the same and leaves the change unchecked (:mod:`._check_meaning`).

A branch only the formal build reads (```ifdef FORMAL`` where no simulation or hardware
build defines ``FORMAL``: :mod:`._verification_only`) is no simulation's content and is left
out on both sides, as every other rule leaves it out.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.harness._check_meaning import changed_reads
from rtlopt.verilog import blank_comments

if TYPE_CHECKING:
    from rtlopt.frontend.model import Design

__all__ = [
    "FIX",
    "check_items",
    "design_dropped_checks",
    "dropped_checks",
    "kept_spans",
    "repository_macros",
]

FIX = "keep the reference's check"

#: Assertion keywords and the system tasks of a check: reports, files, simulation control.
_VERIFY = re.compile(
    r"(?<![\w$`])(?:assert|assume|cover|restrict|expect|final|property|sequence|checker)"
    r"(?![\w$])|\$(?:error|warning|info|fatal|finish|stop|display[bho]?|write[bho]?|"
    r"monitor[bho]?|monitoron|monitoroff|strobe[bho]?|fopen|fclose|fflush|fdisplay[bho]?|"
    r"fwrite[bho]?|fstrobe[bho]?|fmonitor[bho]?|dump\w*|writemem[bh]|test\$plusargs|"
    r"value\$plusargs|system)(?![\w$])"
)
_TOKEN = re.compile(
    r'"(?:\\.|[^"\\\n])*"|`?[A-Za-z_$][\w$]*|\\\S+|\d*\s*\'[sS]?[bodhBODH]\s*[\w?]+|\d[\w.]*|'
    r"===|!==|==\?|!=\?|==|!=|<<<|>>>|\|->|\|=>|&&&|&&|\|\||<=|>=|<<|>>|->|##|::|\*\*|~&|~\||~\^|"
    r"\^~|\+\+|--|[-+*/%&|^]=|\S"
)
_OPEN = frozenset(
    "begin fork case casex casez randcase function task property sequence clocking "
    "covergroup specify checker".split()
)
_CLOSE = frozenset(
    "end join join_any join_none endcase endfunction endtask endproperty endsequence "
    "endclocking endgroup endspecify endchecker".split()
)
#: What a kept check may not hold for the screen to pass over it: an assumption (it would
#: constrain the proof), ending the simulation, files, the shell, macros.
_NOT_KEPT = re.compile(
    r"(?<![\w$`])(?:assume|restrict)(?![\w$])|\$(?:fatal|finish|stop|f\w+|dump\w*|"
    r"writemem\w*|readmem\w*|system|sformat\w*|swrite\w*|s?scanf)(?![\w$])|`"
)
_STATES = frozenset({"assert", "assume", "cover", "restrict", "expect"})
_SEPARATE = frozenset({"generate", "endgenerate", "endmodule"})
#: Directive lines blanked before the items are cut (every branch is read).
_DIRECTIVE_LINE = re.compile(
    r"`(?:ifdef|ifndef|elsif|else|endif|undef|undefineall|resetall|timescale|"
    r"default_nettype|celldefine|endcelldefine|line|include|pragma|begin_keywords|"
    r"end_keywords|nounconnected_drive|unconnected_drive)\b[^\n]*"
)
_DEFINE_LINE = re.compile(r"`define\b(?:[^\n\\]|\\.)*", re.S)
_MACRO_USE = re.compile(r"`([A-Za-z_][\w$]*)")
_NAME = re.compile(r"(?<![\w$`'.\\])[A-Za-z_][\w$]*")


def _items(code: str) -> list[tuple[int, int]]:
    """Spans of the module items of ``code`` (comments blanked, directives blanked)."""
    out: list[tuple[int, int]] = []
    tokens = list(_TOKEN.finditer(code))
    start: int | None = None
    depth = paren = 0
    i = 0
    while i < len(tokens):
        m = tokens[i]
        tok = m.group(0)
        if start is None:
            if tok in _SEPARATE:
                i += 1
                continue
            start = m.start()
            if tok.startswith("`") and i + 1 < len(tokens) and tokens[i + 1].group(0) == "(":
                j, level = i + 1, 0  # a macro use with its arguments is one item
                while j < len(tokens):
                    level += {"(": 1, ")": -1}.get(tokens[j].group(0), 0)
                    if level == 0:
                        break
                    j += 1
                if j + 1 < len(tokens) and tokens[j + 1].group(0) == ";":
                    j += 1
                out.append((start, tokens[min(j, len(tokens) - 1)].end()))
                start, i = None, j + 1
                continue
        if tok in "([{":
            paren += 1
        elif tok in ")]}":
            paren = max(paren - 1, 0)
        elif tok in _OPEN and not (i and tokens[i - 1].group(0) in _STATES):
            depth += 1  # ``assert property (...)`` opens no declaration
        elif tok in _CLOSE:
            depth = max(depth - 1, 0)
        if paren == 0 and depth == 0 and (tok == ";" or tok in _CLOSE):
            nxt = tokens[i + 1].group(0) if i + 1 < len(tokens) else ""
            if nxt != "else":
                out.append((start, m.end()))
                start = None
        i += 1
    if start is not None:
        out.append((start, len(code)))
    return out


def _flat(text: str) -> str:
    """``text`` with comments and directive lines blanked (offsets kept): every branch read."""
    code = blank_comments(text, strings=False)
    for pattern in (_DEFINE_LINE, _DIRECTIVE_LINE):
        code = pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)
    return code


def _normal(item: str) -> str:
    tokens = _TOKEN.findall(item)
    return " ".join(t if t.startswith('"') else re.sub(r"\s+", "", t) for t in tokens)


def _verifies(item: str, macros: Mapping[str, str], depth: int = 0) -> bool:
    """Whether ``item`` holds a check, directly or through a macro (fail closed)."""
    if _VERIFY.search(item):
        return True
    for m in _MACRO_USE.finditer(item):
        body = macros.get(m.group(1))
        if body is None or depth > 8 or _verifies(body, macros, depth + 1):
            return True
    return False


def check_items(text: str, macros: Mapping[str, str]) -> list[tuple[int, str]]:
    """``(offset, normalised text)`` of each piece of verification content of ``text`` (one
    module's text): its ``translate_off`` regions and the module items holding a check."""
    from rtlopt.harness._translate_off import regions

    found = {(s, c) for spans in regions(text).values() for s, _, c in spans if c}
    out = [(start, "translate_off: " + _normal(c)) for start, c in sorted(found)]
    code = _flat(text)
    for a, b in _items(code):
        if _verifies(code[a:b], macros):
            out.append((a, _normal(code[a:b])))
    return out


def dropped_checks(
    reference: str,
    candidate: str,
    known: set[str],
    macros: Mapping[str, str],
    where: Callable[[int], str],
    kept: set[str] | None = None,
) -> list[str]:
    """Messages for the verification content of ``reference`` (one module's text) that the
    ``candidate`` text does not keep, or keeps reading names other than ``known`` (the
    module's ports and parameters); ``where`` names an offset of the reference
    (``file:line``)."""
    mine = check_items(reference, macros)
    if not mine:
        return []
    from rtlopt.harness._translate_off import regions

    flat, ref_flat = _flat(candidate), _flat(reference)
    cand_items = [_normal(flat[a:b]) for a, b in _items(flat)]
    ref_items = [_normal(ref_flat[a:b]) for a, b in _items(ref_flat)]
    theirs = Counter(cand_items)
    theirs.update(
        "translate_off: " + _normal(c)
        for _, c in {(s, c) for spans in regions(candidate).values() for s, _, c in spans}
    )
    out = []
    for offset, item in mine:
        shown = item if len(item) <= 80 else item[:77] + "..."
        if theirs[item] <= 0:
            out.append(
                f"the reference's verification content at {where(offset)} ({shown}) is "
                f"missing from the candidate: the repository's simulation reads it; {FIX} "
                "(the same text)"
            )
            continue
        theirs[item] -= 1
        if item.startswith("translate_off: "):
            continue  # its items are judged one by one
        inner = changed_reads(item, ref_items, cand_items, known)
        if not inner and kept is not None and not _NOT_KEPT.search(item):
            kept.add(item)
        if inner:
            out.append(
                f"the reference's verification content at {where(offset)} ({shown}) reads "
                f"{', '.join(inner[:4])}, which the candidate defines otherwise (the proof "
                f"shows only the ports equal): unchecked; {FIX} and every statement and "
                "declaration that defines what it reads, or keep the module as it is"
            )
    return out


_DEFINE = re.compile(r"`define[ \t]+([A-Za-z_][\w$]*)((?:[^\n\\]|\\.)*)", re.S)


def repository_macros(texts: list[str], defines: Mapping[str, str]) -> dict[str, str]:
    """Macro name -> the bodies of every definition of it in ``texts`` and ``defines`` (a
    name defined twice is judged by all its bodies)."""
    out: dict[str, str] = {k: str(v) for k, v in defines.items()}
    for text in texts:
        for m in _DEFINE.finditer(blank_comments(text, strings=False)):
            out[m.group(1)] = out.get(m.group(1), "") + "\n" + m.group(2)
    return out


def design_dropped_checks(
    candidate: str, design: Design, kept: set[str] | None = None
) -> list[tuple[int, str]]:
    """``(line, message)`` for the verification content of the reference's modules that the
    ``candidate`` (its own text, comments kept) drops or keeps with a meaning not shown (see
    the module's text): the modules it defines are compared with its text of them; a module
    of the reference's hierarchy it does not define must still be instantiated, through the
    repository modules it names. ``kept`` collects the checks the candidate keeps reading
    what means the same, which the screen may pass over (:func:`kept_spans`)."""
    from rtlopt.harness._verification_only import hardware_reading
    from rtlopt.verilog import module_spans

    spans = {s.name: s for s in module_spans(candidate)}
    names = [design.target.name, *design.submodules]
    macros: dict[str, str] | None = None
    words = set(_NAME.findall(blank_comments(candidate)))
    reached = _reached(words - set(spans), design)
    out: list[tuple[int, str]] = []
    for name in dict.fromkeys(names):
        mod = design.modules.get(name, design.target if name == design.target.name else None)
        if mod is None:
            continue
        try:
            text = hardware_reading(design, "\n" * max(mod.line - 1, 0) + mod.text(), source=True)
        except OSError:
            continue
        if macros is None and "`" in text:
            macros = _design_macros(design)
        found = check_items(text, macros or {})
        if not found:
            continue
        span = spans.get(name)
        rel = _shown(mod.file, design.root)
        where = functools.partial(_where, text, rel)
        if span is None:
            if name in reached:
                continue
            out.append(
                (
                    1,
                    f"the candidate no longer instantiates {name}, whose verification "
                    f"content ({where(found[0][0])}) the repository's "
                    f"simulation reads; {FIX} (keep the instance)",
                )
            )
            continue
        # a localparam is the module's own text: followed to its definition like a signal
        known = {p.name for p in mod.ports} | {p.name for p in mod.parameters if not p.local}
        line = candidate.count("\n", 0, span.start) + 1
        own = hardware_reading(design, candidate[span.start : span.end], source=True)
        out += [(line, m) for m in dropped_checks(text, own, known, macros or {}, where, kept)]
    return out


#: :func:`repository_macros` per design object (at most 8; a design's files do not change
#: while it is evaluated).
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


def _reached(words: set[str], design: Design) -> set[str]:
    """The repository modules ``words`` name and those they instantiate, transitively."""
    todo = [w for w in words if w in design.modules]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += [n for n in design.modules[name].instances if n in design.modules]
    return seen


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except (OSError, ValueError):
        return str(path)


def kept_spans(code: str, kept: set[str]) -> list[tuple[int, int]]:
    """The spans of ``code`` (a candidate's text, comments and strings as written) that are
    module items of ``kept`` (:func:`design_dropped_checks`): the reference's own checks, word
    for word,
    reading what the candidate defines as the reference does, holding no assumption, no end
    of the simulation, no file and no macro."""
    if not kept:
        return []
    flat = _flat(code)
    return [(a, b) for a, b in _items(flat) if _normal(flat[a:b]) in kept]
