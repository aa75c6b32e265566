"""Operators that read x as a value, added by a change (held-out trial 51).

The 0/1 proofs drive inputs with 0 and 1 only, and the x-faithfulness proof lets x into the
inputs the repository feeds x (:mod:`._screen_checks`). A change that writes ``rxd !== 1'b1``
for ``!rxd``, ``rst !== 1'b0`` for ``rst``, or a ``casex`` for an ``if``, is equivalent on
0/1 and turns an x into a definite value: wherever a simulation leaves the input x (a
testbench's undriven line, an input before its first write) the change decides what the
reference leaves x (and, removing one, leaves x where the reference decides). Such a change
is judged x-exactly on every input: where the candidate holds more or fewer of an operator
that reads x as a value (``===``, ``!==``, ``==?``, ``!=?``, ``casex``, ``inside``,
``$isunknown``) than the reference does, every input may be x in the x-faithfulness proof
(:func:`added_reader`), and so is any change of a module where either holds one (round 120:
one ``===`` moved onto another operand keeps the count); it refutes, proves or leaves the
change unchecked as for an x-fed input.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["added_reader", "changed_with_reader", "outside_readers"]

_READERS = re.compile(
    r"(?<![!=<>])===|!==|==\?|!=\?|\bcasex\b|\binside\b"
    # a count of one bits reads an x bit as 0 (red-team round 121: `$onehot(s) ? a : b`)
    r"|\$(?:isunknown|countones|countbits|onehot0|onehot)\b"
    # a macro pasting tokens may build one (red-team round 123: `a =``=``= b`, `ca``sex`)
    r"|``"
)
#: What outside a module a module can read: a macro's body, a function or task (``$unit``).
_OUTSIDE = re.compile(
    r"^[ \t]*`define\b(?:[^\n]*\\\n)*[^\n]*"
    r"|\bfunction\b[\s\S]*?\bendfunction\b|\btask\b[\s\S]*?\bendtask\b",
    re.M,
)


def _counts(code: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in _READERS.finditer(code):
        out[m.group()] = out.get(m.group(), 0) + 1
    return out


def added_reader(reference: str, candidate: str) -> str | None:
    """Where an operator reading x as a value stands more often in one of ``reference`` and
    ``candidate`` (module texts) than in the other (red-team round 119 too: the reference's
    ``(s === 1'b1) ? a : b`` written ``s ? a : b``): "``op`` (the candidate's line N)", or
    None."""
    from rtlopt.evaluate._tb_x_forms import lexed

    ref, cand = lexed(reference), lexed(candidate)
    before, after = _counts(ref), _counts(cand)
    for text, mine, other, whose in (
        (cand, after, before, "its"),
        (ref, before, after, "the reference's"),
    ):
        more = {op for op, n in mine.items() if n > other.get(op, 0)}
        for m in _READERS.finditer(text):
            if m.group() in more:
                return f"{m.group()} ({whose} line {text.count(chr(10), 0, m.start()) + 1})"
    # as many, but the text around them changed: one may be moved onto another operand
    # (red-team round 120: `(s === 1'b1) ? a : b` written `(a === a) ? (s ? a : b) : b`)
    if " ".join(ref.split()) != " ".join(cand.split()):
        for text, whose in ((cand, "its"), (ref, "the reference's")):
            hit = _READERS.search(text)
            if hit:
                return f"{hit.group()} ({whose} line {text.count(chr(10), 0, hit.start()) + 1})"
    return None


def outside_readers(text: str) -> str:
    """Of a file's text outside its modules (modules blanked) or a header's: the macro
    bodies and the functions and tasks that hold an x-reading operator, joined; "" when none."""
    from rtlopt.evaluate._tb_x_forms import lexed

    return "\n".join(
        m.group() for m in _OUTSIDE.finditer(lexed(text)) if _READERS.search(m.group())
    )


def changed_with_reader(
    reference: str,
    candidate: str,
    reference_reads: Callable[[], list[str]],
    candidate_reads: Callable[[], list[str]],
) -> str | None:
    """Where the module texts differ and an x-reading operator stands anywhere either side
    reads: its preprocessed module text, the repository modules below it, a macro, function or
    task outside its modules (red-team round 121: `===` behind a macro of the repository's
    file or header, in a `$unit` function, in a submodule one side instantiates), as
    ":func:`added_reader`'s words; None otherwise."""
    from rtlopt.evaluate._tb_x_forms import lexed

    if " ".join(lexed(reference).split()) == " ".join(lexed(candidate).split()):
        return None
    for reads, whose in (
        (candidate_reads, "what it reads"),
        (reference_reads, "what the reference reads"),
    ):
        for text in reads():  # read only where the module texts differ
            hit = _READERS.search(lexed(text))
            if hit:
                return f"{hit.group()} (in {whose})"
    return None
