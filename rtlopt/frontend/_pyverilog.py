"""The pyverilog frontend (Verilog-2001 only; slower than pyslang).

Preprocessing runs ``iverilog -E`` through :func:`rtlopt.tools.run_tool`; the PLY parser's
tables are written to a private temporary folder, never the user's working directory. Port
widths are evaluated from the parameter defaults by a small constant-expression evaluator.
"""

from __future__ import annotations

import atexit
import logging
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rtlopt.frontend._base import (
    ClockedBlock,
    Condition,
    FrontendResult,
    InstanceConnections,
    SyntaxProblem,
)
from rtlopt.frontend.model import Direction, Module, Parameter, Port
from rtlopt.verilog import find_span, header_comment

__all__ = ["PyverilogFrontend"]

log = logging.getLogger(__name__)

_PARSE_ERROR_RE = re.compile(r"line:(\d+):\s*(.*)")


@lru_cache(maxsize=1)
def _parser() -> Any:
    """One PLY parser per process; its tables go to a temporary folder removed at exit."""
    from pyverilog.vparser.parser import VerilogParser

    outdir = tempfile.mkdtemp(prefix="rtlopt-pyverilog-")
    atexit.register(shutil.rmtree, outdir, True)
    return VerilogParser(outputdir=outdir, debug=False)


def _const(text: str) -> int:
    t = text.replace("_", "").strip()
    m = re.match(r"^(\d*)'([sS]?)([bBoOdDhH])([0-9a-fA-FxXzZ?]+)$", t)
    if m is None:
        return int(t)
    digits = re.sub(r"[xXzZ?]", "0", m.group(4))
    return int(digits, {"b": 2, "o": 8, "d": 10, "h": 16}[m.group(3).lower()])


_BINOPS: dict[str, Any] = {
    "Plus": lambda a, b: a + b,
    "Minus": lambda a, b: a - b,
    "Times": lambda a, b: a * b,
    "Divide": lambda a, b: a // b if b else 0,
    "Mod": lambda a, b: a % b if b else 0,
    "Power": lambda a, b: a**b,
    "Sll": lambda a, b: a << b,
    "Srl": lambda a, b: a >> b,
    "Sla": lambda a, b: a << b,
    "Sra": lambda a, b: a >> b,
    "LessThan": lambda a, b: int(a < b),
    "GreaterThan": lambda a, b: int(a > b),
    "LessEq": lambda a, b: int(a <= b),
    "GreaterEq": lambda a, b: int(a >= b),
    "Eq": lambda a, b: int(a == b),
    "NotEq": lambda a, b: int(a != b),
    "And": lambda a, b: a & b,
    "Or": lambda a, b: a | b,
    "Xor": lambda a, b: a ^ b,
    "Land": lambda a, b: int(bool(a) and bool(b)),
    "Lor": lambda a, b: int(bool(a) or bool(b)),
}


def _eval(node: Any, env: Mapping[str, int]) -> int:
    """Evaluate a constant expression; KeyError/ValueError when it is not constant."""
    k = type(node).__name__
    if k == "IntConst":
        return _const(node.value)
    if k == "Identifier":
        return env[node.name]
    if k in _BINOPS:
        return int(_BINOPS[k](_eval(node.left, env), _eval(node.right, env)))
    if k == "Uminus":
        return -_eval(node.right, env)
    if k == "Uplus":
        return _eval(node.right, env)
    if k == "Cond":
        return _eval(node.true_value if _eval(node.cond, env) else node.false_value, env)
    if k == "SystemCall" and node.syscall == "clog2" and node.args:
        v = _eval(node.args[0], env)
        return max(0, (v - 1).bit_length())
    if k == "Rvalue":
        return _eval(node.var, env)
    raise ValueError(f"not a constant: {k}")


