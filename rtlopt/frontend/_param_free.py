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

A localparam of the module's body computed from a freed parameter (``localparam [7:0] KB =
K``) becomes a net of the type slang elaborates it to (``wire [7:0] KB = K``), so a parameter
that reaches values through localparams is freed too (red-team round 99); a localparam used
where a constant is needed then fails to elaborate, as a freed parameter does. Several
parameters are freed together, so one proof covers every combination of their values.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rtlopt.frontend._param_deps import _module
from rtlopt.frontend._slang import compilation_options, node_kind
from rtlopt.frontend.model import Design

__all__ = [
    "FREED_SUFFIX",
    "KINDS",
    "apply_edits",
    "declarations",
    "elaborated_types",
    "four_state",
    "free_parameters",
    "constant_reads",
    "input_ports",
    "kind_choices",
    "new_errors",
    "port_type",
    "unprobed",
    "vector_width",
]

#: The freed parameter's declaration is renamed with this suffix.
FREED_SUFFIX = "__freed"
_RANGE = re.compile(r"(?:(?:logic|bit|reg)\s+)?(signed\s+|unsigned\s+)?(\[[^\[\]]+\])")


#: Integer atom types: their width and whether they are signed (red-team round 100: a
#: ``longint`` parameter was not freed and kept probes no larger than 1,024).
_ATOMS = {
    "byte": (8, True),
    "shortint": (16, True),
    "int": (32, True),
    "integer": (32, True),
    "longint": (64, True),
    "time": (64, False),
    "bit": (1, False),
    "logic": (1, False),
    "reg": (1, False),
}

#: How an untyped parameter is freed: as the integer a plain number gives it, and as any
#: unsigned or signed vector as wide as the widest number the texts write (an untyped
#: parameter takes the type of the value that overrides it: red-team round 98).
KINDS = ("integer", "unsigned", "signed")


def vector_width(*texts: str) -> int:
    """The width of the vector an untyped parameter is freed as: past the sum of every number
    up to 4,096 the texts write (a shift of a shift, ``(K >> 40) >> 40``, reads bit 80:
    red-team round 100), at least 64 bits, at most :data:`WIDEST` (an override wider than
    that is outside what the proof covers, and the scope says so)."""
    numbers = [int(n) for t in texts for n in re.findall(r"\d+", t) if len(n) <= 4]
    return min(WIDEST, max(64, 2 + sum(n for n in numbers if n <= 4096)))


#: The widest vector an untyped parameter is freed as.
WIDEST = 4098


def _untyped(decl: Any) -> bool:
    """Whether a parameter of declaration ``decl`` takes the type of the value overriding it."""
    return " ".join(str(decl.type).split()) in ("", "signed")


