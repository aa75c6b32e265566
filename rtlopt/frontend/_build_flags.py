"""The defines a repository's build files pass to a Verilog tool: ``rtlopt init`` names them,
and a testbench outside rtlopt's build that does not parse with the configured defines is
read with those of the build files beside it (``evaluate/_tb_x_benches.py``).

A build file is a Makefile (``Makefile``, ``makefile``, ``*.mk``), a shell or Tcl script. A
line counts when it configures a Verilog tool (names iverilog, Verilator, ``VFLAGS``, ...)
and not a C compiler (``CFLAGS``). A flag's value naming a make variable (``-DTRACE=$(TRACE)``)
takes the variable's value where the file assigns it a plain word once (``TRACE ?= 1``);
a flag whose value stays unknown is left out.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["BUILD_FILE", "build_flags", "folder_defines", "variable_name"]

#: Build files whose lines may pass defines to a Verilog tool.
BUILD_FILE = re.compile(r"^(?:GNU)?[Mm]akefile.*$|.*\.(?:mk|sh|tcl)$")
#: A line that configures a Verilog tool (not a C compiler's flags).
_VERILOG_LINE = re.compile(r"iverilog|verilator|VFLAGS|VERILOG|vlog|xrun|\bvcs\b|\+define\+")
_C_LINE = re.compile(r"\b(?:CFLAGS|CXXFLAGS|CPPFLAGS|LDFLAGS)\b")
_DEFINE_FLAG = re.compile(r"(?<![\w-])(-D[A-Za-z_]\w*(?:=\S*)?|\+define\+\S+)")
#: A make or shell assignment of a plain word: ``NAME ?= 1``, ``NAME := x``, ``NAME=1``.
_ASSIGN = re.compile(r"^\s*(?:export\s+)?([A-Za-z_]\w*)\s*(?:\?=|:=|::=|=)\s*([\w.+-]*)\s*$")
_VARIABLE = re.compile(r"\$(?:\(([A-Za-z_]\w*)\)|\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")


def variable_name(value: str) -> str | None:
    """The make or shell variable a whole command-line ``value`` names (``$(TRACE)``,
    ``${TRACE}``, ``$TRACE``), or None."""
    m = _VARIABLE.fullmatch(value)
    return next(g for g in m.groups() if g) if m else None


def build_flags(path: Path) -> list[str]:
    """The ``-D``/``+define+`` flags lines of a build file pass to a Verilog tool."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return []
    flags: list[str] = []
    for line in text.splitlines():
        if line.lstrip().startswith("#") or _C_LINE.search(line) or not _VERILOG_LINE.search(line):
            continue
        flags += [f for f in _DEFINE_FLAG.findall(line) if f not in flags]
    return flags


def _assigned(text: str) -> dict[str, str | None]:
    """Each variable assigned a plain word; None where two assignments differ."""
    out: dict[str, str | None] = {}
    for line in text.splitlines():
        m = _ASSIGN.match(line)
        if m:
            name, value = m.groups()
            out[name] = value if out.get(name, value) == value else None
    return out


def folder_defines(folder: Path) -> dict[str, str]:
    """The defines the build files in ``folder`` pass to a Verilog tool (``NAME -> value``,
    "" for none), each flag's make variable replaced by its one plain value; a define two
    flags give different values, or whose value stays unknown, is left out."""
    out: dict[str, str | None] = {}
    try:
        names = sorted(p for p in folder.iterdir() if p.is_file() and BUILD_FILE.match(p.name))
    except OSError:
        return {}
    for path in names:
        assigned = _assigned(path.read_text(errors="replace"))
        for flag in build_flags(path):
            body = flag[2:] if flag.startswith("-D") else flag[len("+define+") :]
            for item in body.split("+") if flag.startswith("+") else [body]:
                name, eq, value = item.partition("=")
                if not name or not re.fullmatch(r"[A-Za-z_]\w*", name):
                    continue
                var = variable_name(value) if eq else None
                got: str | None = value
                if var:
                    got = assigned.get(var)
                got = None if got is None or "$" in got else got
                out[name] = got if out.get(name, got) == got else None
    return {k: v for k, v in out.items() if v is not None}
