"""Port order is not a design change: a candidate's port list put in the reference's order.

A rewrite (an LLM's, an expert's) often lists the same ports in another order. Instances that
connect ports by name do not see the order; instances that connect them by position do. The
candidate's header is therefore rewritten to list its ports in the reference's order before it
is evaluated and before it is written back, so only real interface changes (names, widths,
directions, types, parameters) are refused by the interface check.

Both header styles are handled:

- ANSI (``module m (input [3:0] a, b, output y);``): each port keeps its own declaration; a
  port that inherited its direction and type from the one before (``b`` above) gets them
  written out, since its neighbour may move.
- Non-ANSI (``module m (a, b, y); input a; ...``): the list of names is permuted.

Anything else (a port list with compiler directives, port expressions such as ``.a(x)`` or
``{a, b}``, a different set of names) is left as it is: the interface check then names the
difference, so the rewrite never hides one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rtlopt.verilog import ESCAPED_IDENTIFIER, IDENTIFIER, blank_comments, find_span

__all__ = ["in_reference_order"]

_NAME = re.compile(rf"(?:{ESCAPED_IDENTIFIER}|{IDENTIFIER})")
_HEADER = re.compile(rf"\b(?:module|macromodule)\s+(?:(?:static|automatic)\s+)?({_NAME.pattern})")
_DIRECTION = re.compile(r"\s*(?:input|output|inout|ref)\b")
# a same-line comment right after an item's comma belongs to that item
_TRAILING = re.compile(r"[ \t]*(?://[^\n]*|/\*.*?\*/)", re.S)


@dataclass(frozen=True)
class _Item:
    """One entry of the port list: its declaration (ANSI, with an explicit direction and type)
    or its name (non-ANSI), and the comment on its line."""

    name: str
    core: str
    comment: str


def in_reference_order(
    text: str, module: str, order: Sequence[str], line: int | None = None
) -> str:
    """``text`` with module ``module``'s port list in the order ``order``.

    Unchanged when the module is not found, already lists its ports in that order, lists
    another set of names, or has a list this rewrite does not handle safely (see the module
    docstring).
    """
    span = find_span(text, module, line)
    if span is None:
        return text
    code = blank_comments(text)
    found = _port_list(code, span.start, span.end)
    if found is None:
        return text
    lo, hi = found
    items, slots = _split(text, code, lo, hi)
    if items is None or [i.name for i in items] == list(order):
        return text
    by_name = {i.name: i for i in items}
    if len(by_name) != len(items) or sorted(by_name) != sorted(order):
        return text
    out: list[str] = []
    for k, name in enumerate(order):
        lead, trail = slots[k]
        item = by_name[name]
        comma = "," if k < len(order) - 1 else ""
        after = trail + (slots[k + 1][0] if k + 1 < len(slots) else text[hi:])
        comment = item.comment
        if comment.lstrip().startswith("//") and not after.startswith(("\n", "\r")):
            comment += "\n"  # a line comment moved before code on its line ends the line
        out.append(f"{lead}{item.core}{comma}{comment}{trail}")
    return text[:lo] + "".join(out) + text[hi:]


def _port_list(code: str, start: int, end: int) -> tuple[int, int] | None:
    """Offsets just inside the parentheses of the module's port list, or None."""
    m = _HEADER.match(code, start)
    if m is None:
        return None
    i = _skip_ws(code, m.end())
    while code.startswith("import", i):  # package imports in the header
        semi = code.find(";", i)
        if semi < 0:
            return None
        i = _skip_ws(code, semi + 1)
    if code.startswith("#", i):
        i = _skip_ws(code, i + 1)
        if not code.startswith("(", i):
            return None
        i = _skip_ws(code, _close(code, i))
    if not code.startswith("(", i):
        return None
    close = _close(code, i)
    if close > end:
        return None
    return i + 1, close - 1


