"""Inputs of the target that the repository's Verilog testbenches may drive x where
:mod:`rtlopt.frontend._open_inputs` does not look or cannot follow, for the x-faithfulness
proof (through :func:`._screen_checks.repository_reaches`).

A text is Verilog by its content (a design unit with its end keyword: ``module`` ...
``endmodule``, ``program``, ``interface``, ``package``, ``class``), whatever its name
(``tb.vt``, ``tb.txt``) and folder (a hidden one, ``build/``): every file of the repository is
read, the configuration's ``exclude`` patterns (the default ``**/build/**`` and the user's)
included: they say what rtlopt optimizes, not what the repository's own builds compile (round
74). A file too large to read holding ``endmodule`` fails closed.

Every input of the target (fail closed: which input a write reaches is not mapped) is fed x
or z when the repository holds (:mod:`._tb_x_forms`, read in every branch of a conditional
directive: a build outside rtlopt's configuration may set any macro):

- a Verilog text the elaboration does not read (outside the build) holding a body that names
  the target or a module one of whose bodies instantiates it (at any depth, each body by its
  own text with its includes, or a macro whose definition names one, ```DUT dut(...)``;
  :mod:`._tb_x_bodies`: another unit of the target's file, or another module of the same
  name, is no ancestor): what it feeds is not analysed at all; where it defines a module the
  build compiles from another file (another build's version, cv32e40p's latch register
  file) only when it reads as a testbench (below);
- a testbench's text (not the target's own design: the target's and its submodules' files;
  one ending a simulation, ``$finish``, ``$stop``, ``$exit``, holding a ``program``,
  ``class`` or ``clocking`` block or a procedural delay: a design's text keeps the configured
  defines) with an x/z value that may be written (not an equality's operand nor a case item)
  on a line a conditional directive governs;
- any Verilog text (a header without a unit, a wrapper, a stimulus module naming neither the
  target nor a module above it; of the target's own files, all but its own units' bodies)
  with an x/z value that may be written in a branch inactive under the configured defines
  whose macro a build of the repository defines (``-DM`` in a Makefile, a ``.f`` file's
  ``+define+M``, a core's ``defines``, a word of a script) or any macro where a build names
  one at run time (``-D$(M)``): :mod:`._tb_x_defines`; but in a body outside the
  hierarchies holding the target (no ancestor's body reaches it, it names none of theirs:
  :func:`._tb_x_bodies.outside`), and, in a file the build compiles, the inputs the instance
  analysis finds fed when it elaborates the repository under those macros
  (:mod:`._tb_x_configs`);
- anywhere, a write through a clocking block or a virtual interface handle (any dotted write
  in a class where the repository declares a virtual interface), a DPI import whose result
  or ``output`` argument is 4-state, a call of a non-standard system task or function with
  arguments (PLI: it may write them; ``$deposit`` too).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.evaluate import _tb_x_bodies as tb
from rtlopt.evaluate import _tb_x_forms as tf
from rtlopt.frontend.model import Design

__all__ = ["TbX", "instance_read", "tb_x_inputs", "text_x"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TbX:
    """The inputs fed (``ports``), whether z too, the first place (``source``), and the
    instances feeding them where the instance analysis found them under another build's
    defines (``found``: :class:`~rtlopt.frontend._open_inputs.OpenInput`)."""

    ports: tuple[str, ...] = ()
    z: bool = False
    source: str = ""
    found: tuple[Any, ...] = ()


_CACHE: dict[Any, tuple[object, TbX]] = {}
_READ_CACHE: dict[Any, tuple[object, set[Path]]] = {}


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def text_x(
    code: str,
    *,
    elaborated: bool,
    own_design: bool,
    related: bool,
    any_virtual: bool,
    another_build: bool = False,
) -> tuple[int, str] | None:
    """The first x source (line, what) of a stripped Verilog text ``code`` (see the module's
    docstring), or None. ``elaborated``: slang reads it in the build; ``own_design``: it is
    the target's own design (configured defines stand); ``related``: it names the target or
    a unit instantiating it; ``another_build``: it defines a module the build compiles from
    another file (another build's version of the design, judged as a testbench only by its
    content)."""
    if related and not elaborated and (not another_build or tf.testbench(code)):
        return 1, "a Verilog testbench rtlopt does not elaborate"
    found: list[tuple[int, str]] = []
    found += [(a, "a write through a clocking block or a virtual interface or class handle")
              for a in tf.handle_writes(code, any_virtual)]  # fmt: skip
    found += [(a, "a DPI import with a 4-state result or output") for a in tf.dpi_four_state(code)]
    found += [
        (a, f"a call of the user system task {n} (PLI/VPI: it may write its arguments)")
        for a, n in tf.user_system_calls(code)
    ]
    if related and not own_design and tf.testbench(code):
        governed = tf.conditional_lines(code)
        found += [
            (a, "an x/z value under a conditional directive (another build may define it)")
            for a in tf.x_literals(code)
            if tf.line_of(code, a) in governed
        ]
    if not found:
        return None
    at, what = min(found)
    return tf.line_of(code, at), what


def tb_x_inputs(design: Design, own: Path | None = None) -> TbX:
    """The inputs of the target the repository's Verilog testbenches may feed x or z where
    the elaboration does not look (see the module's docstring), once per design; ``own``:
    rtlopt's scratch folder."""
    from rtlopt.evaluate._memo import per_design

    key = own.resolve() if own is not None else None
    return per_design(_CACHE, design, lambda: _judged(design, own), key)


def _built(design: Design) -> set[Path]:
    """The resolved files the build compiles (none where no build can be told)."""
    from rtlopt.frontend._one_build import build_files

    try:
        return {f.resolve() for f in build_files(design)}
    except Exception:  # noqa: BLE001 - no build: nothing is elaborated
        return set()


def instance_read(design: Design, own: Path | None = None) -> set[Path]:
    """The resolved Verilog texts whose x values only instances of their units carry, which
    this module judges through the bodies that instantiate the target
    (:func:`._tb_x_bodies.instance_read`), once per design."""
    from rtlopt.evaluate._memo import per_design

    key = own.resolve() if own is not None else None
    return per_design(_READ_CACHE, design, lambda: _instance_read(design, own), key)


def _instance_read(design: Design, own: Path | None) -> set[Path]:
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    others, _ = other_texts(design, own)
    texts = dict([*repository_texts(design), *others])
    every = {p: tf.lexed(t) for p, t in texts.items()}
    codes = {p: c for p, c in every.items() if tf.units(c)}
    found = tb.instance_read(tb.all_bodies(codes, every, texts), every, _built(design))
    return {p.resolve() for p in found}


def _judged(design: Design, own: Path | None) -> TbX:
    from rtlopt.evaluate import _tb_x_defines as td
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    inputs = tuple(p.name for p in design.target.ports if p.direction != "output")
    if not inputs:
        return TbX()
    others, unread = other_texts(design, own)
    texts = dict([*repository_texts(design), *others])
    root = Path(design.root)
    for f in unread:
        try:
            with open(f, "rb") as fh:
                big = any(b"endmodule" in chunk for chunk in iter(lambda: fh.read(1 << 22), b""))
        except OSError:
            big = False
        if big:
            where = f"{_relative(f, root)}:1: a Verilog text too large to read"
            return TbX(inputs, True, where)
    every = {p: tf.lexed(t) for p, t in texts.items()}
    codes = {p: c for p, c in every.items() if tf.units(c)}
    built = _built(design)
    per_file = tb.all_bodies(codes, every, texts)
    tops = tb.ancestors(per_file, every, design.target.name)
    own_units = {design.target.name, *design.submodules}
    own_files = {m.file.resolve() for n, m in design.modules.items() if n in own_units and m.file}
    any_virtual = any(tf.virtual_types(c) for c in codes.values())
    compiled = {n for p, c in codes.items() if p.resolve() in built for n in tf.units(c)}
    for path in sorted(codes, key=str):
        code = codes[path]
        r = path.resolve()
        mine = set(tf.units(code))
        # a text holding another unit whose body instantiates the target (a testbench beside
        # the target) or naming one; another build's version of the target alone is not one
        related = tb.related(per_file[path], tops, design.target.name)
        hit = text_x(
            code,
            elaborated=r in built,
            own_design=r in own_files,
            related=related and r != design.target.file.resolve(),
            any_virtual=any_virtual,
            another_build=bool(mine & compiled),
        )
        if hit:
            where = f"{_relative(path, root)}:{hit[0]}: {hit[1]}"
            log.info("%s: inputs fed x by a Verilog testbench: %s", design.target.name, where)
            return TbX(inputs, True, where)
    read = {p.resolve() for p, _ in repository_texts(design)}
    skips = tb.outside(per_file, tb.hierarchy(per_file, every, tops))
    for path in own_files & {p.resolve() for p in every}:
        p = next(q for q in every if q.resolve() == path)
        skips.setdefault(p, []).extend(td.own_spans(every[p], own_units))
    return _defined_x(design, inputs, texts, every, skips, read, built)


def _defined_x(
    design: Design,
    inputs: tuple[str, ...],
    texts: dict[Path, str],
    every: dict[Path, str],
    skips: dict[Path, list[tuple[int, int]]],
    read: set[Path],
    built: set[Path],
) -> TbX:
    """The inputs fed when a Verilog text of the repository writes x/z under a directive
    whose macro a build of the repository defines (:mod:`._tb_x_defines`), outside the
    ``skips`` (the bodies of the target's own units, which the elaboration reads under the
    configured defines, and bodies outside the hierarchies holding the target); in a file the
    build compiles (``built``), by the instance analysis under those macros
    (:mod:`._tb_x_configs`), else every input (``read``: the texts the elaboration reads,
    whose ```define`` it applies)."""
    from rtlopt.evaluate import _tb_x_configs as tc
    from rtlopt.evaluate import _tb_x_defines as td

    defined: set[str] | None = None
    runtime: str | None = None
    root = Path(design.root)
    switched: dict[frozenset[str], str] = {}
    for path in sorted(every, key=str):
        code = every[path]
        if "`" not in code or not tf.x_literals(code):
            continue
        if defined is None:
            defined = td.build_macros(
                [t for p, t in texts.items() if p.resolve() not in read],
                [t for p, t in texts.items() if p.resolve() in read],
                design.defines,
            )
            runtime = td.runtime_defines(texts.values())
        hits = td.written_x_all(code, defined, runtime is not None, skips.get(path, []),
                                design.defines)  # fmt: skip
        for line, macro, levels in hits:
            how = f"a build defines {macro}" if macro in defined else f"{runtime!r} names it"
            where = (
                f"{_relative(path, root)}:{line}: an x/z value written under `{macro} "
                f"({how}: the repository's own build elaborates it; rtlopt's defines do not "
                "set it"
            )
            needed = tc.switched_macros(levels, design.defines)
            if needed is None or path.resolve() not in built:
                log.info("%s: inputs fed x: %s", design.target.name, where)
                return TbX(inputs, True, where + "; feeding every input x)")
            switched.setdefault(frozenset(needed), where)
    if not switched:
        return TbX()
    return _elaborated(design, inputs, texts, every, switched, built, None if runtime else defined)


def _elaborated(
    design: Design,
    inputs: tuple[str, ...],
    texts: dict[Path, str],
    every: dict[Path, str],
    switched: dict[frozenset[str], str],
    built: set[Path],
    defined: set[str] | None,
) -> TbX:
    """The inputs the instance analysis finds fed with each set of ``switched`` macros
    defined (:func:`._tb_x_configs.fed_under`), beside the other macros a build may define
    (``defined``; None: any, named at run time) that a compiled text's directive tests."""
    from rtlopt.evaluate import _tb_x_configs as tc
    from rtlopt.frontend._open_inputs import fed_ports

    found: list[Any] = []
    governing = {n for p, c in every.items() if p.resolve() in built for n in tc.conditions(c)}
    for needed, where in switched.items():
        others = {m for m in governing - needed if defined is None or m in defined}
        others -= set(design.defines)
        got = tc.fed_under(design, set(needed), others, list(texts.values()))
        if got is None:
            log.info("%s: inputs fed x: %s", design.target.name, where)
            return TbX(inputs, True, where + "; no elaboration under it: feeding every input x)")
        found += got
    ports, z = fed_ports(found)
    if not ports:
        return TbX()
    first = found[0].source(design.target.name, design.root)
    where = next(iter(switched.values()))
    return TbX(ports, z, f"{where}; elaborated so: {first})", tuple(found))
