"""The default frontend: pyslang (slang's SystemVerilog parser and elaborator).

Each file is preprocessed and parsed as its own compilation unit (include dirs, defines and
the prelude's macros applied: the prelude files are parsed in front of every file), so a
syntax error is attributed to its file and unrelated broken files can be skipped. The files
that parse are then elaborated together with every module as a top, which yields real port
widths for parameter-dependent ranges (default parameter values).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rtlopt.frontend._base import (
    ClockedBlock,
    Condition,
    FrontendResult,
    InstanceConnections,
    SyntaxProblem,
)
from rtlopt.frontend._slang import compilation_options, node_kind, preprocessor
from rtlopt.frontend.model import Direction, Module, Parameter, Port
from rtlopt.verilog import find_span, header_comment

__all__ = ["PyslangFrontend"]

log = logging.getLogger(__name__)

_IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_$]*$")
_ZERO_RE = re.compile(r"^(?:\d*'[sS]?[bBoOdDhH])?[0_]+$")
_ONE_RE = re.compile(r"^(?:\d*'[sS]?[bBoOdDhH])?0*1$")


def _children(node: Any) -> Iterator[Any]:
    try:
        yield from node
    except TypeError:
        return


def _walk(node: Any, stop: frozenset[str] = frozenset()) -> Iterator[Any]:
    """Every syntax node below ``node`` (tokens skipped), not entering kinds in ``stop``."""
    stack = [node]
    while stack:
        cur = stack.pop()
        for child in _children(cur):
            if hasattr(child, "valueText") or child is None:
                continue  # a token
            yield child
            if node_kind(child) not in stop:
                stack.append(child)


def _plain_name(expr: Any) -> str | None:
    text = str(expr).strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text if _IDENT_RE.match(text) else None


def _condition(expr: Any) -> Condition | None:
    """``x``, ``!x``, ``~x``, ``x == 0``, ``x == 1'b1``, ``x != 0`` (parentheses allowed)."""
    text = re.sub(r"\s+", "", str(expr))
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    low = False
    while text[:1] in ("!", "~") and text[1:2] != "=":
        low = not low
        text = text[1:]
        while text.startswith("(") and text.endswith(")"):
            text = text[1:-1]
    m = re.match(r"^([A-Za-z_][A-Za-z0-9_$]*)(?:(==|!=|===|!==)(.+))?$", text)
    if m is None:
        return None
    name, op, rhs = m.group(1), m.group(2), m.group(3)
    if op is None:
        return Condition(name, low)
    if _ZERO_RE.match(rhs):
        is_low = op in ("==", "===")
    elif _ONE_RE.match(rhs):
        is_low = op in ("!=", "!==")
    else:
        return None
    return Condition(name, is_low != low)


def _edges(ev: Any, out: list[tuple[str, str]]) -> bool:
    """Collect edge events; False for an event that is not a signal. A level-sensitive signal
    beside edges (``@(posedge clk or rst)``, which simulators accept and synthesis refuses)
    adds nothing: the edges still name the block's clock for the testbench."""
    k = node_kind(ev)
    if k == "SignalEventExpression":
        edge = ev.edge.valueText if ev.edge else ""
        name = _plain_name(ev.expr)
        if edge in ("posedge", "negedge") and name is not None:
            out.append((edge, name))
            return True
        return name is not None and not edge
    if k == "BinaryEventExpression":
        return _edges(ev.left, out) and _edges(ev.right, out)
    if k == "ParenthesizedEventExpression":
        return _edges(ev.expr, out)
    return False


def _first_statement(st: Any) -> Any:
    while node_kind(st) == "SequentialBlockStatement":
        items = [i for i in st.items if "Declaration" not in node_kind(i)]
        if not items:
            return None
        st = items[0]
    return st


_ASSIGN_KINDS = frozenset({"NonblockingAssignmentExpression", "AssignmentExpression"})
_WORD = re.compile(r"(?<![\w$'`])[A-Za-z_][A-Za-z0-9_$]*")


def _assignments(node: Any) -> list[tuple[str, str]]:
    """``(lhs, rhs)`` texts of the procedural assignments below ``node``."""
    return [
        (str(n.left).strip(), str(n.right).strip())
        for n in [node, *_walk(node)]
        if node_kind(n) in _ASSIGN_KINDS
    ]


