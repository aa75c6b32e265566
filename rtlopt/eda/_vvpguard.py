"""The structural check of a compiled testbench: no system task in the candidate's scopes.

iverilog's output (``.vvp``) is text in which every statement sits in a scope, and every call
of a system task or function is one instruction (``%vpi_call``, ``%vpi_call/w``,
``%vpi_func``, ``%vpi_func/r``...) naming the task. Whatever text or macro trick produced a
``$fopen`` or a ``$finish``, it shows up here, in the scope of the module it was elaborated
into. :func:`foreign_system_calls` finds the calls in the candidate's scopes (the candidate
instance, its submodules and their tasks, functions and blocks) that the reference's scope of
the same module does not hold itself: a repository module may keep its ``$display`` under
`` `ifdef SIM``, a candidate may not add one. Calls in packages (``$unit``) are allowed only
when they are pure functions. The check runs before ``vvp`` does; it is the first defence, the
sealed run of :func:`rtlopt.eda.iverilog.run_simulation` the second.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["PURE_FUNCTIONS", "VvpGuard", "foreign_system_calls"]

#: System functions without a side effect and without input from outside the simulation.
PURE_FUNCTIONS = frozenset(
    {
        "$clog2", "$signed", "$unsigned", "$bits", "$countones", "$onehot", "$onehot0",
        "$isunknown", "$itor", "$rtoi", "$bitstoreal", "$realtobits", "$shortrealtobits",
        "$bitstoshortreal", "$ln", "$log10", "$exp", "$sqrt", "$pow", "$floor", "$ceil",
        "$sin", "$cos", "$tan", "$asin", "$acos", "$atan", "$atan2", "$hypot", "$sinh",
        "$cosh", "$tanh", "$asinh", "$acosh", "$atanh", "$abs", "$min", "$max",
    }
)  # fmt: skip

_SCOPE_DECL = re.compile(
    r'^(S_0x[0-9a-f]+)\s+\.scope\s+([\w.]+)\s*,\s*"((?:[^"\\]|\\.)*)"\s+"((?:[^"\\]|\\.)*)"'
    r"[^;]*?(?:,\s*(S_0x[0-9a-f]+))?\s*;"
)
_SCOPE_SWITCH = re.compile(r"^\s+\.scope\s+(S_0x[0-9a-f]+)\s*;")
_CALL = re.compile(r'^\s+%vpi_(?:call|func)\S*\s+(\d+)\s+(\d+)\s+"((?:[^"\\]|\\.)*)"')
_FILE_NAME = re.compile(r'^\s+"((?:[^"\\]|\\.)*)";')


@dataclass
class _Scope:
    kind: str
    instance: str
    definition: str
    parent: str | None
    calls: Counter[str] = field(default_factory=Counter)
    # the first place of each call: (file index, line)
    places: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class VvpGuard:
    """Which scopes of a compiled testbench are whose.

    Attributes:
        top: The testbench's top module (its own calls are the verdict's).
        reference: The renamed reference's module name.
        candidate: The candidate's module name (the target's name).
    """

    top: str
    reference: str
    candidate: str


def _scopes(vvp_text: str) -> dict[str, _Scope]:
    scopes: dict[str, _Scope] = {}
    current: str | None = None
    for line in vvp_text.splitlines():
        if line.startswith("S_0x"):
            m = _SCOPE_DECL.match(line)
            if m is None:
                # an unreadable scope: its code would be attributed to the wrong scope
                raise ValueError(f"unreadable scope line: {line[:120]}")
            sid, kind, inst, defn, parent = m.groups()
            scopes[sid] = _Scope(kind, inst, defn, parent)
            current = sid
            continue
        m2 = _SCOPE_SWITCH.match(line)
        if m2 is not None:
            current = m2.group(1)
            continue
        m3 = _CALL.match(line)
        if m3 is not None:
            if current is None or current not in scopes:
                raise ValueError(f"a system call outside any scope: {line.strip()[:120]}")
            name = m3.group(3)
            scopes[current].calls[name] += 1
            scopes[current].places.setdefault(name, (int(m3.group(1)), int(m3.group(2))))
    return scopes


def _file_names(vvp_text: str) -> list[str]:
    """The ``:file_names`` table (a call names its file by index), base names only."""
    head, sep, tail = vvp_text.rpartition(":file_names ")
    if not sep:
        return []
    names = []
    for line in tail.splitlines()[1:]:
        m = _FILE_NAME.match(line)
        if m is None:
            break
        names.append(m.group(1).rsplit("/", 1)[-1])
    return names


def _place(s: _Scope, name: str, files: list[str]) -> str:
    """`` at FILE:LINE`` of the first call of ``name`` in ``s`` (as the compiler recorded it;
    for the message only, never for the decision)."""
    if name not in s.places:
        return ""
    idx, line = s.places[name]
    return f" at {files[idx]}:{line}" if 0 <= idx < len(files) else f" at line {line}"


def _module_of(sid: str, scopes: dict[str, _Scope]) -> str:
    """The module (or package) scope that holds ``sid``."""
    s = scopes[sid]
    while s.kind not in ("module", "package") and s.parent in scopes:
        sid = s.parent
        s = scopes[sid]
    return sid


def _path(sid: str, scopes: dict[str, _Scope]) -> list[str]:
    out = []
    cur: str | None = sid
    while cur is not None and cur in scopes:
        out.append(cur)
        cur = scopes[cur].parent
    return out[::-1]


def _side(sid: str, scopes: dict[str, _Scope], guard: VvpGuard) -> str:
    """top, reference, candidate, package or other: whose code the scope holds."""
    mod = _module_of(sid, scopes)
    if scopes[mod].kind == "package":
        return "package"
    defs = [scopes[p].definition for p in _path(mod, scopes)]
    if not defs or defs[0] != guard.top:
        return "other"
    if len(defs) == 1:
        return "top"
    if defs[1] == guard.reference:
        return "reference"
    return "candidate" if defs[1] == guard.candidate else "other"


def _definition(mod: str, scopes: dict[str, _Scope], guard: VvpGuard) -> str:
    """The module's definition name, the renamed reference read as the target."""
    d = scopes[mod].definition
    return guard.candidate if d == guard.reference else d


