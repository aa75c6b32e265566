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
- in a text the elaboration reads (a compiled file or a header it includes), any text of a
  branch inactive under the configured defines that a build enters (class E: a write of a
  macro whose value is x, of an undriven variable, any value; an ```elsif`` branch; the
  ```else`` of a configured ``SYNTHESIS`` that a simulation build leaves undefined; a
  ```define`` there), or a branch holding no text beside one holding some (an empty
  ```ifdef FAST`` beside an ```else`` writing ``s``, the missing ```else`` of ```ifndef
  FAST``: the build entering it drops a write rtlopt's reading makes, leaving a variable
  unassigned, written later or read before its first write; round 83,
  :func:`._tb_x_defines.left_branches`): the inputs the instance analysis finds fed,
  beyond what it finds under the configured defines, when it elaborates the repository
  under the macros entering the branch (:func:`._tb_x_defines.entering`), as many
  branches together as one build may enter (:func:`_merged`); outside the same bodies. A
  configuration the elaboration cannot read, or past :data:`._tb_x_configs._MAX_CONFIGS`
  value combinations, feeds every input;
- anywhere, a write through a clocking block or a virtual interface handle (any dotted write
  in a class where the repository declares a virtual interface), a DPI import whose result
  or ``output`` argument is 4-state, a call of a non-standard system task or function with
  arguments (PLI: it may write them; ``$deposit`` too).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rtlopt.evaluate import _tb_x_bodies as tb
from rtlopt.evaluate import _tb_x_forms as tf
from rtlopt.evaluate._tb_x_benches import Bench, Unread, bench_builds
from rtlopt.evaluate._tb_x_defines import Entry
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
    #: files of the build with an error, elaborated whole as a testbench's build here: the
    #: build's own findings from them are superseded (:mod:`._tb_x_benches`)
    replaced: frozenset[Path] = frozenset()


_CACHE: dict[Any, tuple[object, TbX]] = {}
#: What an empty branch a build enters is (:func:`._tb_x_defines.left_lines`).
_LEFT = "a branch without the writes rtlopt's reading makes there"
_READ_CACHE: dict[Any, tuple[object, set[Path]]] = {}
#: What a testbench that cannot be elaborated is.
_UNREAD = "a Verilog testbench rtlopt does not elaborate"


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
        return 1, _UNREAD
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
    benches: list[Path] = []  # outside the build, instantiating the target: elaborated
    for path in sorted(codes, key=str):
        code = codes[path]
        r = path.resolve()
        mine = set(tf.units(code))
        # a text holding another unit whose body instantiates the target (a testbench beside
        # the target) or naming one; another build's version of the target alone is not one
        related = tb.related(per_file[path], tops, design.target.name)
        related = related and r != design.target.file.resolve()
        bench = related and (r in built or not mine & compiled)
        hit = text_x(
            code,
            elaborated=r in built or bench,
            own_design=r in own_files,
            related=related,
            any_virtual=any_virtual,
            another_build=bool(mine & compiled),
        )
        if hit:
            where = f"{_relative(path, root)}:{hit[0]}: {hit[1]}"
            log.info("%s: inputs fed x by a Verilog testbench: %s", design.target.name, where)
            return TbX(inputs, True, where)
        if bench:
            benches.append(path)
    held = tb.hierarchy(per_file, every, tops)
    generated = _generated(root, held, codes, texts, tb.root_files(per_file, tops), unread)
    if generated:
        log.info("%s: inputs fed x: %s", design.target.name, generated)
        return TbX(inputs, True, generated)
    read = {p.resolve() for p, _ in repository_texts(design)}
    skips = tb.outside(per_file, held)
    for path in own_files & {p.resolve() for p in every}:
        p = next(q for q in every if q.resolve() == path)
        skips.setdefault(p, []).extend(td.own_spans(every[p], own_units))
    builds = bench_builds(design, benches, codes, per_file, built)
    if isinstance(builds, Unread):
        return TbX(inputs, True, f"{builds.at}:1: {_UNREAD} ({builds.why})")
    # a testbench's own texts are judged in its build (below), not in rtlopt's
    theirs = {f for b in builds for f in b.files - (built - b.replaced)}
    rtlopts = {p: c for p, c in every.items() if p.resolve() not in theirs}
    out = _defined_x(design, inputs, texts, rtlopts, skips, read, built)
    for b in builds:
        try:
            fed = _bench_fed(b)
        except RuntimeError as exc:
            return TbX(inputs, True, f"{b.label}:1: {_UNREAD} ({exc})")
        # its own texts' branches and macro values other builds may set
        texts_b = {p: c for p, c in every.items() if p.resolve() in b.files - (built - b.replaced)}
        also = _defined_x(b.design, inputs, texts, texts_b, skips, read, built | b.files)
        out = _joined(_joined(out, fed), also)
        out = replace(out, replaced=out.replaced | b.replaced)
    return out


def _bench_fed(b: Bench) -> TbX:
    """What the instance analysis of a testbench's own build (:mod:`._tb_x_benches`) finds
    fed x.

    Raises:
        RuntimeError: a file of its closure has an error the build's own has not, or
            nothing elaborates.
    """
    from rtlopt.frontend._open_inputs import bench_inputs, fed_ports

    found = bench_inputs(b.design, b.files, b.allowed, b.known)
    if not found:
        return TbX()
    ports, z = fed_ports(found)
    at = found[0].source(b.design.target.name, b.design.root)
    return TbX(ports, z, f"{b.label} as its own build: {at}", tuple(found))


def _joined(a: TbX, b: TbX) -> TbX:
    """Both findings: the inputs of either, the first source."""
    if not a.ports:
        return b
    if not b.ports:
        return a
    ports = tuple(dict.fromkeys([*a.ports, *b.ports]))
    return TbX(ports, a.z or b.z, a.source, (*a.found, *b.found), a.replaced | b.replaced)


def _generated(
    root: Path,
    held: set[str],
    codes: dict[Path, str],
    texts: dict[Path, str],
    benches: set[Path],
    unread: list[Path],
) -> str:
    """Where a text of the hierarchies includes a header a build's include folder outside
    the committed tree may supply (:mod:`._tb_x_folders`), or ""."""
    from rtlopt.evaluate._tb_x_folders import generated_include

    mine = {p: texts[p] for p, c in codes.items() if set(tf.units(c)) & held}
    builds = [(p, t) for p, t in texts.items() if p not in codes]
    return generated_include(root, mine, texts, builds, benches, unread)


def _defined_x(
    design: Design,
    inputs: tuple[str, ...],
    texts: dict[Path, str],
    every: dict[Path, str],
    skips: dict[Path, list[tuple[int, int]]],
    read: set[Path],
    built: set[Path],
) -> TbX:
    """The inputs fed in a configuration another build of the repository uses: where a
    Verilog text writes x/z under a directive whose macro a build defines
    (:mod:`._tb_x_defines`), or where a text the elaboration reads holds a branch a build
    enters (any text: a write of a macro whose value is x, of an undriven variable), outside
    the ``skips`` (the bodies of the target's own units, which the elaboration reads under
    the configured defines, and bodies outside the hierarchies holding the target). The
    instance analysis elaborates the repository under the macros entering the branch
    (:mod:`._tb_x_configs`); an x literal in a file the build does not compile (``built``),
    a branch no single definition enters, feeds every input (``read``: the texts the
    elaboration reads, whose ```define`` it applies)."""
    from rtlopt.evaluate import _tb_x_configs as tc
    from rtlopt.evaluate import _tb_x_defines as td

    defined: set[str] | None = None
    named: set[str] = set()  # the macros a text defines (no tool's own)
    runtime: str | None = None
    root = Path(design.root)
    switched: dict[Entry, str] = {}
    branches: dict[Entry, str] = {}
    for path in sorted(every, key=str):
        code = every[path]
        if "`" not in code:
            continue
        if defined is None:
            named = td.build_macros(
                [t for p, t in texts.items() if p.resolve() not in read],
                [t for p, t in texts.items() if p.resolve() in read],
                design.defines,
                predefined=False,
            )
            defined = named | td.TOOL_PREDEFINED
            runtime = td.runtime_defines(texts.values())
        r, skip, on = path.resolve(), skips.get(path, []), design.defines
        hits = (
            td.written_x_all(code, defined, runtime is not None, skip, on)
            if tf.x_literals(code)
            else []
        )
        for line, macro, levels in hits:
            where = _where(path, root, line, macro, defined, runtime, "an x/z value written")
            needed = tc.switched_macros(levels, on)
            if needed is None or r not in built:
                log.info("%s: inputs fed x: %s", design.target.name, where)
                return TbX(inputs, True, where + "; feeding every input x)")
            switched.setdefault((frozenset(needed), frozenset()), where)
        if r not in built and r not in read:
            continue  # no build rtlopt reads compiles it: judged as a testbench (text_x)
        args = (code, defined, runtime is not None, skip, on)
        entered = [(h, "a branch's text") for h in td.branch_lines(*args)]
        entered += [(h, _LEFT) for h in td.left_lines(*args)]  # it drops what rtlopt's has
        for (line, macro, entry), what in entered:
            dropped = not entry[0] - set(on)
            where = _where(path, root, line, macro, defined, runtime, what, dropped)
            branches.setdefault(entry, where)
    compiled = {p: c for p, c in every.items() if p.resolve() in built | read}
    for m, (path, line) in tc.valued(
        compiled, defined or set(), runtime is not None, design.defines, every.values()
    ).items():
        where = (
            f"{_relative(path, root)}:{line}: `{m} used, whose value a build may set "
            "(-D, a `define compiled first) in place of rtlopt's"
        )
        switched.setdefault((frozenset({m}), frozenset({"\0value"})), where)
    if not switched and not branches:
        return TbX()
    # a tool's own macros enter the branches they govern, not the other builds' settings
    # beside an x (one more value each: ibex's configurations past the bound)
    others = None if runtime else named
    return _elaborated(design, inputs, texts, every, (switched, branches), built, others)


def _where(
    path: Path,
    root: Path,
    line: int,
    macro: str,
    defined: set[str],
    runtime: str | None,
    what: str,
    dropped: bool = False,
) -> str:
    """The place and the build of a text written only in another build's configuration."""
    from rtlopt.evaluate._tb_x_defines import TOOL_PREDEFINED

    if dropped:
        how = f"rtlopt's defines set {macro}; a build may leave it undefined"
    elif macro in TOOL_PREDEFINED:
        how = f"a build's tool predefines {macro}"
    elif macro in defined:
        how = f"a build defines {macro}"
    else:
        how = f"{runtime!r} names it"
    return (
        f"{_relative(path, root)}:{line}: {what} under `{macro} ({how}: the repository's own "
        "build elaborates it; rtlopt's defines do not enter the branch"
    )