def _lhs_name(lhs: str) -> str:
    m = _WORD.match(lhs.strip().lstrip("{"))
    return m.group(0) if m else lhs


def _forces_constants(
    item: Any, block: Any, constants: frozenset[str], signal: str = "", later: Any = ()
) -> bool:
    """Whether ``item``'s then-branch forces the registers ``signal`` reaches to constants:
    it assigns only constants, no statement after ``item`` (``later``) assigns data to one of
    them, and nothing else in ``block`` reads ``signal`` (as data, or in another test)."""
    then = getattr(item, "statement", None)
    if then is None:
        return False
    forced = _assignments(then)
    if not forced or not all(_constant(rhs, constants) for _, rhs in forced):
        return False
    names = {_lhs_name(lhs) for lhs, _ in forced}
    for st in later:
        for lhs, rhs in _assignments(st):
            if _lhs_name(lhs) in names and not _constant(rhs, constants):
                return False
    if not signal:
        return True
    # a register that reads the signal as data is reached by it without being forced
    test = _where(item.predicate)
    for n in [block, *_walk(block)]:
        k = node_kind(n)
        if k in _ASSIGN_KINDS and signal in _WORD.findall(str(n.right)):
            return False
        pred = getattr(n, "predicate", None) if k == "ConditionalStatement" else None
        if pred is not None and _where(pred) != test and signal in _WORD.findall(str(pred)):
            return False
        if k == "CaseStatement" and signal in _WORD.findall(str(n.expr)):
            return False
    return True


# based literals (8'hff) hold letters: blanked before looking for signal names
_LITERAL = re.compile(r"\d*\s*'\s*[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ_?]+|'[01xXzZ]")


def _where(node: Any) -> tuple[int, int]:
    """A node's place in its buffer (pyslang's Python wrappers have no stable identity)."""
    r = node.sourceRange
    return int(r.start.offset), int(r.end.offset)


def _constant(rhs: str, constants: frozenset[str]) -> bool:
    return all(w in constants for w in _WORD.findall(_LITERAL.sub(" ", rhs)))


def _top_items(st: Any) -> list[Any]:
    """The statements at the top of a block (the statement itself when not a block)."""
    while node_kind(st) == "SequentialBlockStatement":
        items = [i for i in st.items if "Declaration" not in node_kind(i)]
        if len(items) != 1:
            return items
        st = items[0]
    return [st]


def _clocked_block(proc: Any, constants: frozenset[str] = frozenset()) -> ClockedBlock | None:
    st = proc.statement
    if node_kind(st) != "TimingControlStatement":
        return None
    tc = st.timingControl
    if node_kind(tc) != "EventControlWithExpression":
        return None
    edges: list[tuple[str, str]] = []
    if not _edges(tc.expr, edges) or not edges:
        return None
    cond: Condition | None = None
    forces = False
    first = _first_statement(st.statement)
    # the first ``if`` (an asynchronous reset's test), else any ``if`` at the top of the block
    # whose branch forces the registers its signal reaches to constants (``done <= 0; if
    # (!resetn) ...``, or a last ``if (rst)`` that overrides what came before)
    items = _top_items(st.statement)
    starts = [_where(i) for i in items]
    for item in [first, *items]:
        if node_kind(item) != "ConditionalStatement":
            continue
        conds = list(item.predicate.conditions)
        pattern = conds[0] if conds else None
        if pattern is None or not hasattr(pattern, "expr"):
            continue
        found = _condition(pattern.expr)
        if found is None:
            continue
        at = starts.index(_where(item)) if _where(item) in starts else len(items)
        later = items[at + 1 :]
        if _forces_constants(item, st.statement, constants, found.signal, later):
            cond, forces = found, True
            break
        if cond is None and _where(item) == _where(first):
            cond = found
    typed = tuple((e, s) for e, s in edges if e in ("posedge", "negedge"))
    return ClockedBlock(
        edges=typed,  # type: ignore[arg-type]
        condition=cond,
        forces_constants=forces,
        data_reads=_data_reads(st.statement, constants),
    )


def _only_constants(st: Any, constants: frozenset[str]) -> bool:
    forced = _assignments(st)
    return bool(forced) and all(_constant(rhs, constants) for _, rhs in forced)


