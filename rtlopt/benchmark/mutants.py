"""Mutants of a Verilog module: operator swaps, off-by-one constants, flipped case items.

Shared by the mutation benchmarks (``bench/mutation_analysis.py``) and the stimulus judge
(:mod:`rtlopt.benchmark.stimulus`): text edits on comment-blanked code, restricted to module
bodies (optionally one module's span) and outside declarations, sampled reproducibly.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

from rtlopt.verilog import blank_comments

__all__ = ["Mutant", "generate_mutants", "mutation_sites"]


_OPS: list[tuple[str, str, str]] = [
    # (kind, regex of the operator in blanked code, replacement)
    ("op_swap", r"(?<=[\w\)\]\s])\+(?=[\s\w\(\{~])", "-"),
    ("op_swap", r"(?<=[\w\)\]\s])-(?=[\s\w\(\{~])", "+"),
    ("op_swap", r"(?<![&])&(?![&])(?=[\s\w\(\{~!])", "|"),
    ("op_swap", r"(?<![|])\|(?![|])(?=[\s\w\(\{~!])", "&"),
    ("op_swap", r"\^(?=[\s\w\(\{~])", "&"),
    ("op_swap", r"==", "!="),
    ("op_swap", r"!=", "=="),
    ("op_swap", r"&&", "||"),
    ("op_swap", r"\|\|", "&&"),
    ("op_swap", r"(?<![<>=!])>(?![>=])", "<"),
    ("op_swap", r"~(?=[\w\(])", ""),
]
_CONST = re.compile(r"(\d+)\s*'\s*([dDhH])\s*([0-9a-fA-F_]+)")
_BCONST = re.compile(r"(\d+)\s*'\s*[bB]\s*([01xzXZ?_]+)")
_DROP = re.compile(
    r"(?<=[\w\)\]])(\s*(?:\||&|\^|\+)\s*)(~?[A-Za-z_][\w]*(?:\[[^\]]*\])?)"
    r"(?=\s*[;\)\|&\^+])"
)

Site = tuple[str, int, int, str, str]


@dataclass(frozen=True)
class Mutant:
    """One mutant of a design's target file."""

    design: str
    kind: str
    line: int
    text: str  # mutated target-file text
    description: str


def mutation_sites(text: str, span: tuple[int, int] | None = None) -> Iterator[Site]:
    """(kind, start, end, replacement, description) of every mutation site in module bodies.

    Args:
        text: A Verilog file.
        span: Only sites inside this ``(start, end)`` character range (one module).
    """
    code = blank_comments(text)
    body_spans = [
        (m.start(), m.end()) for m in re.finditer(r"\bmodule\b.*?\bendmodule\b", code, re.S)
    ]
    if span is not None:
        body_spans = [(max(a, span[0]), min(b, span[1])) for a, b in body_spans]
    # skip declarations: ranges in port/wire declarations make boring (compile-only) mutants
    decl = re.compile(r"\b(input|output|inout|wire|reg|parameter|localparam|integer)\b[^;]*;")
    decl_spans = [(m.start(), m.end()) for m in decl.finditer(code)]

    def ok(pos: int) -> bool:
        return any(a <= pos < b for a, b in body_spans) and not any(
            a <= pos < b for a, b in decl_spans
        )

    for kind, pat, rep in _OPS:
        for m in re.finditer(pat, code):
            if ok(m.start()):
                yield kind, m.start(), m.end(), rep, f"'{m.group(0)}' -> '{rep}'"
    for m in _CONST.finditer(code):
        if not ok(m.start()):
            continue
        width, base, digits = int(m.group(1)), m.group(2).lower(), m.group(3).replace("_", "")
        value = int(digits, 16 if base == "h" else 10)
        for delta in (1, -1):
            v = (value + delta) % (1 << width)
            new = f"{width}'{base}{v:x}" if base == "h" else f"{width}'d{v}"
            yield "const", m.start(), m.end(), new, f"{m.group(0)} -> {new}"
    for m in _BCONST.finditer(code):
        if not ok(m.start()):
            continue
        after = code[m.end() : m.end() + 3].lstrip()
        kind = "case_item" if after.startswith(":") or after.startswith(",") else "const"
        bits = m.group(2)
        idx = [i for i, c in enumerate(bits) if c in "01"]
        for i in idx[:: max(1, len(idx) // 3)]:
            flipped = bits[:i] + ("1" if bits[i] == "0" else "0") + bits[i + 1 :]
            new = f"{m.group(1)}'b{flipped}"
            yield kind, m.start(), m.end(), new, f"bit {i} of {m.group(0)[:20]}"
    for m in _DROP.finditer(code):
        if ok(m.start()):
            yield ("drop_term", m.start(), m.end(), "", f"dropped '{m.group(0).strip()[:30]}'")


def generate_mutants(
    name: str, text: str, n: int, seed: int, span: tuple[int, int] | None = None
) -> list[Mutant]:
    """Up to ``n`` distinct mutants of ``text``, sampled reproducibly, kinds round-robin.

    Args:
        name: Design name (part of the sampling seed and of each mutant).
        text: The target file's text.
        n: Most mutants returned.
        seed: Sampling seed.
        span: Only mutate inside this character range (the target module); each mutant's
            text is then that module alone (the file's other modules are not a candidate's).
    """
    sites = list(mutation_sites(text, span))
    rng = random.Random(f"{seed}:{name}")
    rng.shuffle(sites)
    by_kind: dict[str, list[Site]] = {}
    for s in sites:
        by_kind.setdefault(s[0], []).append(s)
    ordered: list[Site] = []
    while any(by_kind.values()):
        for k in sorted(by_kind):
            if by_kind[k]:
                ordered.append(by_kind[k].pop())
    out: list[Mutant] = []
    seen: set[str] = set()
    for kind, a, b, rep, desc in ordered:
        new = text[:a] + rep + text[b:]
        if new in seen or new == text:
            continue
        seen.add(new)
        if span is not None:  # the target module alone: a candidate carries no other module
            new = new[span[0] : span[1] + len(new) - len(text)] + "\n"
        out.append(Mutant(name, kind, text.count("\n", 0, a) + 1, new, desc))
        if len(out) >= n:
            break
    return out
