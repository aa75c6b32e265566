"""A module's parameters made inputs: the text a proof reads to cover every value of a
parameter at once.

A parameter that only enters values (``y = a + b + K``, never a width, a bound or a generate
guard) is one more input of the circuit: declared as an input port instead, the proof covers
every value, not the few a probe tries. A guard on the design's signals that fires only at a
value no probe tries (``s == 1000`` where ``s = a + b + K``: ``K = 793``, red-team round 97)
shows there. Each freed parameter keeps its declaration under another name (its default is
then unused) and gets an input of its type: an untyped, ``integer`` or ``int`` parameter 32
bits signed, a ``[msb:lsb]`` one that range. A parameter of another type (real, string, a
type) is not freed; a text that uses a freed parameter where a constant is needed does not
elaborate (the caller's check of the reference decides whether it can be freed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rtlopt.frontend._param_deps import _module
from rtlopt.frontend._slang import node_kind
from rtlopt.frontend.model import Design

__all__ = ["FREED_SUFFIX", "KINDS", "free_parameters", "new_errors", "vector_width"]

#: The freed parameter's declaration is renamed with this suffix.
FREED_SUFFIX = "__freed"
_RANGE = re.compile(r"(?:(?:logic|bit|reg)\s+)?(signed\s+)?(\[[^\[\]]+\])")


#: How an untyped parameter is freed: as the integer a plain number gives it, and as any
#: unsigned or signed vector as wide as the widest number the texts write (an untyped
#: parameter takes the type of the value that overrides it: red-team round 98).
KINDS = ("integer", "unsigned", "signed")


def vector_width(*texts: str) -> int:
    """The width of the vector an untyped parameter is freed as: past every number up to
    4,096 the texts write, at least 64 bits."""
    numbers = [int(n) for t in texts for n in re.findall(r"\d+", t) if len(n) <= 4]
    return max([64, *(n + 2 for n in numbers if n <= 4096)])


def _port_type(decl: Any, kind: str = "integer", width: int = 64) -> str | None:
    """The input type of a freed parameter of declaration ``decl``, or None."""
    written = " ".join(str(decl.type).split())
    if written in ("", "signed") and kind != "integer":
        return f"{'signed ' if kind == 'signed' else ''}[{width - 1}:0]"
    if written in ("", "integer", "int", "signed", "integer signed", "int signed"):
        return "signed [31:0]"
    m = _RANGE.fullmatch(written)
    if m is None:
        return None
    return f"{'signed ' if m.group(1) else ''}{m.group(2)}"


def _declarations(mod: Any) -> Any:
    """The module's parameter declarations (header and body, not in generate blocks)."""
    params = mod.header.parameters
    for d in params.declarations if params is not None else ():
        if node_kind(d) == "ParameterDeclaration":
            yield d
    for item in mod.members:
        if node_kind(item) == "ParameterDeclarationStatement":
            yield item.parameter


def free_parameters(
    text: str, module: str, names: Sequence[str], kind: str = "integer", width: int = 64
) -> str | None:
    """``text`` with the parameters ``names`` of ``module`` made input ports (module
    docstring), an untyped one as ``kind`` (:data:`KINDS`) of ``width`` bits; None when one of
    them is not declared there with a type that can be freed, or the module has no port
    list."""
    from pyslang import syntax

    raw = text.encode("utf-8", "surrogateescape")
    tree = syntax.SyntaxTree.fromText(raw.decode("latin-1"))
    mod = _module(tree.root, module)
    if mod is None or mod.header.ports is None:
        return None
    edits: list[tuple[int, int, str]] = []
    inputs: list[tuple[str, str]] = []
    for decl in _declarations(mod):
        for d in decl.declarators:
            name = str(getattr(getattr(d, "name", None), "valueText", ""))
            if node_kind(d) == "Comma" or name not in names:
                continue
            port = _port_type(decl, kind, width)
            if port is None:
                return None
            at = int(d.name.location.offset)
            edits.append((at, at + len(str(d.name.rawText)), name + FREED_SUFFIX))
            inputs.append((name, port))
    if sorted(n for n, _ in inputs) != sorted(set(names)):
        return None
    ports = mod.header.ports
    close = int(ports.closeParen.location.offset)
    listed = [p for p in ports.ports if node_kind(p) != "Comma"]
    sep = ", " if listed else ""
    if node_kind(ports) == "AnsiPortList":
        # at the end: a port without a direction of its own inherits the one before it
        edits.append((close, close, sep + ", ".join(f"input {k} {n}" for n, k in inputs)))
    else:
        semi = int(mod.header.semi.location.offset) + 1
        edits.append((close, close, sep + ", ".join(n for n, _ in inputs)))
        edits.append((semi, semi, "".join(f" input {k} {n};" for n, k in inputs)))
    del tree  # the tree owns its nodes: released only after the last one is read
    out = raw
    for start, end, new in sorted(edits, reverse=True):
        out = out[:start] + new.encode() + out[end:]
    return out.decode("utf-8", "surrogateescape")


def _errors(text: str, design: Design) -> list[str]:
    """The codes of slang's errors elaborating ``text`` alone (modules of other files
    unknown), with the design's include folders and defines."""
    import pyslang
    from pyslang import ast, syntax

    from rtlopt.frontend._slang import preprocessor

    sm, popts = preprocessor(design.include_dirs, design.defines)
    bag = pyslang.Bag([popts])
    tree = syntax.SyntaxTree.fromText(text, sm, "target.v", "", bag)
    comp = ast.Compilation(bag)
    comp.addSyntaxTree(tree)
    return sorted(str(d.code) for d in comp.getAllDiagnostics() if d.isError())


def new_errors(text: str, freed: str, design: Design) -> bool:
    """Whether ``freed`` (:func:`free_parameters` of ``text``) has errors ``text`` has not:
    a freed parameter used where a constant is needed (a width, a bound, a guard). A cheap
    look before the freed reference is built and simulated against itself."""
    try:
        before, after = _errors(text, design), _errors(freed, design)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: the build decides
        return False
    for code in before:
        if code in after:
            after.remove(code)
    return bool(after)