def _data_reads(block: Any, constants: frozenset[str]) -> frozenset[str]:
    """The names ``block`` reads as data (:attr:`ClockedBlock.data_reads`)."""
    out: set[str] = set()
    for n in [block, *_walk(block)]:
        k = node_kind(n)
        if k in _ASSIGN_KINDS:
            out.update(_WORD.findall(_LITERAL.sub(" ", str(n.right))))
        elif k == "CaseStatement":
            out.update(_WORD.findall(str(n.expr)))
        elif k == "ConditionalStatement":
            branches = [getattr(n, "statement", None)]
            if n.elseClause is not None:
                branches.append(n.elseClause.clause)
            if not any(b is not None and _only_constants(b, constants) for b in branches):
                out.update(_WORD.findall(_LITERAL.sub(" ", str(n.predicate))))
    return frozenset(out)


def _instance_connections(inst: Any) -> list[InstanceConnections]:
    out: list[InstanceConnections] = []
    mod = inst.type.valueText
    for hi in inst.instances:
        if node_kind(hi) != "HierarchicalInstance":
            continue
        named: dict[str, str] = {}
        ordered: list[str | None] = []
        for conn in hi.connections:
            k = node_kind(conn)
            if k == "NamedPortConnection":
                actual = _plain_name(conn.expr) if conn.expr is not None else None
                if actual is not None:
                    named[conn.name.valueText] = actual
            elif k == "OrderedPortConnection":
                ordered.append(_plain_name(conn.expr))
        out.append(InstanceConnections(mod, named, tuple(ordered)))
    return out


_DIRECTIONS: dict[str, Direction] = {
    "In": "input",
    "Out": "output",
    "InOut": "inout",
    "Ref": "inout",
}


def _port(p: Any) -> Port:
    ty = p.type
    direction = _DIRECTIONS.get(getattr(p.direction, "name", "In"), "input")
    width = int(ty.bitWidth) or int(ty.bitstreamWidth)
    msb, lsb = 0, 0
    rng = getattr(ty, "range", None) if ty.isPackedArray else None
    elem = getattr(ty, "elementType", None)
    if rng is not None and elem is not None and int(elem.bitWidth) == 1:
        msb, lsb = int(rng.left), int(rng.right)
    elif width > 1:
        msb, lsb = width - 1, 0
    is_reg = type(p.internalSymbol).__name__ == "VariableSymbol"
    return Port(
        name=p.name,
        direction=direction,
        width=width,
        msb=msb,
        lsb=lsb,
        signed=bool(ty.isSigned),
        is_reg=is_reg and direction != "input",
    )


def _parameter(prm: Any) -> Parameter:
    text = ""
    syn = getattr(prm, "syntax", None)
    init = getattr(syn, "initializer", None) if syn is not None else None
    if init is not None and getattr(init, "expr", None) is not None:
        text = str(init.expr).strip()
    if not text:
        # a `parameter type` has a type, not a value (TypeParameterSymbol.targetType)
        value = getattr(prm, "value", None)
        if value is None:
            target = getattr(prm, "targetType", None)
            value = getattr(target, "type", target)
        text = str(value) if value is not None else ""
    return Parameter(name=prm.name, value=text, local=bool(prm.isLocalParam))


def _buffer(sm: Any, path: Path, texts: Mapping[Path, str]) -> Any:
    """The source buffer of ``path``: its given text, unless an earlier file already
    included it (a header listed as a source), whose buffer the source manager keeps."""
    if path not in texts:
        return sm.readSource(str(path))
    try:
        return sm.assignText(str(path), texts[path])
    except Exception:  # pyslang: "already been assigned"
        return sm.readSource(str(path))


def _syntax_tree(
    sm: Any, bag: Any, path: Path, texts: Mapping[Path, str], prelude: Sequence[Path]
) -> Any:
    """The syntax tree of one file (the prelude in front of it), or a :class:`SyntaxProblem`
    when the file cannot be read."""
    from pyslang import syntax

    if path in texts and not prelude:
        return syntax.SyntaxTree.fromText(texts[path], sm, path.name, str(path), bag)
    try:
        if prelude:
            # one unit: the prelude's macros reach the file, as in a filelist
            bufs = [sm.readSource(str(p)) for p in prelude if p != path]
            bufs.append(_buffer(sm, path, texts))
            return syntax.SyntaxTree.fromBuffers(bufs, sm, bag)
        return syntax.SyntaxTree.fromFile(str(path), sm, bag)
    except Exception as exc:  # pyslang raises plain exceptions for unreadable files
        return SyntaxProblem(path, 0, f"cannot read: {exc}")


