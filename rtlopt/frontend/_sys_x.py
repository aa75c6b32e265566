"""Variables and memories a system task may leave x, for
:class:`rtlopt.frontend._net_drivers.Drivers`.

slang writes a system task's output argument as an assignment of an empty argument. Most such
tasks may leave what they write unwritten, and what they never write holds x:

- ``$readmemh``/``$readmemb`` load the entries the file holds (a shorter file, an address
  range, a missing file leave the others unloaded);
- ``$value$plusargs`` writes nothing when the plusarg is absent; ``$sscanf``, ``$fscanf``
  stop at the first field the text does not match; ``$fread`` stops at the end of the file;
  ``$fgets`` writes nothing at the end of the file;
- any other system task with an output argument is not known (fail closed).

Such a driver makes the bits it writes x only where no defined driver of the variable
writes them too (:attr:`rtlopt.frontend._run_x.MayBeX.cover`): a memory with an initializer
(``reg [7:0] mem [0:15] = '{default: 0};``), or that the design writes every entry of
elsewhere, holds a defined value where the file loads nothing. A task that only formats
(``$sformat``, ``$swrite``) or updates a seed (``$random(seed)``, ``$dist_uniform``) writes
a defined value.

What the file, the plusarg or the text holds is not known here and may itself be x (an ``x``
digit in a ``$readmemh`` file, ``+V=x``, a ``%h`` field reading ``x``): the tasks that read
values from it (:data:`_CONTENT`) make what they write x whatever else drives it (the
x-faithfulness proof then decides the change), and z as well (a ``z`` digit, ``+V=z``, a
``%h`` field reading ``z``): their outputs may be z (:attr:`MayBeX.z`), so the proof refuses
``===``, ``!==`` and ``casez``, which tell z from x. ``$fread`` and ``$fgets`` read bytes and
characters, always defined; a system task that is not known may write anything (z too).
"""

from __future__ import annotations

from typing import Any

from rtlopt.frontend._run_x import MayBeX, place, text_of

__all__ = ["output_x"]

# tasks whose output argument is always written with a defined value
_DEFINED = frozenset(
    {
        "$sformat",
        "$swrite",
        "$swriteb",
        "$swriteh",
        "$swriteo",
        "$random",
        "$urandom",
        "$dist_uniform",
        "$dist_normal",
        "$dist_exponential",
        "$dist_poisson",
        "$dist_chi_square",
        "$dist_t",
        "$dist_erlang",
    }
)
_MEMORY = "may leave entries it does not load x (a file shorter than the memory, or missing)"
_WHY = {
    "$readmemh": _MEMORY,
    "$readmemb": _MEMORY,
    "$value$plusargs": "writes nothing when the plusarg is absent (x)",
    "$sscanf": "leaves what it does not match unwritten (x)",
    "$fscanf": "leaves what it does not match unwritten (x)",
    "$fread": "leaves what the file does not fill unwritten (x)",
    "$fgets": "writes nothing at the end of the file (x)",
}
#: Tasks whose values come from a file, a plusarg or a text that may spell x.
_CONTENT = frozenset({"$readmemh", "$readmemb", "$value$plusargs", "$sscanf", "$fscanf"})
_FIX = (
    "give it an initializer or a defined write of every bit before the task runs (or test "
    "the task's result and write a defined value when it fails)"
)


def output_x(call: Any, sm: Any) -> MayBeX | None:
    """Why the system task ``call`` may leave its output arguments x (a
    :class:`MayBeX` that other defined drivers of the same bits cover), or None when it
    writes them with a defined value."""
    name = str(call.subroutineName)
    if name in _DEFINED:
        return None
    why = _WHY.get(name, "is a system task whose output is not known to be written (x)")
    content = name in _CONTENT or name not in _WHY
    if content:
        why += "; what it reads may spell x or z (an x or z digit in the file, +V=z)"
    return MayBeX.make(
        f"{text_of(call)} ({{0}}) {why}", (place(call, sm),), cover=not content, fix=_FIX, z=content
    )
