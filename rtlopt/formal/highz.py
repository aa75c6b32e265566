"""High impedance (z) in either design: a value no proof of rtlopt models.

rtlopt proves two-valued logic (with x as "any value"). Yosys 0.23's SAT and ``equiv_*``
import a constant z bit as a defined 0, the second proof's ``setundef -zero`` makes it 0 as
well, synthesis treats it as "don't care" and simulators keep it as z (or x after logic). So
a design that holds a z anywhere is not proven by any of them:

* a reference with z: no change to it is checked (the evaluator rejects every candidate as
  unchecked);
* a candidate with z where the reference has none: rejected.

The two cases are decided by structure, never by spelling: on the JSON that the proof
scripts write from a copy of both designs right after ``proc -noopt; flatten`` (before any
optimization, beside the drivers check's RTLIL, whose writer prints a z constant as x), a
module holds z when

* a constant z bit stands in a cell's connection, on a wire (an ``assign`` of z) or in a
  register's initial value (``init``);
* a cell parameter's bit value has a z digit;
* a cell is a tri-state buffer (``$tribuf``, ``$_TBUF_``; ``bufif1`` and ``cond ? a : 'z``
  become a ``$mux`` with a z input, found by the first rule).

Every spelling reads the same way: ``1'bz``, ``8'dz``, ``'z``, a ``?`` digit outside case
items, a parameter or function returning z. A module counts with every module its cells
instantiate (a submodule kept by ``keep_hierarchy``). Only a candidate that is the
reference's source byte for byte skips the check (its proof is "identical source").
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["CANDIDATE", "METHOD", "NOT_RUN", "WHY", "high_z", "z_sites"]

#: ``FormalResult.method`` of a verdict of this check.
METHOD = "high-impedance check"
#: How the reason of a rejected candidate starts.
CANDIDATE = "the candidate holds high impedance"
#: What :func:`high_z` says when the JSON is missing, unreadable or lacks a module.
NOT_RUN = "the high-impedance check did not run"

#: Why a z cannot be proven (the end of every message about one).
WHY = (
    "z is no value the proof models (rtlopt proves two-valued logic: its proofs read a z "
    "constant as 0, synthesis as don't-care, simulators as z)"
)

#: A parameter's bit value (Yosys writes a string parameter with a trailing space).
_BITS = re.compile(r"[01xz]+")
_TRISTATE = ("$tribuf", "$_TBUF_")


def high_z(text: str, gold: str, gate: str) -> tuple[str, str]:
    """``(unchecked, rejected)`` for the JSON ``text`` (both designs after ``proc -noopt;
    flatten``): ``unchecked`` says why no change of reference ``gold`` is checked (it holds
    z), ``rejected`` why candidate ``gate`` is rejected (it holds z, the reference does
    not); both "" when neither holds z, ``unchecked`` is :data:`NOT_RUN` when the JSON
    cannot tell."""
    try:
        mods = json.loads(text).get("modules", {}) if text else {}
    except (ValueError, AttributeError):
        mods = {}
    if not isinstance(mods, dict) or gold not in mods or gate not in mods:
        return NOT_RUN, ""
    ref = z_sites(mods, gold)
    if ref:
        return (
            f"unchecked: the reference holds high impedance ({_show(ref)}); {WHY}, so no "
            "change to it is checked",
            "",
        )
    cand = z_sites(mods, gate)
    if cand:
        return "", f"{CANDIDATE} ({_show(cand)}) and the reference does not; {WHY}"
    return "", ""


def z_sites(mods: Mapping[str, Any], top: str) -> list[str]:
    """Where module ``top`` of a Yosys JSON netlist's ``modules``, or a module it instantiates,
    holds z (see the module's description), in order of discovery."""
    found: list[str] = []
    seen: set[str] = set()
    todo = [top]
    while todo:
        name = todo.pop()
        if name in seen or not isinstance(mods.get(name), dict):
            continue
        seen.add(name)
        mod = mods[name]
        for cname, cell in (mod.get("cells") or {}).items():
            kind = str(cell.get("type", ""))
            where = f"{kind}{_public(cname)}{_src(cell)}"
            if kind in _TRISTATE or "tribuf" in kind.lower() or "tbuf" in kind.lower():
                found.append(f"tri-state cell {where}")
            for port, bits in (cell.get("connections") or {}).items():
                if "z" in (bits or ()):
                    found.append(f"a constant z on port {port} of {where}")
            for par, value in (cell.get("parameters") or {}).items():
                if isinstance(value, str) and _BITS.fullmatch(value) and "z" in value:
                    found.append(f"a z digit in parameter {par} of {where}")
            sub = kind[1:] if kind.startswith("\\") else kind
            if not kind.startswith("$") or sub in mods:
                todo.append(sub)
        for net, info in (mod.get("netnames") or {}).items():
            if "z" in (info.get("bits") or ()):
                found.append(f"a constant z on wire {_cell_name(net)}")
            init = (info.get("attributes") or {}).get("init")
            if isinstance(init, str) and _BITS.fullmatch(init) and "z" in init:
                found.append(f"a z initial value of {_cell_name(net)}")
    return found


def _cell_name(name: str) -> str:
    return name[1:] if name.startswith("\\") else name


def _public(name: str) -> str:
    """`` name`` of a cell the source names (``b0``), "" for one Yosys names (``$or$...``)."""
    return "" if name.startswith("$") else f" {_cell_name(name)}"


def _src(cell: Mapping[str, Any]) -> str:
    """`` at file:line`` of a cell (the file's name only, the first of several places)."""
    src = str((cell.get("attributes") or {}).get("src", "")).split("|")[0]
    file, _, pos = src.rpartition(":")
    line = pos.split(".")[0]
    if not file or not line.isdigit() or line == "0":
        return ""
    return f" at {file.replace(chr(92), '/').rsplit('/', 1)[-1]}:{line}"


def _show(sites: list[str], limit: int = 2) -> str:
    more = f" and {len(sites) - limit} more" if len(sites) > limit else ""
    return "; ".join(sites[:limit]) + more