def _syntax_trees(
    sm: Any,
    bag: Any,
    files: Sequence[Path],
    texts: Mapping[Path, str],
    prelude: Sequence[Path],
    result: FrontendResult,
) -> list[tuple[Path, Any]]:
    """The syntax trees of the files that parse; the others' problems go to ``result``."""
    import pyslang

    engine = pyslang.DiagnosticEngine(sm)
    good: list[tuple[Path, Any]] = []
    for path in files:
        tree = _syntax_tree(sm, bag, path, texts, prelude)
        if isinstance(tree, SyntaxProblem):
            result.errors[path] = [tree]
            continue
        problems = [
            SyntaxProblem(
                Path(sm.getFullPath(d.location.buffer)) if d.location.buffer else path,
                sm.getLineNumber(d.location),
                engine.formatMessage(d),
            )
            for d in tree.diagnostics
            if d.isError()
        ]
        if problems:
            result.errors[path] = problems
        else:
            good.append((path, tree))
    return good


def _declared_in(sm: Any, node: Any, path: Path, texts: Mapping[Path, str]) -> tuple[Path, int]:
    """The file and line of a module's header: an included file's, when it is a real file
    (or a given text), else the parsed file's."""
    loc = node.header.moduleKeyword.location
    src = Path(str(sm.getFullPath(loc.buffer))) if loc.buffer else path
    if not sm.isFileLoc(loc) or str(src) in ("", ".") or (src not in texts and not src.is_file()):
        src = path
    return src, sm.getLineNumber(loc)


def _syntax_facts(node: Any) -> tuple[list[ClockedBlock], list[InstanceConnections]]:
    """A module declaration's clocked blocks and instance connections."""
    blocks: list[ClockedBlock] = []
    conns: list[InstanceConnections] = []
    constants = frozenset(
        str(d.name.valueText)
        for p in _walk(node, frozenset({"ModuleDeclaration"}))
        if node_kind(p) == "ParameterDeclaration"
        for d in _walk(p)
        if node_kind(d) == "Declarator"
    )
    for sub in _walk(node, frozenset({"ModuleDeclaration"})):
        k = node_kind(sub)
        if k in ("AlwaysBlock", "AlwaysFFBlock"):
            blk = _clocked_block(sub, constants)
            if blk is not None:
                blocks.append(blk)
        elif k == "HierarchyInstantiation":
            conns.extend(_instance_connections(sub))
    return blocks, conns


#: (file, module name) -> (line, index of the syntax tree that declares it)
_Declarations = dict[tuple[Path, str], tuple[int, int]]


def _declarations(
    sm: Any, good: Sequence[tuple[Path, Any]], texts: Mapping[Path, str], result: FrontendResult
) -> tuple[_Declarations, list[set[str]]]:
    """Where each module is declared, and the module names of each tree; the syntax facts
    (clocked blocks, connections) go to ``result``. A name defined in several files is kept
    per file."""
    decls: _Declarations = {}
    tree_names: list[set[str]] = []
    for idx, (path, tree) in enumerate(good):
        names: set[str] = set()
        # a file holding a single module has that module as its root node
        for node in [tree.root, *_walk(tree.root, frozenset({"ModuleDeclaration"}))]:
            if node_kind(node) != "ModuleDeclaration":
                continue
            name = node.header.name.valueText
            src, line = _declared_in(sm, node, path, texts)
            key = (src, name)
            names.add(name)
            if key in decls:
                continue  # the same header included twice
            decls[key] = (line, idx)
            result.blocks[key], result.connections[key] = _syntax_facts(node)
        tree_names.append(names)
    return decls, tree_names


def _compilation_groups(tree_names: Sequence[set[str]]) -> list[tuple[set[str], list[int]]]:
    """The trees in groups whose module names do not clash (greedy, in order), so each
    definition is elaborated on its own: ``(names, tree indices)`` per group."""
    groups: list[tuple[set[str], list[int]]] = []
    for idx, names in enumerate(tree_names):
        for used, members in groups:
            if not used & names:
                used |= names
                members.append(idx)
                break
        else:
            groups.append((set(names), [idx]))
    return groups


