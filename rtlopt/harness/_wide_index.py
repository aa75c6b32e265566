"""Variable indices that a simulator and synthesis read at different widths.

iverilog converts the index of a bit-select, an array word or an indexed part-select
(``r[i]``, ``mem[a]``, ``r[i +: 2]``) to a signed 32-bit integer: of a wider index it keeps the
low 32 bits (``2**32 + 3`` selects element 3), and an unsigned 32-bit index of ``2**31`` or
more becomes negative. Yosys 0.23 and slang (both proofs) read the whole value: such an index is
out of range (a write writes nothing, a read is x), and Yosys keeps only 32 bits of an indexed
part-select's base. Random vectors almost never draw such a value, so a candidate writing
``mem[a]`` for ``if (a < 8) mem[a[2:0]]`` was proven and simulated alike (round 69) while every
simulation of the repository writes word 3 at ``a = 2**32 + 3``.

An index is judged when it is not a constant and is wider than 32 bits, or is an unsigned 32-bit
value selecting in a dimension with a negative bound (``reg [7:0] m [-4:3]``), with the widths of
slang's elaboration under the text's parameter values (:mod:`._elaborated`). The fix: select
with the bits that can be in range (``mem[a[2:0]]``) under a guard on the rest.
"""

from __future__ import annotations

from typing import Any

from rtlopt.harness._elaborated import Elaborated, spot

__all__ = ["wide_index_problems"]

_INDEXED = ("RangeSelectionKind.IndexedUp", "RangeSelectionKind.IndexedDown")


def _kind(e: Any) -> str:
    return str(e.kind).rsplit(".", 1)[-1]


def _index(node: Any) -> Any:
    """The variable index of a select ``node`` (None for another node or a constant one)."""
    k = _kind(node)
    if k == "ElementSelect":
        index = node.selector
    elif k == "RangeSelect" and str(node.selectionKind) in _INDEXED:
        index = node.left
    else:
        return None
    return None if index.constant is not None else index


def _negative_bound(value: Any) -> bool:
    """Whether the dimension ``value`` is selected in has a negative bound."""
    t = value.type
    try:
        return bool(t.hasFixedRange) and int(t.fixedRange.lower) < 0
    except (AttributeError, TypeError, ValueError):
        return True  # a dimension not read here: judged as one that may hold negative indices


def wide_index_problems(design: Elaborated, shift: int) -> list[tuple[int, str]]:
    """``(offset, message)`` of each variable index read at 32 bits by a simulator and whole by
    synthesis and the proof (module docstring); offsets into the parsed text, less ``shift``."""
    out: list[tuple[int, str]] = []

    def check(node: Any) -> None:
        index = _index(node)
        if index is None:
            return
        width = int(index.type.bitWidth)
        if width > 32:
            why = f"is {width} bits wide"
        elif width == 32 and not index.type.isSigned and _negative_bound(node.value):
            why = "is an unsigned 32-bit value selecting in a dimension with a negative bound"
        else:
            return
        at, text = spot(node, shift, "a select")
        out.append(
            (
                at,
                f"the index of {text} {why}: simulation reads its low 32 bits as a signed "
                "integer, synthesis and the proof the whole value (an out-of-range index "
                "selects an element in simulation only); select with the bits that can be in "
                "range under a guard on the others",
            )
        )

    design.visit(check)
    return sorted(set(out))