def _split(
    text: str, code: str, lo: int, hi: int
) -> tuple[list[_Item] | None, list[tuple[str, str]]]:
    """The items of the list ``text[lo:hi]`` and, per position, the layout around its item
    (leading and trailing white space and full-line comments)."""
    body = code[lo:hi]
    if "`" in body or not body.strip():
        return None, []
    cuts = _top_level_commas(body)
    if cuts is None:
        return None, []
    bounds = [lo, *(lo + c + 1 for c in cuts), hi + 1]
    raw: list[tuple[str, str, str, str]] = []  # (lead, core, comment, trail)
    for k in range(len(bounds) - 1):
        a, b = bounds[k], bounds[k + 1] - 1  # b: the comma (or the list's end)
        if k > 0:  # the previous item's same-line comment
            tm = _TRAILING.match(text, a)
            if tm is not None and "\n" not in text[a : tm.start()]:
                prev = raw[-1]
                raw[-1] = (prev[0], prev[1], prev[2] + tm.group(0), prev[3])
                a = tm.end()
        seg, cseg = text[a:b], code[a:b]
        first = len(cseg) - len(cseg.lstrip())
        last = len(cseg.rstrip())
        if first >= last:
            return None, []
        core, rest = seg[first:last], seg[last:]
        comment, trail = "", rest
        if k == len(bounds) - 2:  # the last item's comment sits before the list's end
            tm = _TRAILING.match(rest)
            if tm is not None and "\n" not in rest[: tm.start()]:
                comment, trail = tm.group(0), rest[tm.end() :]
        raw.append((seg[:first], core, comment, trail))
    items = _declared([(r[1], r[2]) for r in raw], [code_core(c[1]) for c in raw])
    return items, [(r[0], r[3]) for r in raw]


def code_core(core: str) -> str:
    """An item's text with its comments blanked (for reading its tokens)."""
    return blank_comments(core)


def _declared(items: list[tuple[str, str]], codes: list[str]) -> list[_Item] | None:
    """Name each item; in an ANSI list give every port its own direction and type."""
    if all(_NAME.fullmatch(c.strip()) for c in codes):  # non-ANSI: names only
        pairs = zip(items, codes, strict=True)
        return [_Item(c.strip(), core, comment) for (core, comment), c in pairs]
    out: list[_Item] = []
    prefix: str | None = None
    for (core, comment), c in zip(items, codes, strict=True):
        parsed = _ansi_item(c)
        if parsed is None:
            return None
        head, name = parsed
        if head and not (_DIRECTION.match(head) or "." in head):
            return None  # a type without a direction inherits the one before: keep the order
        if head:
            prefix = core[: len(head)].rstrip()
            out.append(_Item(name, core, comment))
        elif prefix is None:
            return None  # the first port has no declaration: not an ANSI list
        else:
            out.append(_Item(name, f"{prefix} {core.lstrip()}", comment))
    return out


def _ansi_item(c: str) -> tuple[str, str] | None:
    """(the declaration before the name, the name) of one ANSI item, or None."""
    s = c.rstrip()
    eq = _top_level_index(s, "=")
    if eq is not None:
        s = s[:eq].rstrip()
    while s.endswith("]"):  # unpacked dimensions after the name
        depth, j = 0, len(s) - 1
        while j >= 0:
            if s[j] == "]":
                depth += 1
            elif s[j] == "[":
                depth -= 1
                if depth == 0:
                    break
            j -= 1
        if j < 0:
            return None
        s = s[:j].rstrip()
    m = re.search(rf"({_NAME.pattern})\Z", s)
    if m is None or s.lstrip().startswith((".", "{")) or s[m.start() - 1 : m.start()] == ".":
        return None
    return s[: m.start()], m.group(1)


def _top_level_commas(body: str) -> list[int] | None:
    depth = 0
    cuts: list[int] = []
    for i, ch in enumerate(body):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif ch == "," and depth == 0:
            cuts.append(i)
    return cuts if depth == 0 else None


def _top_level_index(s: str, ch: str) -> int | None:
    depth = 0
    for i, c in enumerate(s):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ch and depth == 0:
            return i
    return None


def _skip_ws(code: str, i: int) -> int:
    while i < len(code) and code[i].isspace():
        i += 1
    return i


def _close(code: str, i: int) -> int:
    """``code[i]`` is ``(``: the offset just past its matching ``)``."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(code)
