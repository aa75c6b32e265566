"""What the frontend's pyslang readers share (the parser, the parameterizations, the compared
constants): the source manager and preprocessor options of an elaboration context, and a
node's kind. pyslang is imported lazily."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "CONSTANT_KINDS",
    "children",
    "input_connections",
    "instance_members",
    "node_kind",
    "preprocessor",
]

#: Symbol kinds that hold a value fixed at elaboration (no driver, never x at run time).
CONSTANT_KINDS = frozenset({"Parameter", "EnumValue", "Specparam", "TypeParameter", "Genvar"})


def node_kind(node: Any) -> str:
    """The name of a pyslang node's kind (``""`` for a node without one)."""
    k = getattr(node, "kind", None)
    return getattr(k, "name", "") if k is not None else ""


def children(node: Any) -> list[Any]:
    """The syntax nodes directly under ``node`` (tokens and empty slots left out)."""
    try:
        found = list(node)
    except TypeError:
        return []
    return [c for c in found if c is not None and node_kind(c) and hasattr(c, "sourceRange")]


def compilation_options() -> Any:
    """slang's compilation options for reading a repository as every tool reads it: a name
    may be used above its declaration (iverilog and Yosys accept ``always @* r = q;`` before
    ``reg q;``; slang's error dropped the write, and held-out trial 49 called biriscv's
    ``tag_addr_r`` undriven)."""
    from pyslang import ast

    copts = ast.CompilationOptions()
    copts.flags = copts.flags | ast.CompilationFlags.AllowUseBeforeDeclare
    return copts


def preprocessor(include_dirs: Iterable[Path], defines: Mapping[str, str]) -> tuple[Any, Any]:
    """A source manager searching the ``include_dirs`` that exist, and preprocessor options
    predefining ``defines`` (``NAME`` for an empty value, else ``NAME=value``)."""
    import pyslang
    from pyslang import parsing

    sm = pyslang.SourceManager()
    for d in include_dirs:
        if Path(d).is_dir():
            sm.addUserDirectories(str(d))
    popts = parsing.PreprocessorOptions()
    popts.predefines = [f"{k}={v}" if v != "" else k for k, v in defines.items()]
    return sm, popts


def input_connections(inst: Any) -> list[tuple[Any, Any]]:
    """``(port, connected expression or None)`` of each input and inout port of the
    instance ``inst``."""
    out = []
    for conn in inst.portConnections:
        port = conn.port
        direction = str(getattr(port, "direction", "")).rsplit(".", 1)[-1]
        if node_kind(port) == "Port" and direction in ("In", "InOut"):
            out.append((port, conn.expression))
    return out


def instance_members(body: Any) -> list[Any]:
    """The members of an instance's body, those of its instantiated generate blocks too."""
    out: list[Any] = []
    stack = [body]
    while stack:
        scope = stack.pop()
        for m in scope:
            kind = node_kind(m)
            if kind == "GenerateBlock" and not m.isUninstantiated:
                stack.append(m)
            elif kind == "GenerateBlockArray":
                stack += [b for b in m if node_kind(b) == "GenerateBlock"]
            else:
                out.append(m)
    return out
