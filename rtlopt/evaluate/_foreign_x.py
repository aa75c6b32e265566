"""Inputs of the target that a testbench in another language may drive x or z, for the
x-faithfulness proof (:mod:`._xfaith`, through :func:`._screen_checks.repository_reaches`).

The repository's Verilog feeds x where :mod:`rtlopt.frontend._open_inputs` finds it; a cocotb
test writes a port of its toplevel at run time with any value cocotb takes: a string
``dut.s.value = "x"`` or ``"z"``, a ``LogicArray("X")``, a ``BinaryValue``, a ``Logic``, a
variable holding one of those. A candidate that reads x otherwise than the reference (``(s
=== 1'b1) ? a : b`` for ``s ? a : b``) passes the 0/1 proof while that test fails.

:func:`foreign_x_inputs` reads every testbench :func:`._reach_foreign.testbenches` recognises
(fail closed: whatever toplevel it tests):

- a Python (cocotb) write of an input of the target, ``X.s.value = v``,
  ``X.s.setimmediatevalue(v)``, ``X.s <= v``, feeds ``s`` x unless ``v`` is an integer or
  boolean literal (0/1 bits only); z where a string in ``v`` holds a ``z``;
- a write through a handle whose port is not written at its name (``h.value = v`` for ``h =
  dut.s``, ``getattr(dut, "s").value = v``, ``dut._id("s").value = v``) feeds every input of
  the target, judged by ``v`` the same way;
- a C or C++ testbench calling ``vpi_put_value`` feeds every input x or z (a value is
  written by a VPI handle, any bits); a Verilator harness's ``top->s = v`` is no x source
  (Verilator's ports are two-state C integers);
- a Python testbench that may write otherwise than those forms read (``setattr``, a driver
  library such as ``cocotb_bus`` or ``cocotbext``, the handle handed to a call that is not
  the repository's own nor cocotb's ``Clock``/triggers: :mod:`._foreign_x_cocotb`) feeds
  every input x or z (round 73: fail closed, recognising each write form failed); one that
  writes only integer literals and starts a clock feeds nothing;
- a simulator script forcing or depositing a value that is not a plain 0/1 number on an
  input (``force -freeze /tb/dut/s X``, ``set_value /tb/s X``), and a VHDL testbench that
  instantiates the target (its ``std_logic`` carries U, X, Z): :mod:`._foreign_x_scripts`.

The message (:attr:`ForeignX.source`) names the first such place as ``path:line``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.evaluate._foreign_x_cocotb import LITERAL as _LITERAL
from rtlopt.evaluate._foreign_x_cocotb import WRITE as _WRITE
from rtlopt.frontend.model import Design

__all__ = ["ForeignX", "foreign_x_inputs", "xprop_reason"]


@dataclass(frozen=True)
class ForeignX:
    """The inputs foreign testbenches may drive x, whether one may be z, and where the first
    such write stands (for the messages: ``path:line: ...``)."""

    ports: tuple[str, ...] = ()
    z: bool = False
    source: str = ""


#: A write of a handle's value: ``.value = v`` (not ``==``), ``.setimmediatevalue(v``, or the
#: old ``<=`` on a handle (group ``op``); the value follows the match.
_Z_STRING = re.compile(r"[\"'][^\"'\n]*[zZ][^\"'\n]*[\"']|\bLogic(?:Array)?\s*\.\s*Z\b")
_CACHE: dict[Any, tuple[object, ForeignX]] = {}


def foreign_x_inputs(design: Design, own: Path | None = None) -> ForeignX:
    """The inputs of the target the repository's foreign testbenches may drive x or z (see
    the module's docstring), once per design; ``own``: rtlopt's scratch folder."""
    from rtlopt.evaluate._memo import per_design

    key = own.resolve() if own is not None else None
    return per_design(_CACHE, design, lambda: _judged(design, own), key)


def xprop_reason(design: Design, own: Path | None = None) -> str:
    """Why a change of an x-fed target is unchecked because the repository simulates with an
    x-propagation mode (VCS ``-xprop=tmerge``, Xcelium ``-xprop F``, Questa ``+xprop``: an
    unknown ``if`` runs both branches and merges them, so IEEE x semantics, which the
    x-faithfulness proof reads, no longer hold), or "" (:func:`._foreign_x_anytext.xprop_mode`)."""
    from rtlopt.evaluate._foreign_x_anytext import xprop_mode
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    others, unread = other_texts(design, own)
    found = xprop_mode([*repository_texts(design), *others], unread)
    if not found:
        return ""
    path, _, rest = found.partition(":")
    line, _, option = rest.partition(": ")
    try:
        path = Path(path).resolve().relative_to(Path(design.root).resolve()).as_posix()
    except ValueError:
        path = Path(path).name
    return (
        f"{path}:{line}: the repository simulates with an x-propagation mode ({option}), "
        "where an unknown if or case condition merges both branches; rtlopt proves x "
        "faithfulness under IEEE x semantics only, so a change to a target fed x or making x is "
        "unchecked: keep the target's text as it is, or remove the option"
    )


def _judged(design: Design, own: Path | None) -> ForeignX:
    from rtlopt.evaluate._reach_foreign import testbenches
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    inputs = [p.name for p in design.target.ports if p.direction != "output"]
    if not inputs:
        return ForeignX()
    others, unread = other_texts(design, own)
    texts = [*repository_texts(design), *others]
    found: list[tuple[Path, str, int, list[str], str, bool, str]] = []
    by_path = dict(texts)
    benches = testbenches(texts)
    closed = _unread_writes(design, by_path, benches)
    for path, kind in benches.items():
        text = by_path[path]
        writes = _python_writes(text, inputs) if kind == "cocotb" else _c_writes(text, inputs)
        writes += closed.get(path, [])
        found += [(path, text, at, fed, value, z, kind) for at, fed, value, z in writes]
    found += _scripts_and_vhdl(design, texts, inputs)
    read = {p: {by_path[p].count("\n", 0, f[2]) + 1 for f in found if f[0] == p} for p in benches}
    found += _any_text(design, texts, unread, inputs, read, own)
    found += _opaque(design, own, inputs)
    ports: dict[str, None] = {}
    for _, _, _, fed, _, _, _ in found:
        ports.update(dict.fromkeys(fed))
    if not found:
        return ForeignX()
    path, text, at, fed, value, _, kind = found[0]
    return ForeignX(
        tuple(p for p in inputs if p in ports),
        any(f[5] for f in found),
        _where(design, path, text, at, fed, value, kind),
    )


def _unread_writes(
    design: Design, by_path: dict[Path, str], benches: dict[Path, str]
) -> dict[Path, list[tuple[int, list[str], str, bool]]]:
    """Per Python testbench, a way it may write any input that is not read as a write
    (:mod:`._foreign_x_cocotb`): every input, x or z."""
    from rtlopt.evaluate._foreign_x_cocotb import own_callables, unread_write
    from rtlopt.evaluate._reach_foreign import _PY_LEX, _lex

    inputs = [p.name for p in design.target.ports if p.direction != "output"]
    ports = {p.name for p in design.target.ports}
    codes = {p: _lex(by_path[p], _PY_LEX)[0] for p, k in benches.items() if k == "cocotb"}
    own = own_callables(list(codes.values()))
    out: dict[Path, list[tuple[int, list[str], str, bool]]] = {}
    for path, code in codes.items():
        at, why = unread_write(by_path[path], code, own, ports)
        if at >= 0:
            out[path] = [(at, list(inputs), "\0" + why, True)]
    return out


def _any_text(
    design: Design,
    texts: list[tuple[Path, str]],
    unread: list[Path],
    inputs: list[str],
    read: dict[Path, set[int]],
    workdir: Path | None = None,
) -> list[tuple[Path, str, int, list[str], str, bool, str]]:
    """Any other text that holds an x-capable value and may take part in a simulation
    (:mod:`._foreign_x_anytext`, round 74): every input unless a write command names one."""
    from rtlopt.evaluate._foreign_x_anytext import x_texts
    from rtlopt.evaluate._repo_texts import repository_texts
    from rtlopt.evaluate._tb_x import instance_read

    analysed = {Path(f).resolve() for f in [*design.sources.files, *design.sources.prelude]} | {
        p.resolve() for p, _ in repository_texts(design) if p.suffix in _HEADERS
    }
    anchors, holders = _anchors(design, texts)
    out: list[tuple[Path, str, int, list[str], str, bool, str]] = []
    judged = instance_read(design, workdir)
    for h in x_texts(texts, unread, analysed, inputs, anchors, holders, read, judged):
        # the line stands for the offset: ``_where`` counts lines of the text given
        out.append((h.path, "\n" * (h.line - 1), h.line - 1, list(h.fed), h.what, h.z, "any"))
    return out


_HEADERS = frozenset({".v", ".sv", ".vh", ".svh", ".inc", ".vinc", ".svi", ".vi"})


def _opaque(
    design: Design, own: Path | None, inputs: list[str]
) -> list[tuple[Path, str, int, list[str], str, bool, str]]:
    """Every text whose spelling rtlopt cannot read (:func:`._repo_texts.opaque_texts`: a
    compressed file it cannot unpack, a script computing characters at run time): every
    input, x or z."""
    from rtlopt.evaluate._foreign_x_anytext import is_documentation
    from rtlopt.evaluate._repo_texts import opaque_texts

    return [
        (path, "\n" * (line - 1), line - 1, list(inputs), why, True, "opaque")
        for path, line, why in opaque_texts(design, own)
        if not is_documentation(path, set())
    ]


def _anchors(design: Design, texts: list[tuple[Path, str]]) -> tuple[set[str], set[str]]:
    """``<instance>/<input>`` (lower case) where a write of that port of an instance of the
    target writes that input alone, in every instance of that name
    (:func:`._foreign_x_anytext.precise_inputs`; ``<target>/<input>`` for each input); the
    target's name and the modules holding an instance of it (at any depth), from the Verilog
    texts."""
    from rtlopt.evaluate._foreign_x_anytext import precise_inputs
    from rtlopt.verilog import blank_comments, module_spans
    from rtlopt.verilog_instances import BUILT_INSTANCE, instances_of

    name = design.target.name
    inputs = [p.name for p in design.target.ports if p.direction != "output"]
    spans: list[tuple[str, str]] = []
    for p, t in texts:
        if p.suffix.lower() in _VERILOG_SUFFIXES:
            code = blank_comments(t)
            spans += [(s.name, code[s.start : s.end]) for s in module_spans(t)]
    precise: dict[str, set[str]] = {}
    holders = {name}
    left = [name]
    while left:
        inner = left.pop()
        word = re.compile(rf"(?<![\w$`]){re.escape(inner)}(?![\w$])")
        for outer, code in spans:
            if outer in holders and inner != name or not word.search(code):
                continue
            found = [i for i in instances_of(code, inner) if BUILT_INSTANCE not in i.names]
            for i in found if inner == name else ():
                for n in i.names:
                    ports = precise_inputs(code, n, i.start, inputs)
                    precise[n.lower()] = precise.get(n.lower(), ports) & ports
            if found and outer not in holders:
                holders.add(outer)
                left.append(outer)
    anchors = {f"{n}/{p}".lower() for n, ports in precise.items() for p in ports}
    return anchors | {f"{name}/{p}".lower() for p in inputs}, holders


def _scripts_and_vhdl(
    design: Design, texts: list[tuple[Path, str]], inputs: list[str]
) -> list[tuple[Path, str, int, list[str], str, bool, str]]:
    """Simulator scripts writing a value that may be x into an input, and VHDL testbenches
    instantiating the target (:mod:`._foreign_x_scripts`)."""
    from rtlopt.evaluate._foreign_x_scripts import script_writes, vhdl_feeds
    from rtlopt.verilog import blank_comments
    from rtlopt.verilog_instances import BUILT_INSTANCE, instances_of

    name = design.target.name
    word = re.compile(rf"\b{re.escape(name)}\b", re.I)
    instances: set[str] = set()
    nets: dict[str, str] = {}  # a net connected to an input of an instance: that input
    for p, t in texts:
        if p.suffix.lower() in _VERILOG_SUFFIXES and word.search(t):
            code = blank_comments(t)
            found = {n for i in instances_of(code, name) for n in i.names} - {BUILT_INSTANCE}
            instances |= found
            for m in _CONNECTION.finditer(code) if found else ():
                if m.group(1) in inputs:
                    nets.setdefault(m.group(2).lower(), m.group(1))
    out: list[tuple[Path, str, int, list[str], str, bool, str]] = []
    for path, text in texts:
        if not word.search(text) and not re.search(
            r"(?:force|set_value|deposit|change|poke)\b", text, re.I
        ):
            continue
        at = vhdl_feeds(path, text, name)
        if at >= 0:
            out.append((path, text, at, list(inputs), name, True, "VHDL"))
        for at, fed, value, z in script_writes(path, text, name, instances, inputs, nets):
            out.append((path, text, at, fed, value, z, "simulator script"))
    return out


#: A named connection of an instance's port to a net (``.s(sel)``, ``.s(sel[0])``).
_CONNECTION = re.compile(r"\.\s*([A-Za-z_][\w$]*)\s*\(\s*([A-Za-z_][\w$]*)")
_VERILOG_SUFFIXES = frozenset({".v", ".sv", ".vh", ".svh", ".vt", ".sva", ".vlog"})


def _python_writes(text: str, inputs: list[str]) -> list[tuple[int, list[str], str, bool]]:
    """The writes of ``text`` that may feed an input x: offset, the inputs fed, the value as
    written, whether it may be z."""
    from rtlopt.evaluate._reach_foreign import _PY_LEX, _chain, _lex

    code, _ = _lex(text, _PY_LEX)
    out: list[tuple[int, list[str], str, bool]] = []
    for m in _WRITE.finditer(code):
        if m.group("old") is not None:
            chain = [*_chain(code, m.start()), m.group("old")]
        else:
            chain = _chain(code, m.start())
        if chain in (["self"], ["cls"]) or not chain:
            continue
        last = chain[-1]
        fed = [last] if last in inputs else []
        if not fed and (len(chain) > 1 and chain[0]):
            continue  # a write of a named port that is no input, or of a field of an object
        line_end = text.find("\n", m.end())
        value = text[m.end() : line_end if line_end >= 0 else len(text)]
        value = re.sub(r"\s*#[^\"'\n]*$", "", value).strip()  # a comment after it
        if _LITERAL.fullmatch(value):
            continue  # 0/1 bits only
        out.append((m.start(), fed or list(inputs), value, bool(_Z_STRING.search(value))))
    return out


def _c_writes(text: str, inputs: list[str]) -> list[tuple[int, list[str], str, bool]]:
    """A ``vpi_put_value`` call of a C/C++ testbench: it may write every input x or z."""
    m = re.search(r"\bvpi_put_value\s*\(", text)
    return [] if m is None else [(m.start(), list(inputs), "vpi_put_value", True)]


def _where(
    design: Design, path: Path, text: str, at: int, ports: list[str], value: str, kind: str
) -> str:
    line = text.count("\n", 0, at) + 1
    try:
        shown = path.resolve().relative_to(Path(design.root).resolve()).as_posix()
    except ValueError:
        shown = path.name
    what = f"'{ports[0]}'" if len(ports) == 1 else "a handle that may be any input"
    shown_value = " ".join(value.split())[:60]
    if kind == "VHDL":
        return (
            f"{shown}:{line}: a VHDL testbench instantiates {value}: its std_logic signals "
            "carry U, X and Z into every input"
        )
    if value.startswith("\0"):
        return (
            f"{shown}:{line}: a {kind} testbench {shown_value[1:]}, so it may write any value, "
            "x or z, into any input"
        )
    if kind == "opaque":
        return (
            f"{shown}:{line}: rtlopt cannot read what this text spells ({value}), so it may "
            "write x or z into every input; spell the value plainly"
        )
    if kind == "any":
        what = f"'{ports[0]}'" if len(ports) == 1 else "every input"
        return (
            f"{shown}:{line}: a text that may take part in a simulation holds an x value "
            f"({shown_value}) and may write it into {what}"
        )
    if kind == "simulator script":
        what = f"'{ports[0]}'" if len(ports) == 1 else "a path that may be any input"
        return f"{shown}:{line}: a simulator script writes {what} ({shown_value}), may be x"
    tail = "a value that may be x"
    return f"{shown}:{line}: a {kind} testbench writes {what} with {shown_value}, {tail}"
