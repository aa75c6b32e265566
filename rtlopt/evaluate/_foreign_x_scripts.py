"""Inputs of the target a simulator script or a VHDL testbench may drive x or z (round 73),
for :mod:`._foreign_x`.

- A simulator command in any text that is no Verilog, Python, C or documentation (a Questa
  do-file ``force -freeze /tb/dut/s X 0``, xsim Tcl ``set_value /tb/s X`` or ``add_force``,
  ``deposit``, ``change``, ``poke``, ``$deposit``) that writes a value other than a plain 0/1
  number (``X``, ``Z``, ``U``, ``W``, ``-``, ``1'bx``, a variable, an expression) feeds x into
  the input its path ends at (``s`` of ``/tb/dut/s`` or of the testbench's ``/tb/s``, any
  case; a net an instance of the target connects to ``s``, ``/tb/sel`` for ``.s(sel)``),
  into every input where the path ends at the target or one of its instances or is built
  at run time (``$top/s``, ``[...]``); z-capable where the value may be z (a ``Z``, a
  variable). A path to an inner name is the reach rule's (:mod:`._reach_text_paths`); a path
  to another signal of the testbench is left alone.
- A VHDL file (``.vhd``, ``.vhdl``) that instantiates the target (``entity work.<target>``,
  a ``component <target>`` declaration, a component instantiation ``u: <target> port
  map``; any case) feeds x and z into every input: a ``std_logic`` carries ``U``, ``X``,
  ``Z``, ``W``, ``-`` into a mixed-language port.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["script_writes", "vhdl_feeds"]

#: Files whose code other rules read, and prose no tool runs.
_NOT_SCRIPTS = frozenset(
    """.v .sv .vh .svh .vt .sva .svi .vi .vinc .inc .vlog .vams .py .pyi .c .cc .cpp .cxx
    .c++ .h .hh .hpp .hxx .inl .ipp .tpp .vhd .vhdl .md .markdown .rst .adoc .asciidoc .txt
    .json .gtkw .sav .wcfg .vcd .fst""".split()
)
#: A simulator command writing a signal (group ``cmd``); its arguments follow.
_COMMAND = re.compile(
    r"(?:^|[;{\[])[ \t]*(?P<cmd>force|add_force|set_value|deposit|change|poke|\$deposit)"
    r"(?=[ \t(])(?P<args>[^\n;]*(?:\\\n[^\n;]*)*)",
    re.M | re.I,
)
#: Options of those commands that take an argument (``-radix bin``, ``-cancel 10``).
_OPTION_ARGS = frozenset({"-radix", "-cancel", "-repeat", "-r", "-after", "-time", "-delay"})
#: A plain 0/1 number: decimal, binary, a based literal of no x/z digit, a time (``0ns``).
_PLAIN = re.compile(
    r"[01]+|\d+|\d*'[sS]?(?:[bB][01_]+|[oO][0-7_]+|[dD][\d_]+|[hH][\da-fA-F_]+)"
    r"|[bBoOhHdD]?\"[\da-fA-F_]+\"|16#[\da-fA-F_]+#|2#[01_]+#"
)
_SELECT = re.compile(r"\[[^\]]*\]|\([^()]*\)")


def script_writes(
    path: Path,
    text: str,
    target: str,
    instances: set[str],
    inputs: list[str],
    nets: dict[str, str] | None = None,
) -> list[tuple[int, list[str], str, bool]]:
    """The writes of a simulator script ``text`` that may feed an input x: offset, the
    inputs fed, the value as written, whether it may be z (see the module's docstring).
    ``nets``: the nets (lower case) the repository's instances connect to an input."""
    if path.suffix.lower() in _NOT_SCRIPTS:
        return []
    out: list[tuple[int, list[str], str, bool]] = []
    lower_inputs = {**(nets or {}), **{p.lower(): p for p in inputs}}
    anchors = {n.lower() for n in [target, *instances]}
    for m in _COMMAND.finditer(text):
        words = re.split(r"[\s,(){}=]+", m.group("args").replace("\\\n", " "))
        words = [w.strip("\"'") for w in words if w and w != "\\"]
        target_path, value = _path_and_value(words)
        if not target_path or value is None or _PLAIN.fullmatch(value):
            continue
        fed = _fed(target_path, anchors, lower_inputs, inputs)
        if fed:
            may_z = not re.fullmatch(r"[0-9'sSbBhHoOdDxXuUwW_\-#\"]+", value)
            out.append((m.start("cmd"), fed, f"{m.group('cmd')} {target_path} {value}", may_z))
    return out


def _path_and_value(words: list[str]) -> tuple[str, str | None]:
    """The signal path and the value of a command's arguments, options left out."""
    plain: list[str] = []
    skip = False
    for w in words:
        if skip:
            skip = False
            continue
        if w.startswith("-") and len(w) > 1 and not w[1:].isdigit():
            skip = w.lower() in _OPTION_ARGS
            continue
        plain.append(w)
    if not plain:
        return "", None
    return plain[0], (plain[1] if len(plain) > 1 else None)


def _fed(
    path: str, anchors: set[str], lower_inputs: dict[str, str], inputs: list[str]
) -> list[str]:
    """The inputs a write of ``path`` may feed (see the module's docstring)."""
    if re.search(r"[$\[*?]", _SELECT.sub("", path)) or "$" in path:
        return list(inputs)  # a path built at run time
    parts = [p for p in re.split(r"[/.:]+", _SELECT.sub("", path).lstrip("\\")) if p]
    if not parts:
        return []
    last = parts[-1].lower()
    if last in lower_inputs:
        return [lower_inputs[last]]
    if last in anchors:
        return list(inputs)
    return []


#: A VHDL instantiation of an entity or component ``{name}``: ``entity work.<name>``, a
#: ``component <name>`` declaration, ``label : [component] <name> [generic|port] map``.
_VHDL_USE = (
    r"\bentity\s+\w+\s*\.\s*{name}\b|\bcomponent\s+{name}\b"
    r"|:\s*(?:component\s+)?{name}\s+(?:generic|port)\s+map\b"
)


def vhdl_feeds(path: Path, text: str, target: str) -> int:
    """The offset where the VHDL file ``text`` instantiates ``target`` (-1: it does not or
    is no VHDL); comments are left out."""
    if path.suffix.lower() not in (".vhd", ".vhdl"):
        return -1
    code = re.sub(r"--[^\n]*", lambda m: " " * len(m.group(0)), text)
    m = re.search(_VHDL_USE.format(name=re.escape(target)), code, re.I)
    return -1 if m is None else m.start()
