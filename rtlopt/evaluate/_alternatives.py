"""Other definitions of a submodule: builds of the repository that read another file.

A repository may define a module the target instantiates in more than one file, otherwise in
each (cv32e40p's register file with flip-flops or with latches, an FPGA and an ASIC wrapper of
a primitive); another filelist reads the other file. Each such choice is another configuration
of the target: ``evaluate/_config_check.py`` proves the candidate in the design with the other
file read at the place of the one this build reads (the rest of the unit unchanged), after the
repository's module passed against itself there.

:func:`alternative_files` lists, per file of this build, the other repository files that
define one of its modules otherwise; :func:`substitutions` the builds they make (every choice
of one file per such file, this build aside); :func:`substituted_design` one such build's
design. What cannot be read as such a build (a file the prelude reads, another file that also
defines a module this build reads from elsewhere, a module the other file brings in that is
itself defined otherwise) is named by :func:`unreadable`, and the change stays unchecked.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.frontend.model import Design, Module

__all__ = [
    "OtherBuilds",
    "Substitution",
    "alternative_files",
    "brought_in",
    "other_builds",
    "substituted_design",
    "substitution_label",
    "substitutions",
    "unreadable",
]

#: One build: ``(the file this build reads, the file read in its place)`` pairs, sorted.
Substitution = tuple[tuple[Path, Path], ...]

#: At most this many builds are listed (more leave the change unchecked in the check).
_MAX_LISTED = 64


def alternative_files(design: Design, files: Sequence[Path]) -> dict[Path, tuple[Path, ...]]:
    """For each of ``files`` (the submodules' files of this build), the other repository
    files that define one of its modules (the target aside) otherwise, resolved."""
    from rtlopt.evaluate._builds import filelist_vars, repository_modules

    defs = repository_modules(design.root, filelist_vars(design))
    mine = {f.resolve() for f in files}
    out: dict[Path, tuple[Path, ...]] = {}
    for f in sorted(mine):
        # the target aside: a build that links another definition of it does not read this
        # change (a candidate or an older copy kept in the repository is such a definition)
        here = {n: t for n, t in defs.get(f, ()) if n != design.target.name}
        others = [
            g
            for g, mods in sorted(defs.items())
            if g not in mine and any(n in here and t != here[n] for n, t in mods)
        ]
        if others:
            out[f] = tuple(others)
    return out


@dataclasses.dataclass(frozen=True)
class OtherBuilds:
    """The builds that read another file for one of this build's, to be proven.

    Attributes:
        builds: Each such build (every choice of files, this build aside).
        files: The other files and the files of the modules they bring in (their macros
            are configurations too).
        why: Why they cannot be read as builds of the repository ("": they can).
    """

    builds: tuple[Substitution, ...] = ()
    files: tuple[Path, ...] = ()
    why: str = ""


def other_builds(design: Design, files: Sequence[Path]) -> OtherBuilds:
    """The other builds of ``files`` (the submodules' files of this build): another file's
    definition whose text differs, or whose text reads otherwise once preprocessed in its own
    context (``evaluate/_builds.py``; one that cannot be built is why they are unreadable)."""
    from rtlopt.evaluate._builds import preprocessed_alternatives

    alternatives = alternative_files(design, files)
    hidden, why = preprocessed_alternatives(design, files)
    if why:
        return OtherBuilds(why=why)
    for f, gs in hidden.items():
        alternatives[f] = tuple(dict.fromkeys([*alternatives.get(f, ()), *gs]))
    extra: list[Path] = []
    for f, gs in alternatives.items():
        for g in gs:
            why = unreadable(design, ((f, g),))
            if why:
                return OtherBuilds(why=why)
            extra += [h for h in brought_in(design, ((f, g),)) if h not in extra]
    return OtherBuilds(tuple(substitutions(alternatives)), tuple(extra))


def substitutions(alternatives: Mapping[Path, Sequence[Path]]) -> list[Substitution]:
    """Every build that reads another file for at least one file of ``alternatives`` (one
    choice per file; at most :data:`_MAX_LISTED` + 1, so that a count past the limit shows)."""
    files = sorted(alternatives)
    choices = [[f, *alternatives[f]] for f in files]
    out: list[Substitution] = []
    for pick in itertools.product(*choices):
        sub = tuple((f, g) for f, g in zip(files, pick, strict=True) if g != f)
        if sub:
            out.append(sub)
        if len(out) > _MAX_LISTED:
            break
    return out


def _defined(design: Design, f: Path) -> dict[str, str]:
    from rtlopt.evaluate._builds import filelist_vars, repository_modules

    return dict(repository_modules(design.root, filelist_vars(design)).get(f.resolve(), ()))


def substitution_label(design: Design, sub: Substitution) -> str:
    """``with sub from rtl/sub_latch.v``: the modules each other file defines otherwise."""
    parts = []
    for f, g in sub:
        mine, other = _defined(design, f), _defined(design, g)
        # the same text may read another header or define (evaluate/_builds.py)
        names = sorted(n for n in mine if n in other and mine[n] != other[n]) or sorted(
            n for n in mine if n in other
        )
        parts.append(f"with {', '.join(names) or '?'} from {_rel(design, g)}")
    return ", ".join(parts)


def _rel(design: Design, f: Path) -> str:
    try:
        return str(f.relative_to(design.root.resolve()))
    except ValueError:
        return str(f)


def brought_in(design: Design, sub: Substitution) -> list[Path]:
    """The other files of ``sub`` and the files of the modules they instantiate that this
    build does not read (their macros are the build's too), found by name in the repository."""
    from rtlopt.frontend import module_closure

    read = {f.resolve() for f in design.closure}
    out: list[Path] = []
    for _, g in sub:
        out.append(g)
        used = [u for mod in _parsed(design, g).values() for u in mod.instances]
        for n in module_closure(used, design.modules):
            h = design.modules[n].file.resolve()
            if h not in read and h not in out and h not in {f for f, _ in sub}:
                out.append(h)
    return out


def unreadable(design: Design, sub: Substitution) -> str:
    """Why ``sub`` cannot be read as a build of the repository here, or "": a file the
    prelude reads (not at a place in the unit), another file that also defines a module this
    build reads from a file it keeps (the target's included), a file it brings in whose
    module another repository file defines otherwise (a build rtlopt does not enumerate)."""
    prelude = {p.resolve() for p in design.prelude}
    replaced = {f for f, _ in sub}
    kept = {f.resolve() for f in design.closure} - replaced
    elsewhere = {n for h in kept for n in _defined(design, h)}
    for f, g in sub:
        if {f, g} & prelude:
            return f"{_rel(design, f if f in prelude else g)} is read before every file"
        # the target too: a file that defines it and a submodule may hold it under a
        # conditional, so that a build reads that file's submodule beside this change
        twice = sorted(set(_defined(design, g)) & elsewhere)
        if twice:
            return (
                f"{_rel(design, g)} also defines {twice[0]}, which this build reads from "
                "another file"
            )
    try:
        extra = brought_in(design, sub)[len(sub) :]
    except DesignError as exc:
        return exc.one_line()
    deeper = alternative_files(design, extra)
    if deeper:
        f, gs = next(iter(deeper.items()))
        return (
            f"{_rel(design, f)}, which another definition brings in, is also defined "
            f"otherwise by {_rel(design, gs[0])}"
        )
    return ""


def _parsed(design: Design, g: Path) -> dict[str, Module]:
    """The modules of ``g``, parsed in the design's elaboration context.

    Raises:
        DesignError: it does not parse.
    """
    from rtlopt.frontend import parse_text

    text = g.read_text(errors="surrogateescape")
    return {
        m.name: dataclasses.replace(m, file=g)
        for m in parse_text(text, str(g), sources=design.sources)
    }


def substituted_design(design: Design, sub: Substitution) -> Design:
    """``design`` with each other file of ``sub`` read at the place of the file it replaces:
    its modules in place of that file's, the modules it instantiates that this build lacks
    found by name in the repository (their files read before it), the rest of the unit as it
    is; the closure parsed again, so the target's clocks and resets are those of this build
    (a flip-flop file's clock is no clock of a latch file's build).

    Raises:
        DesignError: the other file does not parse, or a module the build needs is defined
            nowhere (a vendor cell the tree lacks).
    """
    from rtlopt.evaluate._macros import package_files
    from rtlopt.frontend import module_closure, parse_files, with_module

    d = design
    swap = dict(sub)
    brought = brought_in(d, sub)[len(sub) :]
    closure = [swap.get(f.resolve(), f) for f in d.closure]
    # dependencies first: before the first file this build swaps in (none of the closure's
    # own files swapped, e.g. a candidate instantiating a module the reference does not: after it)
    at = min((closure.index(g) for g in swap.values() if g in closure), default=len(closure))
    closure[at:at] = [h for h in brought if h not in closure]
    closure = list(dict.fromkeys(closure))
    files = [swap.get(f.resolve(), f) for f in d.sources.files if f.resolve() not in swap.values()]
    sources = dataclasses.replace(d.sources, files=tuple(dict.fromkeys([*files, *closure])))
    # with the files of the packages they use (their widths), parsed for the roles alone:
    # the target's own text and ports are this build's
    texts = [f.read_text(errors="replace") for f in closure]
    packages = [p for p in package_files(d, texts) if p not in closure]
    # a swapped file the reference's closure does not read is still this build's definition of
    # its modules: a candidate that instantiates one reads it (library_files by d.modules)
    outside = [g for g in dict.fromkeys(swap.values()) if g not in closure]
    parsed = parse_files([*packages, *closure, *outside], sources)
    found = parsed.get(d.target.name)
    if found is None:
        raise DesignError(f"module {d.target.name} is not read in that build")
    t = d.target
    target = dataclasses.replace(
        t,
        clocks=tuple(dict.fromkeys([*t.clocks, *found.clocks])),
        resets=tuple(dict.fromkeys([*t.resets, *found.resets])),
        reset_active_low={**found.reset_active_low, **t.reset_active_low},
    )
    modules: Mapping[str, Module] = d.modules
    for m in [*(m for n, m in parsed.items() if n != t.name), target]:
        modules = with_module(modules, m)
    names = module_closure(target.instances, parsed)
    # black boxes this build has too (instantiated, defined nowhere) aside
    boxes = {u for n in [t.name, *d.submodules] if n in d.modules for u in d.modules[n].instances}
    missing = sorted(
        {u for n in [t.name, *names] for u in parsed[n].instances if u not in parsed}
        - {u for u in boxes if u not in d.modules}
    )
    if missing:
        raise DesignError(
            f"module {missing[0]}, which the build {substitution_label(d, sub)} needs, is "
            "defined nowhere in the files that build reads"
        )
    return dataclasses.replace(
        d,
        target=target,
        modules=modules,
        closure=tuple(closure),
        sources=sources,
        submodules=tuple(n for n in names if n != t.name),
    )