def _nodes(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        if type(cur).__name__ == "ModuleDef" and cur is not node:
            continue
        stack.extend(reversed([c for c in cur.children() if c is not None]))


def _name(node: Any) -> str | None:
    return node.name if type(node).__name__ == "Identifier" else None


def _condition(node: Any) -> Condition | None:
    low = False
    while type(node).__name__ in ("Ulnot", "Unot"):
        low = not low
        node = node.right
    k = type(node).__name__
    if k == "Identifier":
        return Condition(node.name, low)
    if k in ("Eq", "NotEq", "Eql", "NotEql") and _name(node.left) is not None:
        if type(node.right).__name__ != "IntConst":
            return None
        try:
            v = _const(node.right.value)
        except ValueError:
            return None
        if v not in (0, 1):
            return None
        is_low = (v == 0) == (k in ("Eq", "Eql"))
        return Condition(str(_name(node.left)), is_low != low)
    return None


def _clocked(always: Any, constants: frozenset[str] = frozenset()) -> ClockedBlock | None:
    sens = always.sens_list
    edges: list[tuple[str, str]] = []
    for s in getattr(sens, "list", ()) or ():
        name = _name(s.sig)
        if s.type not in ("posedge", "negedge") or name is None:
            return None
        edges.append((s.type, name))
    if not edges:
        return None
    st = always.statement
    while type(st).__name__ == "Block":
        if not st.statements:
            st = None
            break
        st = st.statements[0]
    first_cond = _condition(st.cond) if type(st).__name__ == "IfStatement" else None
    cond, forces = first_cond, False
    # the rule of the pyslang frontend: the first ``if``, else any ``if`` at the top of the
    # block whose branch forces the registers its signal reaches to constants
    items = _top_items(always.statement)
    for k, item in enumerate(items):
        if type(item).__name__ != "IfStatement":
            continue
        found = _condition(item.cond)
        if found is not None and _forces_constants(
            item, always.statement, constants, found.signal, items[k + 1 :]
        ):
            cond, forces = found, True
            break
    return ClockedBlock(
        edges=tuple(edges),  # type: ignore[arg-type]
        condition=cond,
        forces_constants=forces,
        data_reads=_data_reads(always.statement, constants),
    )


def _names(node: Any) -> set[str]:
    return {n.name for n in _nodes(node) if type(n).__name__ == "Identifier"}


def _only_constants(st: Any, constants: frozenset[str]) -> bool:
    forced = [n for n in _nodes(st) if type(n).__name__ in _ASSIGNS]
    return bool(forced) and all(_is_constant(a.right, constants) for a in forced)


def _data_reads(block: Any, constants: frozenset[str]) -> frozenset[str]:
    """The names ``block`` reads as data (the rule of the pyslang frontend)."""
    out: set[str] = set()
    for n in _nodes(block):
        k = type(n).__name__
        if k in _ASSIGNS:
            out |= _names(n.right)
        elif k in ("CaseStatement", "CasexStatement", "CasezStatement"):
            out |= _names(n.comp)
        elif k == "IfStatement":
            branches = [n.true_statement, n.false_statement]
            if not any(b is not None and _only_constants(b, constants) for b in branches):
                out |= _names(n.cond)
    return frozenset(out)


def _top_items(st: Any) -> list[Any]:
    while type(st).__name__ == "Block":
        if len(st.statements) != 1:
            return list(st.statements)
        st = st.statements[0]
    return [st]


_ASSIGNS = ("NonblockingSubstitution", "BlockingSubstitution")


def _target(assign: Any) -> str | None:
    node = assign.left.var
    while type(node).__name__ in ("Pointer", "Partselect"):
        node = node.var
    return _name(node)


def _reads(node: Any, signal: str) -> bool:
    return any(type(n).__name__ == "Identifier" and n.name == signal for n in _nodes(node))


def _is_constant(node: Any, constants: frozenset[str]) -> bool:
    return not any(
        type(n).__name__ == "Identifier" and n.name not in constants for n in _nodes(node)
    )


def _forces_constants(
    item: Any, block: Any, constants: frozenset[str], signal: str, later: list[Any]
) -> bool:
    """Whether ``item``'s then-branch forces the registers ``signal`` reaches to constants
    (the rule of the pyslang frontend)."""
    forced = [n for n in _nodes(item.true_statement) if type(n).__name__ in _ASSIGNS]
    if not forced or not all(_is_constant(a.right, constants) for a in forced):
        return False
    names = {_target(a) for a in forced}
    for st in later:
        for n in _nodes(st):
            if type(n).__name__ in _ASSIGNS and _target(n) in names:
                if not _is_constant(n.right, constants):
                    return False
    for n in _nodes(block):
        k = type(n).__name__
        if k in _ASSIGNS and _reads(n.right, signal):
            return False
        if k == "IfStatement" and n is not item and _reads(n.cond, signal):
            return False
        if k in ("CaseStatement", "CasexStatement", "CasezStatement") and _reads(n.comp, signal):
            return False
    return True


_DIRS: dict[str, Direction] = {"Input": "input", "Output": "output", "Inout": "inout"}
_EVAL_ERRORS = (KeyError, ValueError, TypeError, AttributeError)


@dataclass
class _Declarations:
    """A module's parameters (values evaluated in order) and its ports' declarations."""

    #: with a parameter port list, body parameters are local (IEEE 1800 6.20.1)
    port_params: bool
    env: dict[str, int] = field(default_factory=dict)
    params: list[Parameter] = field(default_factory=list)
    #: port name -> what its declarations say: dir, reg, width, dims, signed
    decls: dict[str, dict[str, Any]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # the ports in header order

    def param(self, p: Any, in_body: bool) -> None:
        """Add a parameter; its value is ``?`` when it is not a constant rtlopt evaluates."""
        local = type(p).__name__ == "Localparam" or (in_body and self.port_params)
        try:
            value = _eval(p.value.var if type(p.value).__name__ == "Rvalue" else p.value, self.env)
            self.env[p.name] = value
            shown = str(value)
        except _EVAL_ERRORS:
            shown = "?"
        self.params.append(Parameter(p.name, shown, local))

    def declare(self, v: Any) -> None:
        """Add what one declaration (``input``, ``reg``, ``wire``...) says about a port."""
        k = type(v).__name__
        d = self.decls.setdefault(v.name, {})
        if k in _DIRS:
            d["dir"] = _DIRS[k]
        if k == "Reg":
            d["reg"] = True
        if v.width is not None:
            d["width"] = v.width
        if getattr(v, "dimensions", None) is not None:
            d["dims"] = v.dimensions
        if getattr(v, "signed", False):
            d["signed"] = True

    def read_header(self, mod: Any) -> None:
        """The parameter port list and the port list."""
        for p in getattr(mod.paramlist, "params", ()) or ():
            for item in getattr(p, "list", [p]):
                if type(item).__name__ in ("Parameter", "Localparam"):
                    self.param(item, False)
        for item in getattr(mod.portlist, "ports", ()) or ():
            k = type(item).__name__
            if k == "Ioport":
                self.declare(item.first)
                if item.second is not None:
                    self.declare(item.second)
                self.order.append(item.first.name)
            elif k == "Port":
                self.order.append(item.name)

    def port(self, name: str, path: Path, warnings: list[str]) -> Port:
        """The port ``name``, its width evaluated from the parameters (1 bit, with a warning
        in ``warnings``, when its range is not constant)."""
        d = self.decls.get(name, {})
        msb = lsb = 0
        width = 1
        if "width" in d:
            try:
                msb, lsb = _eval(d["width"].msb, self.env), _eval(d["width"].lsb, self.env)
                width = abs(msb - lsb) + 1
            except _EVAL_ERRORS:
                warnings.append(f"{path}: width of port {name} is not constant")
        if "dims" in d:
            for length in getattr(d["dims"], "lengths", ()) or ():
                try:
                    width *= abs(_eval(length.msb, self.env) - _eval(length.lsb, self.env)) + 1
                except _EVAL_ERRORS:
                    pass
            msb, lsb = (width - 1, 0) if width > 1 else (0, 0)
        direction = d.get("dir", "input")
        return Port(
            name=name,
            direction=direction,
            width=width,
            msb=msb,
            lsb=lsb,
            signed=bool(d.get("signed", False)),
            is_reg=bool(d.get("reg", False)) and direction != "input",
        )


def _instance_connections(node: Any) -> list[InstanceConnections]:
    """The connections of each instance of an ``InstanceList`` (plain signals only)."""
    out: list[InstanceConnections] = []
    for inst in node.instances:
        named: dict[str, str] = {}
        ordered: list[str | None] = []
        for arg in inst.portlist or ():
            actual = _name(arg.argname) if arg.argname is not None else None
            if arg.portname is None:
                ordered.append(actual)
            elif actual is not None:
                named[arg.portname] = actual
        out.append(InstanceConnections(inst.module, named, tuple(ordered)))
    return out


def _read_body(
    mod: Any, seen: _Declarations
) -> tuple[list[ClockedBlock], list[InstanceConnections]]:
    """The module's body: parameters and port declarations go to ``seen``; returns the
    clocked blocks (constants: the parameters declared before each block) and connections."""
    blocks: list[ClockedBlock] = []
    conns: list[InstanceConnections] = []
    for node in _nodes(mod):
        k = type(node).__name__
        if node is mod:
            continue
        if k in ("Parameter", "Localparam") and not any(q.name == node.name for q in seen.params):
            seen.param(node, True)
        elif k in ("Input", "Output", "Inout", "Reg", "Wire") and node.name in seen.order:
            seen.declare(node)
        elif k == "Always":
            blk = _clocked(node, frozenset(q.name for q in seen.params))
            if blk is not None:
                blocks.append(blk)
        elif k == "InstanceList":
            conns.extend(_instance_connections(node))
    return blocks, conns


class PyverilogFrontend:
    """Frontend on pyverilog 1.3 (Verilog-2001; preprocessing by ``iverilog -E``)."""

    name = "pyverilog"

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
        from rtlopt.tools import Limits, argv_path, require_tool, run_tool

        texts = texts or {}
        result = FrontendResult()
        iverilog = require_tool("iverilog")
        with tempfile.TemporaryDirectory(prefix="rtlopt-pp-") as tmp:
            work = Path(tmp)
            for idx, path in enumerate(files):
                src = path
                if path in texts:
                    src = work / f"in{idx}_{path.name}"
                    src.write_text(texts[path])
                    text = texts[path]
                else:
                    try:
                        text = path.read_text(errors="replace")
                    except OSError as exc:
                        result.errors[path] = [SyntaxProblem(path, 0, f"cannot read: {exc}")]
                        continue
                out = work / f"pp{idx}.v"
                # -E hands the output path to a shell: a plain name in the working folder;
                # paths iverilog would mangle (quotes, line breaks) go through safe links
                argv = iverilog.argv("-E", "-o", out.name)
                argv += [f"-I{argv_path(d)}" for d in [path.parent, *include_dirs]]
                argv += [f"-D{k}={v}" if v != "" else f"-D{k}" for k, v in (defines or {}).items()]
                pre = [argv_path(p) for p in prelude if p != path]
                run = run_tool(
                    [*argv, *pre, argv_path(src)],
                    cwd=work,
                    log_path=work / f"pp{idx}.log",
                    limits=Limits(60.0),
                )
                if run.returncode != 0 or not out.is_file():
                    msg = run.tail(5).splitlines()
                    why = msg[-1] if msg else "iverilog -E failed"
                    result.errors[path] = [SyntaxProblem(path, 0, why)]
                    continue
                self._parse_one(path, text, out.read_text(errors="replace"), result)
        result.modules.sort(key=lambda m: (str(m.file), m.start))
        return result

    def _parse_one(self, path: Path, text: str, pp: str, result: FrontendResult) -> None:
        from pyverilog.vparser.parser import ParseError

        parser = _parser()
        parser.lexer.lexer.lineno = 1  # the PLY lexer keeps counting across parses
        try:
            ast = parser.parse(pp)
        except ParseError as exc:
            m = _PARSE_ERROR_RE.search(str(exc))
            line, msg = (int(m.group(1)), m.group(2)) if m else (0, str(exc))
            result.errors[path] = [SyntaxProblem(path, line, msg)]
            return
        except Exception as exc:  # PLY raises assorted errors on unsupported constructs
            result.errors[path] = [SyntaxProblem(path, 0, f"unsupported: {exc}")]
            return
        for mod in ast.description.definitions:
            if type(mod).__name__ != "ModuleDef":
                continue
            self._module(path, text, mod, result)

    def _module(self, path: Path, text: str, mod: Any, result: FrontendResult) -> None:
        """Add one module definition (its ports, parameters, clocked blocks and instance
        connections) to ``result``."""
        seen = _Declarations(port_params=bool(getattr(mod.paramlist, "params", None)))
        seen.read_header(mod)
        blocks, conns = _read_body(mod, seen)
        ports = [seen.port(name, path, result.warnings) for name in seen.order]
        span = find_span(text, mod.name, mod.lineno)
        start, end = (span.start, span.end) if span is not None else (0, 0)
        result.blocks[(path, mod.name)] = blocks
        result.connections[(path, mod.name)] = conns
        result.modules.append(
            Module(
                name=mod.name,
                file=path,
                line=span.line if span is not None else mod.lineno,
                start=start,
                end=end,
                ports=tuple(ports),
                parameters=tuple(seen.params),
                instances=tuple(dict.fromkeys(c.module for c in conns)),
                header_comment=header_comment(text, start) if span is not None else "",
            )
        )
