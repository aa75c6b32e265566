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

- a Verilog text the elaboration does not read (outside the build) that names the target or
  a module that instantiates it (textually, at any depth; or a macro whose definition
  names one, ```DUT dut(...)``): what it feeds is not analysed at
  all; where it defines a module the build compiles from another file (another build's
  version, cv32e40p's latch register file) only when it reads as a testbench (below);
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
  one at run time (``-D$(M)``): :mod:`._tb_x_defines`;
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

from rtlopt.evaluate import _tb_x_forms as tf
from rtlopt.frontend.model import Design

__all__ = ["TbX", "tb_x_inputs", "text_x"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TbX:
    """The inputs fed (``ports``), whether z too, and the first place (``source``)."""

    ports: tuple[str, ...] = ()
    z: bool = False
    source: str = ""


_CACHE: dict[Any, tuple[object, TbX]] = {}


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _ancestors(codes: dict[Path, str], target: str) -> set[str]:
    """``target`` and every unit that instantiates it at some depth (by the names its text
    holds beside its own units')."""
    body: dict[str, set[str]] = {}
    for code in codes.values():
        names = tf.units(code)
        for n in names:
            body.setdefault(n, set()).update(tf.words(code) - {n})
    found = {target}
    grew = True
    while grew:
        grew = False
        for n, ws in body.items():
            if n not in found and ws & found:
                found.add(n)
                grew = True
    return found


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


def _judged(design: Design, own: Path | None) -> TbX:
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts
    from rtlopt.frontend._one_build import build_files

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
    try:
        built = {f.resolve() for f in build_files(design)}
    except Exception:  # noqa: BLE001 - no build: nothing is elaborated
        built = set()
    tops = _ancestors(codes, design.target.name)
    tops |= {"`" + m for m in tf.macros_naming(every.values(), tops)}
    own_units = {design.target.name, *design.submodules}
    own_files = {m.file.resolve() for n, m in design.modules.items() if n in own_units and m.file}
    any_virtual = any(tf.virtual_types(c) for c in codes.values())
    compiled = {n for p, c in codes.items() if p.resolve() in built for n in tf.units(c)}
    for path in sorted(codes, key=str):
        code = codes[path]
        r = path.resolve()
        mine = set(tf.units(code))
        # a text holding another unit that instantiates the target (a testbench beside the
        # target) or naming one; another build's version of the target alone is not one
        named = tf.words(code) | tf.macro_uses(code)
        related = bool((named - mine) & tops or (mine - {design.target.name}) & tops)
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
    return _defined_x(design, inputs, texts, every, own_files, own_units, read)


def _defined_x(
    design: Design,
    inputs: tuple[str, ...],
    texts: dict[Path, str],
    every: dict[Path, str],
    own_files: set[Path],
    own_units: set[str],
    read: set[Path],
) -> TbX:
    """Every input fed when a Verilog text of the repository writes x/z under a directive
    whose macro a build of the repository defines (:mod:`._tb_x_defines`); the bodies of the
    target's own units are read by the elaboration under the configured defines, as every
    branch active under them (``read``: the texts the elaboration reads)."""
    from rtlopt.evaluate import _tb_x_defines as td

    defined: set[str] | None = None
    runtime: str | None = None
    root = Path(design.root)
    for path in sorted(every, key=str):
        code = every[path]
        if "`" not in code or not tf.x_literals(code):
            continue
        if defined is None:
            defined = td.build_macros(
                [t for p, t in texts.items() if p.resolve() not in read],
                [t for p, t in texts.items() if p.resolve() in read],
            )
            runtime = td.runtime_defines(texts.values())
        skip = td.own_spans(code, own_units) if path.resolve() in own_files else []
        hit = td.written_x(code, defined, runtime is not None, skip, design.defines)
        if hit:
            how = f"a build defines {hit[1]}" if hit[1] in defined else f"{runtime!r} names it"
            where = (
                f"{_relative(path, root)}:{hit[0]}: an x/z value written under `{hit[1]} "
                f"({how}: the repository's own build elaborates it; rtlopt's defines do not "
                "set it; feeding every input x)"
            )
            log.info("%s: inputs fed x: %s", design.target.name, where)
            return TbX(inputs, True, where)
    return TbX()
