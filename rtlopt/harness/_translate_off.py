"""Regions that synthesis drops and simulation reads: ``// synopsys translate_off`` ...
``// synopsys translate_on``.

Yosys (the proof, the driver count, the netlist) skips the text between the two comments;
every simulator reads it. A second driver, or any other behaviour, hidden there is seen by
simulation only, so the reference's key alone cannot license such a comment: a candidate may
carry a region only where its content (comments blanked, white space collapsed) is a region
the reference carries, each at most as often as the reference does, and where nothing
outside the regions reads or drives what a region declares or writes.

Regions are read in two ways, and a candidate's regions must pass both:

- as Yosys reads them: a comment naming ``synopsys`` or ``synthesis`` and ``translate_off``
  opens one (a wider form than Yosys's, so no region Yosys drops is missed), and only Yosys's
  own closing comment (``synopsys`` or ``synthesis``, then ``translate_on``, nothing else)
  closes it (a narrower form: the region read here never ends before Yosys's does);
- as other tools read them: any comment holding ``translate_off``, ``synthesis_off``,
  ``translate off`` or ``synthesis off`` (``pragma translate_off``, ``rtl_synthesis off``,
  ``altera translate_off``, ...) opens one, any such ``on`` comment closes it.

A region that no comment closes runs to the end of the text. A header the text includes
(found beside a file of the design or in an include folder) counts with its regions; one
included by a macro or under a name not found cannot be read here and is refused when the
text holds a region comment (fail closed).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.verilog import blank_comments, comments, line_of

__all__ = ["region_problems", "regions"]

#: Yosys's opening comment, widened (any case, anything around).
_YOSYS_OFF = re.compile(r"(synopsys|synthesis)\W*translate_off", re.I)
#: Yosys's closing comment exactly (``// synthesis translate_on``, ``/*synopsys translate_on*/``).
_YOSYS_ON = re.compile(
    r"(?://|/\*)[ \t\r\n]*(?:synopsys|synthesis)[ \t\r\n]*translate_on[ \t\r\n]*(?:\*/)?"
)
#: Any tool's opening and closing comments.
_ANY_OFF = re.compile(r"(translate|synthesis)(_|\s+)off\b", re.I)
_ANY_ON = re.compile(r"(translate|synthesis)(_|\s+)on\b", re.I)

Reading = tuple[str, Callable[[str], bool], Callable[[str], bool]]
_READINGS: tuple[Reading, ...] = (
    ("Yosys", lambda c: bool(_YOSYS_OFF.search(c)), lambda c: bool(_YOSYS_ON.fullmatch(c))),
    (
        "other tools",
        lambda c: bool(_ANY_OFF.search(c)),
        lambda c: bool(_ANY_ON.search(c)) and not _ANY_OFF.search(c),
    ),
)
_INCLUDE_RE = re.compile(r"`include\b\s*(\S*)")
_WORD_RE = re.compile(r"(?<![\w$`.\\'])[A-Za-z_][A-Za-z0-9_$]*")
#: Names a region writes: the left-hand side of an assignment, a declaration's names.
_WRITTEN_RE = re.compile(
    r"(?<![\w$`.\\'])([A-Za-z_][A-Za-z0-9_$]*)\s*(?:\[[^\]=;]*\]\s*)*(?:<=|=(?!=)|\+\+|--|"
    r"[-+*/%&|^]=|<<=|>>=)"
)
#: A call or an instance (a task's output argument, an instance's output port): every name in
#: its parentheses counts as written.
_CALL_RE = re.compile(r"(?<![\w$`.\\'])([A-Za-z_][A-Za-z0-9_$]*)\s*\(")
_PREFIX_RE = re.compile(r"(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_$]*)")
_NOT_CALLS = frozenset(
    "if case casez casex for while repeat foreach unique unique0 priority posedge negedge "
    "always always_comb always_ff always_latch initial begin assert assume cover wait return "
    "or and not edge iff".split()
)
_TYPES = (
    r"reg|wire|logic|bit|byte|int|integer|shortint|longint|var|tri|tri0|tri1|wand|wor|real|"
    r"realtime|shortreal|time|event|string|genvar|signed|unsigned|supply0|supply1|input|"
    r"output|inout"
)
#: A declaration statement (its names are what follows the type, brackets aside).
_DECLARATION_RE = re.compile(rf"\s*(?:(?:{_TYPES})\b\s*)+")
_PORT_RE = re.compile(r"\s*(?:input|output|inout)\b")
_KEYWORDS = frozenset(
    "assign always always_comb always_ff always_latch begin end if else case endcase for "
    "posedge negedge or and not default".split()
) | frozenset(_TYPES.split("|"))


def regions(text: str) -> dict[str, list[tuple[int, int, str]]]:
    """Reading name -> ``(start, end, content)`` of each region of ``text``: ``start`` is the
    opening comment's offset, ``end`` the closing comment's end (the text's end when none);
    ``content`` the text between them, comments blanked (strings kept), white space
    collapsed."""
    found = comments(text)
    code = blank_comments(text, strings=False)
    out: dict[str, list[tuple[int, int, str]]] = {}
    for name, opens, closes in _READINGS:
        spans: list[tuple[int, int, str]] = []
        start: int | None = None
        body = 0
        for offset, comment in found:
            if start is None and opens(comment):
                start, body = offset, offset + len(comment)
            elif start is not None and closes(comment):
                spans.append((start, offset + len(comment), " ".join(code[body:offset].split())))
                start = None
        if start is not None:
            spans.append((start, len(text), " ".join(code[body:].split())))
        out[name] = spans
    return out


def _headers(code: str, design: Design, depth: int = 0) -> tuple[list[str], str]:
    """The texts of the headers ``code`` (comments blanked, strings kept) includes, and those
    they include, and why one cannot be read ("" when all can)."""
    files = [design.target.file, *(m.file for m in design.modules.values())]
    folders = dict.fromkeys([*(f.parent for f in files), *design.include_dirs])
    out: list[str] = []
    for m in _INCLUDE_RE.finditer(code):
        name = m.group(1)
        if not (name.startswith('"') and name.endswith('"') and len(name) > 2):
            return out, "an `include that is not a plain file name"
        found = [Path(d) / name[1:-1] for d in folders if (Path(d) / name[1:-1]).is_file()]
        if not found:
            return out, f"the header {name} is not found"
        if depth > 8:
            return out, f"the header {name} is included too deep"
        for path in dict.fromkeys(found):
            try:
                header = path.read_text(errors="replace")
            except OSError:
                return out, f"the header {name} cannot be read"
            out.append(header)
            more, why = _headers(blank_comments(header, strings=False), design, depth + 1)
            out += more
            if why:
                return out, why
    return out, ""


def _all_regions(texts: Iterable[str]) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for text in texts:
        for name, spans in regions(text).items():
            out.setdefault(name, Counter()).update(c for _, _, c in spans)
    return out


def _reference_regions(texts: list[str], design: Design) -> dict[str, Counter[str]]:
    """The regions of the reference's ``texts`` and of the headers they include."""
    code = [blank_comments(t, strings=False) for t in texts]
    return _all_regions([*texts, *(h for c in code for h in _headers(c, design)[0])])


def _names(content: str) -> set[str]:
    """What a region declares or writes."""
    found = {m.group(1) for m in _WRITTEN_RE.finditer(content)}
    found |= {m.group(1) for m in _PREFIX_RE.finditer(content)}
    for m in _CALL_RE.finditer(content):
        if m.group(1) in _NOT_CALLS:
            continue
        depth, end = 1, m.end()
        while end < len(content) and depth:
            depth += {"(": 1, ")": -1}.get(content[end], 0)
            end += 1
        found.update(_WORD_RE.findall(content[m.end() : end]))
    for stmt in content.split(";"):
        if _DECLARATION_RE.match(stmt):
            plain = re.sub(r"\[[^\]]*\]|=[^,]*", " ", stmt)
            found.update(_WORD_RE.findall(plain))
    return found - _KEYWORDS


def _declarations_only(code: str, name: str) -> bool:
    """Every use of ``name`` in ``code`` (comments blanked) is in a plain declaration
    statement (``reg [7:0] name;``), which neither reads nor drives it."""
    for m in re.finditer(rf"(?<![\w$`.\\']){re.escape(name)}(?![\w$])", code):
        start = max(code.rfind(";", 0, m.start()), code.rfind("\n", 0, m.start())) + 1
        end = code.find(";", m.end())
        stmt = code[start : end if end >= 0 else len(code)]
        if "=" in stmt or not _DECLARATION_RE.match(stmt) or _PORT_RE.match(stmt):
            return False
    return True


def region_problems(
    text: str,
    design: Design,
    skipped: list[tuple[int, int]],
    reference_texts: Callable[[], list[str]],
    reference_file: Callable[[], str] = str,
) -> list[tuple[int, str]]:
    """``(line, message)`` for each region of the candidate ``text`` (and of the headers it
    includes) that the reference does not carry as often, or that declares or writes a name
    code outside the regions reads or drives. ``skipped``: spans not judged (unchanged copies
    of repository modules). The reference's regions are those of its modules' texts or of the
    target's file (``reference_file``; a copy of the whole file keeps them), with the headers
    each includes."""
    mine = regions(text)
    code = blank_comments(text, strings=False)
    if not any(mine.values()) and "`include" not in code:
        return []
    headers, why = _headers(code, design)
    theirs = _all_regions(headers)
    if why:  # a header not read here may hold a region
        return (
            [(1, f"the translate_off regions cannot be judged: {why}")]
            if any(mine.values())
            else []
        )
    if not any(mine.values()) and not any(theirs.values()):
        return []
    allowed = _reference_regions(reference_texts(), design)
    for reading, counts in _reference_regions([reference_file()], design).items():
        allowed[reading] = allowed.get(reading, Counter()) | counts
    outside = code
    for spans in mine.values():
        for start, end, _ in spans:
            outside = outside[:start] + " " * (end - start) + outside[end:]
    problems: list[tuple[int, str]] = []
    names: dict[str, int] = {}  # what the judged regions declare or write -> line
    for reading, spans in mine.items():  # Yosys's reading, then other tools'
        used: Counter[str] = Counter(theirs.get(reading, Counter()))
        limit = allowed.get(reading, Counter())
        if any(used[c] > limit[c] for c in used):
            problems.append(
                (
                    1,
                    "a header this text includes holds a translate_off region that the "
                    "reference does not carry",
                )
            )
        names.update((n, 1) for c in used for n in _names(c))
        for start, _, content in spans:
            if any(a <= start < b for a, b in skipped):
                continue
            line = line_of(text, start)
            names.update((n, line) for n in _names(content) if n not in names)
            used[content] += 1
            if used[content] > limit[content]:
                problems.append(
                    (
                        line,
                        "translate_off region is not allowed: Yosys drops it and simulation "
                        "reads it, and the reference carries no region of this content (or "
                        "fewer of them)",
                    )
                )
    for word, line in sorted(names.items()):
        if not _declarations_only(outside, word):
            problems.append(
                (
                    line,
                    f"'{word}', which a translate_off region declares or writes, is read or "
                    "driven outside the regions (simulation alone reads the region)",
                )
            )
    return problems