def kind_choices(text: str, module: str, names: Sequence[str]) -> list[dict[str, str]]:
    """How to free the parameters ``names`` of ``module``: the kind (:data:`KINDS`) of each
    untyped one, choices such that every pair of untyped parameters meets in every pair of
    kinds (all combinations for one or two of them; a covering array of strength 2 over
    GF(3) for more: 9 choices up to four, 27 up to thirteen), all integers first. An override
    gives each untyped parameter its own type, so a change can differ only where one is an
    unsigned vector and another an integer (red-team round 100)."""
    from pyslang import syntax

    tree = syntax.SyntaxTree.fromText(text.encode("utf-8", "surrogateescape").decode("latin-1"))
    mod = _module(tree.root, module)
    untyped = []
    for decl in declarations(mod) if mod is not None else ():
        for d in decl.declarators:
            name = str(getattr(getattr(d, "name", None), "valueText", ""))
            if node_kind(d) != "Comma" and name in names and _untyped(decl):
                untyped.append(name)
    del tree
    n = len(untyped)
    dim = 1 if n <= 1 else next(d for d in range(2, 9) if (3**d - 1) // 2 >= n)
    space = list(itertools.product(range(3), repeat=dim))
    columns = [v for v in space if any(v) and v[next(i for i, x in enumerate(v) if x)] == 1]
    rows = sorted(
        {
            tuple(sum(a * b for a, b in zip(c, x, strict=True)) % 3 for c in columns[:n])
            for x in space
        }
    )
    return [{p: KINDS[k] for p, k in zip(untyped, row, strict=True)} for row in rows]


def unprobed(text: str, module: str, names: Sequence[str]) -> list[str]:
    """The parameters of ``names`` declared ``real``, ``shortreal``, ``realtime`` or
    ``string``: no input can hold them and integer probes miss their other values (a
    fraction: red-team round 101)."""
    from pyslang import syntax

    tree = syntax.SyntaxTree.fromText(text.encode("utf-8", "surrogateescape").decode("latin-1"))
    mod = _module(tree.root, module)
    out = []
    for decl in declarations(mod) if mod is not None else ():
        written = " ".join(str(decl.type).split())
        for d in decl.declarators:
            name = str(getattr(getattr(d, "name", None), "valueText", ""))
            if node_kind(d) != "Comma" and name in names and written in _UNPROBED:
                out.append(name)
    del tree
    return out


_UNPROBED = frozenset({"real", "shortreal", "realtime", "string"})
#: Types whose bits are 0 or 1 only: an override with x bits reads as 0 there.
_TWO_STATE = frozenset({"bit", "int", "byte", "shortint", "longint"})


def four_state(text: str, module: str, names: Sequence[str]) -> list[str]:
    """The parameters of ``names`` an override can give x or z bits (``#(.P(1'bx))``):
    untyped ones, and those of a 4-state type (``integer``, ``logic``, ``reg``, a range)."""
    from pyslang import syntax

    tree = syntax.SyntaxTree.fromText(text.encode("utf-8", "surrogateescape").decode("latin-1"))
    mod = _module(tree.root, module)
    out = []
    for decl in declarations(mod) if mod is not None else ():
        written = " ".join(str(decl.type).split())
        if written.split(" ")[0] in _TWO_STATE | _UNPROBED:
            continue
        for d in decl.declarators:
            name = str(getattr(getattr(d, "name", None), "valueText", ""))
            if node_kind(d) != "Comma" and name in names:
                out.append(name)
    del tree
    return out


def port_type(decl: Any, kind: str = "integer", width: int = 64) -> str | None:
    """The input type of a freed parameter of declaration ``decl``, or None."""
    written = " ".join(str(decl.type).split())
    if _untyped(decl) and kind != "integer":
        return f"{'signed ' if kind == 'signed' else ''}[{width - 1}:0]"
    if written in ("", "integer", "int", "signed", "integer signed", "int signed"):
        return "signed [31:0]"
    base, _, sign = written.partition(" ")
    if base in _ATOMS and sign in ("", "signed", "unsigned"):  # an integer atom type
        bits, signed = _ATOMS[base]
        signed = (signed and sign != "unsigned") or sign == "signed"
        return f"{'signed ' if signed else ''}[{bits - 1}:0]"
    m = _RANGE.fullmatch(written)
    if m is None:
        return None
    return f"{'signed ' if (m.group(1) or '').startswith('signed') else ''}{m.group(2)}"


def declarations(mod: Any) -> Any:
    """The module's parameter declarations (header and body, not in generate blocks)."""
    params = mod.header.parameters
    for d in params.declarations if params is not None else ():
        if node_kind(d) == "ParameterDeclaration":
            yield d
    for item in mod.members:
        if node_kind(item) == "ParameterDeclarationStatement":
            yield item.parameter


def free_parameters(
    text: str,
    module: str,
    names: Sequence[str],
    kind: str | Mapping[str, str] = "integer",
    width: int = 64,
    design: Design | None = None,
) -> str | None:
    """``text`` with the parameters ``names`` of ``module`` made input ports (module
    docstring), an untyped one as ``kind`` (:data:`KINDS`, or by name: :func:`kind_choices`)
    of ``width`` bits, and the body's
    localparams computed from them nets; None when one of them is not declared there with a
    type that can be freed, a localparam computed from them is not of a vector type, or the
    module has no port list. ``design`` gives the include folders and defines the text is
    read with."""
    from pyslang import syntax

    raw = text.encode("utf-8", "surrogateescape")
    tree = syntax.SyntaxTree.fromText(raw.decode("latin-1"))
    mod = _module(tree.root, module)
    if mod is None or mod.header.ports is None:
        return None
    inputs: list[tuple[str, str]] = []
    for decl in declarations(mod):
        for d in decl.declarators:
            name = str(getattr(getattr(d, "name", None), "valueText", ""))
            if node_kind(d) == "Comma" or name not in names:
                continue
            port = port_type(
                decl, kind if isinstance(kind, str) else kind.get(name, "integer"), width
            )
            if port is None:
                return None
            inputs.append((name, port))
    edits = _renamed(mod, set(names))
    if sorted(n for n, _ in inputs) != sorted(set(names)):
        return None
    derived = _derived(raw, tree, mod, module, inputs, design)
    if derived is None:
        return None
    edits += derived + input_ports(mod, inputs)
    del tree  # the tree owns its nodes: released only after the last one is read
    return apply_edits(raw, edits).decode("utf-8", "surrogateescape")


#: Nodes whose every operand must be a constant: a declared range, a generate condition or
#: loop, a part select's bounds.
_CONSTANT = frozenset(
    {"VariableDimension", "IfGenerate", "LoopGenerate", "CaseGenerate", "SimpleRangeSelect"}
)
#: Nodes with one operand that must be a constant (the attribute naming it): a replication's
#: count, a size cast's size, an indexed part select's width.
_CONSTANT_PART = {
    "MultipleConcatenationExpression": "expression",
    "CastExpression": "left",
    "AscendingRangeSelect": "right",
    "DescendingRangeSelect": "right",
}
_LOOPS = frozenset({"ForLoopStatement", "RepeatLoopStatement", "WhileLoopStatement"})


def _constant_context(name: Any) -> bool:
    """Whether the name ``name`` is read where a constant is needed (:data:`_CONSTANT`,
    :data:`_CONSTANT_PART`, a loop's header): freed, it builds only where the other operands
    fold it away (``(P || Q) ? 1 : 0`` in a range at P = 1: red-team round 113)."""
    child, node = name, name.parent
    while node is not None and node_kind(node) != "ModuleDeclaration":
        kind = node_kind(node)
        if kind in _CONSTANT:
            return True
        part = _CONSTANT_PART.get(kind)
        if part is not None and _node_span(getattr(node, part))[0] == _node_span(child)[0]:
            return True
        if kind in _LOOPS and _node_span(node.statement)[0] != _node_span(child)[0]:
            return True
        child, node = node, node.parent
    return False


def constant_reads(text: str, module: str, names: Sequence[str]) -> list[str]:
    """The parameters of ``names`` an ``initial`` block of ``module`` reads, or a width, a
    range, a generate condition or another place that needs a constant
    (:func:`_constant_context`), directly or through the module's localparams: a proof needs
    them as constants, so none of them can be an input (serv's ``initial if (RESET_STRATEGY
    == "NONE") o_ibus_adr = RESET_PC``: Yosys fails on the non-constant initial value)."""
    from pyslang import syntax

    tree = syntax.SyntaxTree.fromText(text.encode("utf-8", "surrogateescape").decode("latin-1"))
    mod = _module(tree.root, module)
    if mod is None:
        return []
    from rtlopt.frontend._param_guards import _nodes

    reads: set[str] = set()
    derived: dict[str, set[str]] = {}
    for n in _nodes(mod):
        kind = node_kind(n)
        if kind == "InitialBlock":
            reads |= _idents(n)
        elif kind == "IdentifierName" and _constant_context(n):
            reads.add(str(n.identifier.valueText))
        elif kind == "ParameterDeclaration":
            for d in n.declarators:
                if node_kind(d) != "Comma":
                    derived[str(d.name.valueText)] = _idents(d)
    del tree
    out = []
    for p in names:
        reach, grew = {p}, True
        while grew:
            more = {q for q, used in derived.items() if used & reach} - reach
            reach |= more
            grew = bool(more)
        if reach & reads:
            out.append(p)
    return out


def input_ports(mod: Any, inputs: Sequence[tuple[str, str]]) -> list[tuple[int, int, str]]:
    """Edits adding the input ports ``inputs`` (name, type) to the module ``mod`` (a
    syntax node with a port list)."""
    edits: list[tuple[int, int, str]] = []
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
    return edits


def _renamed(mod: Any, names: set[str]) -> list[tuple[int, int, str]]:
    """Edits renaming the declarations of the parameters ``names`` with :data:`FREED_SUFFIX`."""
    edits = []
    for decl in declarations(mod):
        for d in decl.declarators:
            name = str(getattr(getattr(d, "name", None), "valueText", ""))
            if node_kind(d) != "Comma" and name in names:
                at = int(d.name.location.offset)
                edits.append((at, at + len(str(d.name.rawText)), name + FREED_SUFFIX))
    return edits


def apply_edits(raw: bytes, edits: list[tuple[int, int, str]]) -> bytes:
    """``raw`` with the byte-range replacements ``edits`` (which do not overlap)."""
    for start, end, new in sorted(edits, reverse=True):
        raw = raw[:start] + new.encode() + raw[end:]
    return raw


def _idents(node: Any) -> set[str]:
    """The identifiers a syntax node names."""
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_$]*", str(node)))


