"""Enum parameters: their legal values and how an override sets one.

SystemVerilog converts no integer to an enum implicitly, so an override ``-G RV32M=2`` of a
parameter declared ``rv32m_e RV32M`` does not elaborate (slang leaves it unset, with an error),
and a value that is no member of the enum is no configuration a user can write. The legal
values of an enum parameter are its members; an override writes one cast to the enum's type
as slang names it (``ibex_pkg::rv32m_e'(2)``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rtlopt.frontend._slang import node_kind

__all__ = ["EnumParameter", "enum_parameters", "typed_overrides"]

#: An enum parameter: the type as slang prints it, and its members' values.
EnumParameter = tuple[str, tuple[str, ...]]

_INTEGER = re.compile(r"[+-]?\d[\d_]*|\d*'[sS]?[bBoOdDhH][0-9a-fA-FxXzZ_]+")


def enum_parameters(inst: Any) -> dict[str, EnumParameter]:
    """The non-local parameters of the elaborated instance ``inst`` whose type is an enum,
    each with its type and its members' values (as slang prints them)."""
    out: dict[str, EnumParameter] = {}
    for p in inst.body.parameters:
        if node_kind(p) != "Parameter" or p.isLocalParam:
            continue
        try:
            t = p.type
            if not t.isEnum:
                continue
            members = tuple(str(m.value) for m in t.canonicalType)
        except Exception:  # noqa: BLE001 - a type slang cannot describe: no enum known
            continue
        out[p.name] = (str(t), tuple(dict.fromkeys(members)))
    return out


def typed_overrides(overrides: Sequence[str], enums: Mapping[str, EnumParameter]) -> list[str]:
    """``overrides`` (``NAME=VALUE``) with each plain integer value of an enum parameter cast
    to the enum's type, which is how SystemVerilog sets one."""
    out: list[str] = []
    for o in overrides:
        name, _, value = o.partition("=")
        if name in enums and _INTEGER.fullmatch(value.strip()):
            o = f"{name}={enums[name][0]}'({value.strip()})"
        out.append(o)
    return out