def _elaborated(
    design: Design,
    inputs: tuple[str, ...],
    texts: dict[Path, str],
    every: dict[Path, str],
    configs: tuple[dict[Entry, str], dict[Entry, str]],
    built: set[Path],
    defined: set[str] | None,
) -> TbX:
    """The inputs the instance analysis finds fed, beyond what it finds under rtlopt's own
    defines, in each configuration (:func:`._tb_x_configs.fed_under`): for an x literal
    under a build's macro (``configs[0]``), its macros defined beside every value
    combination of the other macros a text of the repository defines (``defined``, a
    tool's predefined ones aside; None: any, named at run time) that a compiled text's
    directive tests (none for an x under a tool's own macro: its reading alone, as a
    branch's); for the branches a build enters
    (``configs[1]``), their macros defined and configured ones undefined, each alone (one
    branch's driver may hide another's undriven variable) and as many together as one build
    may (:func:`_merged`: two branches' texts meet, a stimulus and what connects it); each
    set of defines is elaborated once."""
    from rtlopt.evaluate import _tb_x_configs as tc
    from rtlopt.evaluate._tb_x_defines import TOOL_PREDEFINED
    from rtlopt.frontend._open_inputs import fed_ports, open_inputs

    try:
        default = {_key(o) for o in open_inputs(design)}
    except RuntimeError:
        default = set()  # judged unchecked by the screen (open_inputs_reason)
    literal, branches = configs
    governing = {n for p, c in every.items() if p.resolve() in built for n in tc.conditions(c)}
    runs: list[tuple[Entry, frozenset[str], str]] = []
    for (needed, off), where in literal.items():
        if "\0value" in off:  # a macro's value alone (tc.valued)
            runs.append(((needed, frozenset()), frozenset(), where))
            continue
        others = {m for m in governing - needed - off if defined is None or m in defined}
        if needed <= TOOL_PREDEFINED:  # a tool's reading, alone as a branch's (ibex's bound)
            others = set()
        runs.append(((needed, off), frozenset(others - set(design.defines)), where))
    on = set(design.defines)
    alone = {(d - on, u & on): w for (d, u), w in branches.items()}  # a text may hide another's
    runs += [(e, frozenset(), w) for e, w in [*alone.items(), *_merged(branches, on)]]
    log.info("%s: %d configurations of other builds", design.target.name, len(runs))
    found: list[Any] = []
    first = ""
    memo: dict[frozenset[tuple[str, str]], list[object]] = {}
    for (needed, off), also, where in runs:
        got = tc.fed_under(design, set(needed), set(also), list(texts.values()), off, memo)
        if got is None:
            log.info("%s: inputs fed x: %s", design.target.name, where)
            return TbX(inputs, True, where + "; no elaboration under it: feeding every input x)")
        new = [o for o in got if _key(o) not in default and o not in found]
        if new and not first:
            at = new[0].source(design.target.name, design.root)  # type: ignore[attr-defined]
            first = f"{where}; elaborated so: {at})"
        found += new
    ports, z = fed_ports(found)
    if not ports:
        return TbX()
    return TbX(ports, z, first, tuple(found))


def _merged(branches: dict[Entry, str], on: set[str]) -> list[tuple[Entry, str]]:
    """The configurations entering every branch of ``branches`` (each: the macros defined
    and left undefined), as few as may be: a branch joins the first configuration it does
    not contradict; each as (macros to define, configured ones to undefine), where."""
    groups: list[tuple[set[str], set[str], str]] = []
    for (defs, undefs), where in sorted(branches.items(), key=lambda e: sorted(map(sorted, e[0]))):
        for g in groups:
            if not defs & g[1] and not undefs & g[0]:
                g[0].update(defs)
                g[1].update(undefs)
                break
        else:
            groups.append((set(defs), set(undefs), where))
    return [((frozenset(d - on), frozenset(u & on)), w) for d, u, w in groups]


def _key(o: Any) -> tuple[object, ...]:
    """What tells an instance's x apart across configurations."""
    return (o.instance, o.port, o.kind, o.net, str(o.net_file), o.net_line, o.bits, str(o.value))