def elaborated_types(
    raw: bytes, mod: Any, module: str, inputs: list[tuple[str, str]], design: Design | None
) -> dict[str, str | None]:
    """The net types (``signed [7:0]``, None for a type that is no vector) of the elaborated
    parameters of ``module`` by name, with each freed parameter of
    ``inputs`` declared by its input type (and its default) as the body's first item: the
    types its localparams take from it."""
    import pyslang
    from pyslang import ast, syntax

    from rtlopt.frontend._slang import preprocessor

    defaults: dict[str, str] = {}
    for decl in declarations(mod):
        for d in decl.declarators:
            name = str(getattr(getattr(d, "name", None), "valueText", ""))
            init = getattr(d, "initializer", None)
            if node_kind(d) != "Comma" and init is not None:
                defaults[name] = str(init.expr).strip()
    edits = _renamed(mod, {n for n, _ in inputs})
    header = mod.header.parameters
    if header is not None:  # first in the header list: its localparams may use them
        at = int(header.openParen.location.offset) + 1
        typed = "".join(f"localparam {k} {n} = {defaults.get(n, '0')}, " for n, k in inputs)
    else:
        at = int(mod.header.semi.location.offset) + 1
        typed = "".join(f" localparam {k} {n} = {defaults.get(n, '0')};" for n, k in inputs)
    edits.append((at, at, typed))
    out = apply_edits(raw, edits)
    popts: list[Any] = []
    sm = None
    if design is not None:
        sm, po = preprocessor(design.include_dirs, design.defines)
        popts.append(po)
    copts = compilation_options()
    copts.topModules = {module}
    bag = pyslang.Bag([*popts, copts])
    src = out.decode("latin-1")
    tree = (
        syntax.SyntaxTree.fromText(src, sm, "target.v", "", bag)
        if sm is not None
        else syntax.SyntaxTree.fromText(src)
    )
    comp = ast.Compilation(bag)
    comp.addSyntaxTree(tree)
    found: dict[str, str | None] = {}
    for inst in comp.getRoot().topInstances:
        if str(inst.name) == module:
            for m in inst.body:
                if m.kind == ast.SymbolKind.Parameter:
                    t = m.type
                    rng = getattr(t, "fixedRange", None) if t.isIntegral else None
                    sign = "signed " if t.isSigned else ""
                    found[str(m.name)] = None if rng is None else f"{sign}[{rng.left}:{rng.right}]"
    del comp, tree  # the compilation owns its symbols: released after the last one is read
    return found