def _module(
    src: Path, name: str, line: int, text: str, body: Any, result: FrontendResult
) -> Module:
    """The module declared at ``line`` of ``src``, with the ports and parameters of its
    elaborated ``body`` (none, with a warning, when it could not be elaborated)."""
    span = find_span(text, name, line)
    start, end = (span.start, span.end) if span is not None else (0, 0)
    ports: tuple[Port, ...] = ()
    params: tuple[Parameter, ...] = ()
    if body is None:
        result.warnings.append(f"{src}:{line}: module '{name}' could not be elaborated")
    else:
        ports = tuple(_port(p) for p in body.portList if type(p).__name__ == "PortSymbol")
        params = tuple(_parameter(p) for p in body.parameters)
    instances = tuple(dict.fromkeys(c.module for c in result.connections[(src, name)]))
    return Module(
        name=name,
        file=src,
        line=line,
        start=start,
        end=end,
        ports=ports,
        parameters=params,
        instances=instances,
        header_comment=header_comment(text, start) if span is not None else "",
    )


class PyslangFrontend:
    """Frontend on pyslang: SystemVerilog-2017, fast, with elaboration."""

    name = "pyslang"

    def __init__(self) -> None:
        self._keep: list[Any] = []  # compilations alive while their symbols are read

    def parse(
        self,
        files: Sequence[Path],
        *,
        include_dirs: Sequence[Path] = (),
        defines: Mapping[str, str] | None = None,
        texts: Mapping[Path, str] | None = None,
        prelude: Sequence[Path] = (),
    ) -> FrontendResult:
        """See :meth:`rtlopt.frontend.Frontend.parse`."""
        import pyslang

        texts = texts or {}
        result = FrontendResult()
        sm, popts = preprocessor(include_dirs, defines or {})
        good = _syntax_trees(sm, pyslang.Bag([popts]), files, texts, prelude, result)
        decls, tree_names = _declarations(sm, good, texts, result)
        bodies = self._elaborate(popts, good, tree_names, result)
        file_texts: dict[Path, str] = {}
        for (src, name), (line, idx) in decls.items():
            if src not in file_texts:
                file_texts[src] = texts[src] if src in texts else src.read_text(errors="replace")
            body = bodies.get((idx, name))
            result.modules.append(_module(src, name, line, file_texts[src], body, result))
        self._keep.clear()
        result.modules.sort(key=lambda m: (str(m.file), m.start))
        return result

    def _elaborate(
        self,
        popts: Any,
        good: Sequence[tuple[Path, Any]],
        tree_names: Sequence[set[str]],
        result: FrontendResult,
    ) -> dict[tuple[int, str], Any]:
        """Elaborate every module with default parameters, one compilation per group of trees
        whose names do not clash (kept alive in ``self._keep`` until ``parse`` has read them).

        Returns:
            ``(tree index, module name) -> instance body``; ``result.elaborated_unknown``
            gets the undefined modules elaboration reached, by top.
        """
        import pyslang
        from pyslang import ast

        bodies: dict[tuple[int, str], Any] = {}
        # undefined modules reached by elaboration: an instance in a generate branch that its
        # parameters turn off (a vendor cell) is never elaborated and not reported
        result.elaborated_unknown = {}
        for used, members in _compilation_groups(tree_names):
            copts = compilation_options()
            copts.topModules = set(used)
            comp = ast.Compilation(pyslang.Bag([popts, copts]))
            for idx in members:
                comp.addSyntaxTree(good[idx][1])
            for inst in comp.getRoot().topInstances:
                for idx in members:
                    if inst.body.definition.name in tree_names[idx]:
                        bodies.setdefault((idx, inst.body.definition.name), inst.body)
            self._keep.append(comp)
            for diag in comp.getAllDiagnostics():
                if diag.code == pyslang.Diags.UnknownModule and diag.symbol is not None:
                    top = str(diag.symbol.hierarchicalPath).split(".", 1)[0]
                    result.elaborated_unknown.setdefault(top, set()).update(
                        str(a) for a in diag.args[:1]
                    )
        return bodies
