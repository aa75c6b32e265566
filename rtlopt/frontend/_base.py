"""The frontend plugin interface and the neutral facts both parsers extract.

A frontend turns source files into :class:`~rtlopt.frontend.model.Module` values. Clock and
reset inference is shared (:mod:`rtlopt.frontend._clocks`): each frontend only reports, per
module, the edge events and top-level ``if`` conditions of its always blocks and the port
connections of its instances, so the two parsers cannot disagree on the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

from rtlopt.frontend.model import Module

__all__ = [
    "ClockedBlock",
    "Condition",
    "Frontend",
    "FrontendFactory",
    "FrontendResult",
    "InstanceConnections",
    "SyntaxProblem",
]

Edge = Literal["posedge", "negedge"]


@dataclass(frozen=True)
class Condition:
    """A simple test of one signal: ``x``, ``!x``, ``~x``, ``x == 0``, ``x == 1``."""

    signal: str
    active_low: bool


@dataclass(frozen=True)
class ClockedBlock:
    """An always block with an edge-sensitive event list.

    Attributes:
        edges: ``(edge, signal)`` for every edge event (signals as plain names).
        condition: The condition of the first ``if`` at the top of the block, when simple.
        forces_constants: The branch that ``condition`` selects assigns only constants
            (literals, parameters) to every register the block assigns: the structure of a
            reset, whatever the signal is called.
        data_reads: Signals the block reads as data: in an assigned value, a ``case``
            expression, or the test of an ``if`` none of whose branches forces constants only
            (a start or load signal: ``if (i_wr) r <= i_num``). A reset is never among them.
    """

    edges: tuple[tuple[Edge, str], ...]
    condition: Condition | None = None
    forces_constants: bool = False
    data_reads: frozenset[str] = frozenset()


@dataclass(frozen=True)
class InstanceConnections:
    """How one instance connects: formal port (or position) to a plain signal name of the parent.

    Attributes:
        module: The instantiated module's name.
        named: ``formal -> actual`` for named connections whose actual is a plain identifier.
        ordered: Actuals of positional connections (None where not a plain identifier).
    """

    module: str
    named: Mapping[str, str] = field(default_factory=dict)
    ordered: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class SyntaxProblem:
    """One syntax error: where and what."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: syntax error: {self.message}"


@dataclass
class FrontendResult:
    """What a frontend found in a set of files.

    Attributes:
        modules: Every module parsed, with ports, parameters and instances (clocks/resets are
            filled in by the caller from ``blocks`` and ``connections``); a name may appear
            once per file that defines it.
        blocks: Clocked always blocks, by (file, module name).
        connections: Instance connections, by (file, module name).
        errors: Syntax errors, by file; a file listed here contributes no modules.
        warnings: Non-fatal problems worth logging.
        elaborated_unknown: For each module elaborated as a top (default parameters), the
            names of undefined modules its elaborated hierarchy instantiates; None when the
            frontend does not elaborate (then every undefined instance counts as needed).
    """

    modules: list[Module] = field(default_factory=list)
    blocks: dict[tuple[Path, str], list[ClockedBlock]] = field(default_factory=dict)
    connections: dict[tuple[Path, str], list[InstanceConnections]] = field(default_factory=dict)
    errors: dict[Path, list[SyntaxProblem]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    elaborated_unknown: dict[str, set[str]] | None = None


@runtime_checkable
class Frontend(Protocol):
    """A Verilog/SystemVerilog parser plugin (entry-point group ``rtlopt.frontends``)."""

    name: str

    def parse(
        self,
        files: Sequence[Path],
        *,
        include_dirs: Sequence[Path] = (),
        defines: Mapping[str, str] | None = None,
        texts: Mapping[Path, str] | None = None,
        prelude: Sequence[Path] = (),
    ) -> FrontendResult:
        """Parse files (each its own compilation unit) and extract every module.

        Args:
            files: Source files, absolute paths.
            include_dirs: Directories searched by ```include``.
            defines: Predefined macros (``NAME -> value``; empty value for a plain define).
            texts: Text to use instead of reading a file (candidates, other git versions).
            prelude: Files read in front of every file (their macros apply to it).

        Returns:
            Modules of files without syntax errors, their clocked blocks and instance
            connections, and the syntax errors of the others. Port widths are evaluated with
            default parameter values.
        """
        ...


class FrontendFactory(Protocol):
    """What the :data:`~rtlopt.plugins.FRONTENDS` registry holds (entry points
    ``rtlopt.frontends``): builds a parser; usually the frontend class itself."""

    def __call__(self) -> Frontend:
        """A ready parser."""
        ...
