"""Operators iverilog's run time evaluates otherwise than IEEE 1800 and both proofs.

- A power whose exponent reads a signal: iverilog 11 gives 0 for a negative exponent in an
  expression wider than 32 bits (``64'sd1 ** k`` with ``k = -7``; IEEE 1800 table 11-4 and
  Yosys and slang give 1). A constant exponent is folded at elaboration (a parameter's value is
  compared with iverilog's own, :mod:`rtlopt.frontend._param_iverilog`).
- ``$clog2`` of an argument that may be a negative value narrower than 32 bits (a signed sized
  literal, ``$signed``, a name declared ``signed``): iverilog sign-extends it to 32 bits
  (``$clog2(-4'sd8)`` is 32 to it, 3 to the proofs).

A name is a constant only when every declaration of it in the text is a parameter, a
localparam or a genvar (a signal of the same name in another scope makes it a signal). The
reference's own uses are not exempt: the same spelling may read another declaration.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rtlopt.verilog import line_of

__all__ = ["power_problems"]

_CONSTANT = re.compile(r"\b(?:parameter|localparam|genvar)\b([^;]*)")
_SIGNAL = re.compile(
    r"\b(?:wire|reg|logic|bit|byte|int|shortint|longint|integer|time|real|realtime|"
    r"input|output|inout|tri|tri0|tri1|wand|wor|supply0|supply1|var|uwire)\b([^;]*)"
)
_SIGNED_DECL = re.compile(r"\bsigned\b([^;]*)")
_NAME = re.compile(r"(?<![\w$'.])([A-Za-z_][\w$]*)")
_SIGNED_LITERAL = re.compile(r"\d\s*'\s*[sS]|\$signed\b")
_ESCAPED = re.compile(r"\\\S+")
#: Where a name becomes an implicit net without a declaration: a continuous assignment's
#: left side (to its ``=``), an instance's named connection, a gate's output terminal.
_IMPLICIT = re.compile(
    r"\bassign\b([^=;]*)|\.\s*[A-Za-z_][\w$]*\s*\(\s*([A-Za-z_][\w$]*)\s*\)"
    r"|\b(?:and|or|xor|nand|nor|xnor|buf|not|bufif[01]|notif[01])\s*(?:[A-Za-z_][\w$]*\s*)?"
    r"(?:\[[^\]]*\]\s*)?\(\s*([A-Za-z_][\w$]*)"
)


def _implicit(code: str) -> set[str]:
    """The names an undeclared use may make implicit nets of (:data:`_IMPLICIT`), parameter
    value assignments (``#(.W(W))``) left out."""
    out: list[str] = []
    at = 0
    for m in re.finditer(r"#\s*\(", code):  # blank each `#( ... )` group
        if m.start() >= at:
            end = _group_end(code, m.end() - 1)
            out.append(code[at : m.start()])
            at = end
    text = "".join(out) + code[at:]
    names: set[str] = set()
    for m in _IMPLICIT.finditer(text):
        left, connected, gate = m.groups()
        if left is not None:
            names.update(_NAME.findall(re.sub(r"\[[^\[\]]*\]", " ", left)))
        names.update(n for n in (connected, gate) if n)
    return names


def _operand(code: str, at: int) -> str:
    """The right operand starting at ``at``: a parenthesized group, a call, or one token."""
    i = at
    while i < len(code) and code[i] in " \t\r\n":
        i += 1
    start = i
    if i < len(code) and code[i] in "-+~!":
        i += 1
        while i < len(code) and code[i] in " \t\r\n":
            i += 1
    m = re.match(r"[\w$']+(?:\s*'\s*[sS]?[bBoOdDhH]\s*[\w?]+)?", code[i:])
    if m is not None:
        i += m.end()
    while i < len(code) and code[i] in " \t\r\n":
        i += 1
    if i < len(code) and code[i] == "(":
        i = _group_end(code, i)
    return code[start:i]


def _group_end(code: str, i: int) -> int:
    """The index after the parenthesized group that opens at ``i``."""
    depth = 0
    while i < len(code):
        depth += {"(": 1, ")": -1}.get(code[i], 0)
        i += 1
        if depth == 0:
            break
    return i


def _names(pattern: re.Pattern[str], code: str) -> set[str]:
    return {n for m in pattern.finditer(code) for n in _NAME.findall(m.group(1))}


def _signals(code: str) -> set[str]:
    """The names a signal declaration may declare (a parameter's type keyword, as in
    ``parameter integer N``, declares no signal)."""
    out: set[str] = set()
    for m in _SIGNAL.finditer(code):
        cut = max(code.rfind(c, 0, m.start()) for c in ";(,")
        if re.search(r"\b(?:parameter|localparam)\b", code[cut + 1 : m.start()]):
            continue
        out.update(_NAME.findall(_declared_part(m.group(1))))
    # an undeclared name a continuous assignment or a connection writes is an implicit net
    # (`assign kk = 1'b1;` beside a generate block's `localparam kk`: red-team round 107)
    out.update(_implicit(code))
    return out


def _declared_part(decl: str) -> str:
    """A declaration's text without what it only reads: its selects' and dimensions'
    brackets (``[LEN-1:0]``) and each declarator's initializer (``= LEN``); the names left
    are the ones it may declare (cv32e40p_ff_one's ``2 ** $clog2(LEN)`` beside ``input logic
    [LEN-1:0] in_i`` was read as a power of a signal)."""
    decl = _ESCAPED.sub(" ", decl)  # `\\x(` opens no group (red-team round 107)
    prev = None
    while prev != decl:
        prev, decl = decl, re.sub(r"\[[^\[\]]*\]", " ", decl)
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(decl):
        depth += {"(": 1, "{": 1, ")": -1, "}": -1}.get(ch, 0)
        if ch == "," and depth <= 0:
            parts.append(decl[start:i])
            start = i + 1
    parts.append(decl[start:])
    return ",".join(p.split("=", 1)[0] for p in parts)


def _problem(code: str, at: int, text: str, why: str) -> tuple[int, str]:
    return (
        line_of(code, at),
        f"{why} (`{' '.join(text.split())}`): iverilog evaluates it at run time otherwise than "
        "the proofs; write it as a shift or a product, or with an unsigned constant",
    )


def power_problems(code: str, references: Callable[[], list[str]]) -> list[tuple[int, str]]:
    """Each ``**`` of comment-blanked ``code`` whose exponent reads a signal, and each
    ``$clog2`` whose argument may be a narrow negative value (see the module docstring).
    ``references`` is kept for the screen's signature: no reference spelling exempts one."""
    del references
    found: list[tuple[int, str]] = []
    if "**" not in code and "$clog2" not in code:
        return found
    signals = _signals(code)
    consts = _names(_CONSTANT, code) - signals
    signed = _names(_SIGNED_DECL, code)
    for m in re.finditer(r"\*\*", code):
        exponent = _operand(code, m.end())
        names = {n for n in _NAME.findall(exponent) if not n.startswith("$")}
        if names - consts - {"signed", "unsigned"}:
            found.append(
                _problem(code, m.start(), "**" + exponent, "a power whose exponent reads a signal")
            )
    for m in re.finditer(r"\$clog2\s*\(", code):
        arg = code[m.end() - 1 : _group_end(code, m.end() - 1)]
        if _SIGNED_LITERAL.search(arg) or set(_NAME.findall(arg)) & signed:
            found.append(
                _problem(code, m.start(), "$clog2" + arg, "$clog2 of a value that may be negative")
            )
    return found
