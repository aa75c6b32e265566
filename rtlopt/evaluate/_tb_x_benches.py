"""Verilog testbenches rtlopt's build does not read whole, elaborated as builds of their own,
for :mod:`._tb_x` (held-out trials 49-51: biriscv's icarus testbench, an excluded one, an FPGA
board's top; each made every input of every module below it x, reset and clock included).

A testbench here is a text that instantiates the target (through any modules: ``tb_top``
holds ``riscv_core`` holds the target) and that the build does not compile, or compiles with
an error (a macro its Makefile defines, a task of its own folder's memory model). Its build
is its closure: the text and, for every module name its bodies hold, at any depth, the file
defining it in the folder of the text naming it (the testbench's build compiles its folder:
``tcm_mem`` there, not the design's), else the build's file, else the one file outside the
build defining it; with the files of the build that define no module (packages, headers
listed), in the build's order. It is read with the configured defines; where a text does not
parse with them, with those of the build files in the testbench's folder as well
(:func:`rtlopt.frontend._build_flags.folder_defines`: ``-DTRACE=$(TRACE)``, ``TRACE ?= 1``).
What the instance analysis finds fed x there is what that testbench feeds; its own texts'
branches and macro values other builds may set are judged as the build's are
(:func:`._tb_x._defined_x`).

Fail closed (every input fed x): a text of the closure that still does not parse, an error
the elaboration reports in a file of the closure that the build's own elaboration does not
(an unknown module, a port a shadowing model lacks), a name two files define with none in
the folder naming it, more than :data:`MAX_BENCHES` such testbenches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from rtlopt.evaluate import _tb_x_bodies as tb
from rtlopt.evaluate import _tb_x_forms as tf
from rtlopt.frontend.model import Design

__all__ = ["MAX_BENCHES", "Bench", "Unread", "bench_builds"]

#: Testbenches elaborated as builds of their own at most (each is one elaboration).
MAX_BENCHES = 8


@dataclass(frozen=True)
class Bench:
    """One testbench's build: the design read so, its closure's files (``files``, resolved),
    the file errors the build's own elaboration has there too (``allowed``), the testbench
    (``label``, relative) and whether the build compiles it with an error (``replaced``:
    what the build's instance analysis finds from it is superseded)."""

    design: Design
    files: frozenset[Path]
    allowed: frozenset[Path]
    label: str
    replaced: frozenset[Path] = frozenset()
    #: the module names some text of the repository defines (others are vendor cells)
    known: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Unread:
    """A testbench (``at``, relative) that cannot be read as a build, and why."""

    at: str
    why: str


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class _Texts:
    """The repository's texts by unit name: in the build (``built``: name -> file) and
    anywhere (``defining``: name -> files)."""

    codes: Mapping[Path, str]
    per_file: Mapping[Path, list[tb.Body]]
    built: Mapping[str, Path]
    defining: Mapping[str, list[Path]]


def _closure(bench: Path, t: _Texts, root: Path) -> list[Path] | str:
    """The testbench's text and the files defining the modules its bodies name, at any
    depth (see the module's docstring), in order; or why not."""
    files, queue = [bench], [bench]
    while queue:
        path = queue.pop(0)
        mine = set(tf.units(t.codes[path]))
        words = {w for b in t.per_file.get(path, []) for w in b.words}
        for name in sorted(words - mine):
            every = [p for p in t.defining.get(name, []) if p != path]
            local = [p for p in every if p.parent == path.parent]
            if len(local) > 1:
                return f"module {name} is defined by {len(local)} files of {path.parent.name}"
            found = local or ([t.built[name]] if name in t.built else every)
            if len(found) > 1:
                return (
                    f"module {name} that {_relative(path, root)} names is defined in more "
                    "than one file outside the build, none beside it"
                )
            for p in found:
                if p not in files:
                    files.append(p)
                    queue.append(p)
    return files


def _first_error(files: Sequence[Path], design: Design, defines: Mapping[str, str]) -> str:
    """The first syntax error of ``files`` read with ``defines`` ("file, line N"), or ""."""
    import pyslang
    from pyslang import syntax

    from rtlopt.frontend._slang import preprocessor

    for path in files:
        sm, popts = preprocessor(design.include_dirs, defines)
        try:
            tree = syntax.SyntaxTree.fromFile(str(path), sm, pyslang.Bag([popts]))
        except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
            return f"{path.name}: {str(exc).splitlines()[0] if str(exc) else 'unreadable'}"
        errors = [d for d in tree.diagnostics if d.isError()]
        if errors:
            line = sm.getLineNumber(errors[0].location) if errors[0].location else 0
            return f"{path.name}, line {line}"
    return ""


def _defines(bench: Path, files: Sequence[Path], design: Design) -> dict[str, str] | str:
    """The defines the closure parses with: the configured ones, else with the testbench
    folder's build files' too; or why it does not parse."""
    from rtlopt.frontend._build_flags import folder_defines

    defines = dict(design.defines)
    error = _first_error(files, design, defines)
    if not error:
        return defines
    defines = {**folder_defines(bench.parent), **defines}
    again = _first_error(files, design, defines)
    if again:
        return (
            f"it does not parse with the configured defines ({error}) nor with its build "
            f"files' ({again}): give them in project.defines"
        )
    return defines


def _one(
    bench: Path, design: Design, t: _Texts, built: set[Path], broken: set[Path]
) -> Bench | Unread:
    root = Path(design.root)
    label = _relative(bench, root)
    files = _closure(bench, t, root)
    if isinstance(files, str):
        return Unread(label, files)
    if design.target.name not in {n for p in files for n in tf.units(t.codes[p])}:
        return Unread(label, f"it reaches {design.target.name} through no file rtlopt finds")
    # the build's own files parse as the build reads them (in one unit, a header first)
    defines = _defines(bench, [p for p in files if p == bench or p.resolve() not in built], design)
    if isinstance(defines, str):
        return Unread(label, defines)
    mine = {p.resolve() for p in files}
    text = {p.resolve(): c for p, c in t.codes.items()}
    headers = [
        f
        for f in design.sources.files
        if f.resolve() in built and not tf.units(text.get(f.resolve(), ""))
    ]
    ordered = [f for f in design.sources.files if f.resolve() in mine & built] + [
        p for p in files if p.resolve() not in built
    ]
    sources = replace(
        design.sources, files=tuple(dict.fromkeys([*headers, *ordered])), defines=defines
    )
    allowed = frozenset(broken & mine - {bench.resolve()})
    replaced = frozenset({bench.resolve()} & broken)
    return Bench(replace(design, sources=sources), frozenset(mine), allowed, label, replaced)


def bench_builds(
    design: Design,
    benches: Sequence[Path],
    codes: Mapping[Path, str],
    per_file: Mapping[Path, list[tb.Body]],
    built: set[Path],
) -> list[Bench] | Unread:
    """A build of its own for each of ``benches`` (texts instantiating the target) that the
    build does not compile, or compiles with an error; or the first that cannot be read."""
    from rtlopt.frontend._open_inputs import file_errors

    defining: dict[str, list[Path]] = {}
    built_by: dict[str, Path] = {}
    for p in sorted(codes, key=str):
        for n in tf.units(codes[p]):
            defining.setdefault(n, []).append(p)
            if p.resolve() in built:
                built_by.setdefault(n, p)
    known = frozenset(defining)
    broken = set(file_errors(design, known))
    # a top: no other text names one of its units (what instantiates it is read with it)
    named = {p: {w for b in per_file.get(p, []) for w in b.words} for p in codes}

    def top(b: Path) -> bool:
        return not any(set(tf.units(codes[b])) & named[p] for p in codes if p != b)

    own = [b for b in benches if (b.resolve() not in built or b.resolve() in broken) and top(b)]
    if not own:
        return []
    root = Path(design.root)
    if len(own) > MAX_BENCHES:
        return Unread(
            _relative(own[0], root), f"{len(own)} testbenches outside the build, past {MAX_BENCHES}"
        )
    t = _Texts(codes, per_file, built_by, defining)
    out: list[Bench] = []
    for bench in own:
        got = _one(bench, design, t, built, broken)
        got = replace(got, known=known) if isinstance(got, Bench) else got
        if isinstance(got, Unread):
            return got
        out.append(got)
    return out
