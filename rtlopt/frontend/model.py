"""Frozen data model of a parsed repository: Design, Module, Port, Parameter."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple

Direction = Literal["input", "output", "inout"]


@dataclass(frozen=True)
class Port:
    """One port of a module.

    Attributes:
        name: Port name.
        direction: input, output or inout.
        width: Bit width (1 for scalars); for unpacked arrays, the element width times count.
        msb: Left bound of the packed range as written (0 for scalars).
        lsb: Right bound of the packed range.
        signed: Declared signed.
        is_reg: Declared as reg/logic variable (outputs only; informative).
    """

    name: str
    direction: Direction
    width: int
    msb: int = 0
    lsb: int = 0
    signed: bool = False
    is_reg: bool = False

    @property
    def range_text(self) -> str:
        """``[msb:lsb]`` or empty for a scalar declared without a range."""
        if self.width == 1 and self.msb == 0 and self.lsb == 0:
            return ""
        return f"[{self.msb}:{self.lsb}]"

    def same_interface(self, other: Port) -> bool:
        """Same direction, width and signedness (names compared by the caller)."""
        mine = (self.direction, self.width, self.signed)
        return mine == (other.direction, other.width, other.signed)


@dataclass(frozen=True)
class Parameter:
    """A module parameter with its default value as source text."""

    name: str
    value: str
    local: bool = False


@dataclass(frozen=True)
class Module:
    """A module as found in a source file.

    Attributes:
        name: Module name.
        file: Absolute path of the file that defines it.
        line: 1-based line of the ``module`` keyword.
        start: Character offset of the first character of the ``module`` keyword in the file.
        end: Character offset just past ``endmodule``.
        ports: Ports in declaration order.
        parameters: Parameters (and localparams) in declaration order.
        clocks: Ports used as clocks (edge events in always blocks, or by name).
        resets: Ports used as resets, with polarity in ``reset_active_low``.
        reset_active_low: For each reset, True when active low.
        instances: Module type names instantiated inside (not primitives), deduplicated.
        header_comment: Comments directly above the module and at the top of the file.
    """

    name: str
    file: Path
    line: int
    start: int
    end: int
    ports: tuple[Port, ...]
    parameters: tuple[Parameter, ...] = ()
    clocks: tuple[str, ...] = ()
    resets: tuple[str, ...] = ()
    reset_active_low: Mapping[str, bool] = field(default_factory=dict)
    instances: tuple[str, ...] = ()
    header_comment: str = ""

    @property
    def is_sequential(self) -> bool:
        return bool(self.clocks)

    @property
    def inputs(self) -> tuple[Port, ...]:
        return tuple(p for p in self.ports if p.direction == "input")

    @property
    def outputs(self) -> tuple[Port, ...]:
        return tuple(p for p in self.ports if p.direction != "input")

    def port(self, name: str) -> Port:
        for p in self.ports:
            if p.name == name:
                return p
        raise KeyError(name)

    def text(self) -> str:
        """The module's source text, ``module`` to ``endmodule``."""
        return self.file.read_text(errors="replace")[self.start : self.end]


@dataclass(frozen=True)
class SourceSet:
    """How to compile a repository: the elaboration context given to every tool.

    Attributes:
        root: Repository root.
        files: Source files (modules).
        include_dirs: ```include`` search folders.
        defines: Predefined macros (``NAME -> value``).
        prelude: Files read before every other source, in order, by the frontend and every
            tool, for reference and candidate alike (headers a filelist lists as sources,
            whose macros later files use without ```include``).
        filelist_vars: The values of the filelists' ``${NAME}`` variables the configuration
            states (``project.filelist_vars``, folders made absolute): other filelists of the
            repository are read with them too.
        libraries: The filelists' ``-y`` folders in search order, each with its ``+libext+``
            suffixes: a module found only there comes from ``<folder>/<name><suffix>``.
        library_files: The files of ``files`` read only because a ``-y`` folder holds them
            (no filelist lists them): their modules count only as loaded by that search.
    """

    root: Path
    files: tuple[Path, ...]
    include_dirs: tuple[Path, ...] = ()
    defines: Mapping[str, str] = field(default_factory=dict)
    prelude: tuple[Path, ...] = ()
    filelist_vars: Mapping[str, str] = field(default_factory=dict)
    libraries: tuple[tuple[Path, tuple[str, ...]], ...] = ()
    library_files: frozenset[Path] = frozenset()


@dataclass(frozen=True)
class Design:
    """The target module in its repository.

    Attributes:
        root: Repository root (the git top level, or the target's folder outside git).
        target: The module to optimize.
        sources: Everything the frontend scanned.
        modules: Every module found, by name, mapped to its Module.
        closure: Files needed to compile the target, dependencies first, target's file last.
        submodules: Names of every module the target instantiates, transitively.
        parameter_check: For a design a parameter check builds from the repository's (the
            target under a configuration or a probe, or with parameters made inputs): the
            repository's target's port names; None for the repository's own. The
            repository's instances there keep their own parameter values, each checked by
            that check's own evaluation of them, and an input the repository's target lacks
            (a parameter made an input) is the proof's, never fed by an instance.
        origin: For such a design: the repository's own design and the scratch root of its
            evaluation. The analyses of what the repository does to the target (the inputs
            it feeds x, the testbenches and texts reaching it) read the repository as it
            is, once for all its checks (the copy's changed defaults reach no instance
            that sets its own values, and each configuration is proven in its own copy).
        x_fed: For such a design: inputs that stand for parameters of a 4-state type made
            inputs (an override may give them x bits, ``#(.P(1'bx))``): the proofs feed them
            x as the repository's x-fed inputs are (the x-faithfulness proof).
    """

    root: Path
    target: Module
    sources: SourceSet
    modules: Mapping[str, Module]
    closure: tuple[Path, ...]
    submodules: tuple[str, ...] = ()
    parameter_check: tuple[str, ...] | None = None
    origin: Origin | None = None
    x_fed: tuple[str, ...] = ()

    @property
    def include_dirs(self) -> tuple[Path, ...]:
        return self.sources.include_dirs

    @property
    def defines(self) -> Mapping[str, str]:
        return self.sources.defines

    @property
    def prelude(self) -> tuple[Path, ...]:
        """Files every tool reads first (see :class:`SourceSet`)."""
        return self.sources.prelude


class Origin(NamedTuple):
    """The repository's design a parameter check's copy was built from
    (:attr:`Design.origin`), and the scratch root of that design's evaluation."""

    design: Design
    scratch: Path