def _per_instance(
    definition: str, scopes: dict[str, _Scope], sides: dict[str, str], guard: VvpGuard
) -> Counter[str]:
    """The most calls of each name that one reference-side instance of ``definition`` holds
    (its module scope and the tasks, functions and blocks inside it)."""
    per_mod: dict[str, Counter[str]] = {}
    for sid, s in scopes.items():
        if sides[sid] != "reference":
            continue
        mod = _module_of(sid, scopes)
        if _definition(mod, scopes, guard) == definition:
            per_mod.setdefault(mod, Counter()).update(s.calls)
    best: Counter[str] = Counter()
    for calls in per_mod.values():
        for k, v in calls.items():
            best[k] = max(best[k], v)
    return best


def _where(sid: str, scopes: dict[str, _Scope]) -> str:
    return ".".join(scopes[p].instance for p in _path(sid, scopes))


def foreign_system_calls(vvp_text: str, guard: VvpGuard) -> list[str]:
    """The system tasks and functions the candidate's side of a compiled testbench adds.

    Each entry names the call and the hierarchical scope it sits in. Empty: the candidate's
    scopes hold only pure functions and calls that the reference's module of the same name
    holds as often. Fails closed: an unreadable scope line, a call outside any scope, or no
    candidate instance under the top is a finding.
    """
    try:
        scopes = _scopes(vvp_text)
    except ValueError as exc:
        return [str(exc)]
    sides = {sid: _side(sid, scopes, guard) for sid in scopes}
    files = _file_names(vvp_text)
    cand_by_mod: dict[str, Counter[str]] = {}
    places: dict[tuple[str, str], str] = {}
    for sid, s in scopes.items():
        mod = _module_of(sid, scopes)
        if sides[sid] == "candidate":
            cand_by_mod.setdefault(mod, Counter()).update(s.calls)
            for name in s.calls:
                places.setdefault((mod, name), _place(s, name, files))
    findings: list[str] = []
    for mod, calls in cand_by_mod.items():
        d = _definition(mod, scopes, guard)
        # the most calls of one instance of the module on the reference's side
        limit = _per_instance(d, scopes, sides, guard)
        for name, n in sorted(calls.items()):
            if name in PURE_FUNCTIONS or n <= limit[name]:
                continue
            # named from the candidate's module down (the testbench's names are drawn per run)
            inner = [scopes[p].instance for p in _path(mod, scopes)[2:]]
            where = ".".join([guard.candidate, *inner])
            place = places.get((mod, name), "")
            findings.append(f"{name}{place} in {where} (module {scopes[mod].definition})")
    for sid, s in scopes.items():
        if sides[sid] in ("package", "other"):
            for name in sorted(s.calls):
                if name not in PURE_FUNCTIONS:
                    findings.append(
                        f"{name}{_place(s, name, files)} in {_where(sid, scopes)} "
                        "(outside the testbench's two sides)"
                    )
    found_cand = any(v == "candidate" for v in sides.values())
    if not found_cand:
        findings.append(f"no candidate instance of {guard.candidate} under {guard.top}")
    return findings