def _derived(
    raw: bytes,
    tree: Any,
    mod: Any,
    module: str,
    inputs: list[tuple[str, str]],
    design: Design | None,
) -> list[tuple[int, int, str]] | None:
    """Edits making each localparam of the module's body computed from a freed parameter
    (or from such a localparam) a net of its elaborated type; None when one is not of an
    integral vector type."""
    freed = {n for n, _ in inputs}
    statements = [
        item for item in mod.members if node_kind(item) == "ParameterDeclarationStatement"
    ]
    header = _header_localparams(mod, freed)
    hit = bool(header)
    for st in statements:
        decls = [d for d in st.parameter.declarators if node_kind(d) != "Comma"]
        inits = [getattr(d, "initializer", None) for d in decls]
        if any(i is not None and _idents(i.expr) & freed for i in inits):
            hit = True
            freed |= {str(d.name.valueText) for d in decls}  # any of them may be derived
    if not hit:
        return []
    types = elaborated_types(raw, mod, module, inputs, design)
    edits: list[tuple[int, int, str]] = []
    names = {n for n, _ in inputs}
    nets: list[str] = []  # the header's localparams, as nets first in the body
    for d in header:
        name = str(d.name.valueText)
        net = types.get(name)
        if net is None or len(list(getattr(d, "dimensions", None) or ())):
            return None
        names.add(name)
        start, end = _node_span(d)
        edits.append((start, end, f"{name}{FREED_SUFFIX} = 0"))
        nets.append(f" wire {net} {str(d).strip()};")
    if nets:
        semi = int(mod.header.semi.location.offset) + 1
        edits.append((semi, semi, "".join(nets)))
    for st in statements:
        decl = st.parameter
        parts: list[str] = []
        changed = False
        for d in decl.declarators:
            if node_kind(d) == "Comma":
                continue
            name = str(d.name.valueText)
            init = getattr(d, "initializer", None)
            body = str(d).strip()
            if init is None or not _idents(init.expr) & names:
                parts.append(f"{decl.keyword.valueText} {str(decl.type).strip()} {body};")
                continue
            net = types.get(name)
            if net is None or len(list(getattr(d, "dimensions", None) or ())):
                return None
            names.add(name)
            parts.append(f"wire {net} {body};")
            changed = True
        if changed:
            start, end = _node_span(st)
            edits.append((start, end, " ".join(parts)))
    return edits


def _header_localparams(mod: Any, freed: set[str]) -> list[Any]:
    """The declarators of the header's localparams (``#(parameter K = 5, localparam KB = K +
    1)``: a declaration without a keyword has the one before it) computed from ``freed`` or
    from one another, in order (red-team round 100)."""
    header = mod.header.parameters
    out: list[Any] = []
    keyword = "parameter"
    names = set(freed)
    for decl in header.declarations if header is not None else ():
        if node_kind(decl) != "ParameterDeclaration":
            continue
        keyword = str(getattr(decl.keyword, "valueText", "") or keyword)
        for d in decl.declarators:
            init = getattr(d, "initializer", None)
            if node_kind(d) == "Comma" or keyword != "localparam" or init is None:
                continue
            if _idents(init.expr) & names:
                out.append(d)
                names.add(str(d.name.valueText))
    return out


def _node_span(node: Any) -> tuple[int, int]:
    r = node.sourceRange
    return int(r.start.offset), int(r.end.offset)


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
