"""Which definition of a module the configured build compiles, where several files define it.

The frontend reads every file of the repository, so a module may be found in several: the
file the build compiles and a stale copy. The build's own rules decide, as simulators and
synthesis tools apply them:

* a module defined in a header that a source includes is defined by that source, at the
  source's place (```include`` expands in place): a same-named file elsewhere is another
  build's (round 51: ``mid_impl.vh`` included by ``top.v`` over a stale ``mid.v``);
* a ``-y`` library folder is not compiled whole: a module found only there comes from
  ``<folder>/<name><suffix>``, the first folder holding one, then the first ``+libext+``
  suffix; another file of the folder that also defines it counts only after every other
  definition (round 51: a stale ``lib/aaa.v`` defining ``mid`` beside ``lib/mid.v``);
* then the sources' order (:attr:`SourceSet.files`: the filelists' files first).

Where the build's choice cannot be told, :meth:`BuildRank.conflict` names both files: a module
two library files define that the search may both load (which one the build keeps depends on
the order it needs them), and one folder holding ``<name>`` under two ``+libext+`` suffixes
(tools differ: iverilog 11 takes ``.sv`` whatever the order); :func:`header_conflict`: a module
a header defines that another file defines too (include guards and ```ifdef``s decide which
one the build compiles, and the text read here does not follow them: round 53, a guarded
header included by the target's file after a guarded listed file).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.frontend._files import include_target, included_names, read_source
from rtlopt.frontend.model import SourceSet
from rtlopt.verilog import module_declarations

__all__ = ["BuildRank", "declared", "header_conflict", "included"]

#: How deep headers may include headers before the walk stops (a cycle stops sooner).
_MAX_DEPTH = 32
#: The rank tier of a library file's module that the library search does not load by name.
_NOT_LOADED = 3


def _read(path: Path) -> str | None:
    try:
        return read_source(path)
    except (DesignError, OSError):
        return None


def included(path: Path, text: str, include_dirs: tuple[Path, ...]) -> list[Path]:
    """The headers ``text`` (of ``path``) includes, directly or through other headers, each
    once, in the order they are first reached."""
    out: list[Path] = []

    def walk(at: Path, body: str, depth: int) -> None:
        for name in included_names(body):
            header = include_target(name, at, include_dirs)
            if header is None or header in out or depth >= _MAX_DEPTH:
                continue
            out.append(header)
            sub = _read(header)
            if sub is not None:
                walk(header, sub, depth + 1)

    walk(path, text, 0)
    return out


def declared(path: Path, include_dirs: tuple[Path, ...], text: str | None = None) -> set[str]:
    """The modules ``path`` defines, those of the headers it includes too (from the text:
    an include inside a disabled ```ifdef`` counts as well)."""
    body = _read(path) if text is None else text
    if body is None:
        return set()
    names = {n for n, _ in module_declarations(body)}
    for header in included(path, body, include_dirs):
        sub = _read(header)
        if sub is not None:
            names |= {n for n, _ in module_declarations(sub)}
    return names


def library_hits(sources: SourceSet, name: str) -> list[Path]:
    """What the ``-y`` search finds for module ``name``: the files ``<folder>/<name><suffix>``
    of the first folder holding one, in ``+libext+`` order (the first is the one loaded)."""
    for folder, exts in sources.libraries:
        hits = [folder / f"{name}{e}" for e in exts if (folder / f"{name}{e}").is_file()]
        if hits:
            return [h.resolve() for h in hits]
    return []


class BuildRank:
    """Orders the definitions of a module: the lower key is the build's.

    Args:
        sources: The design's sources.
        prefer: The target's file (its definitions first, then those of its folder's files).
        texts: Texts already read (a header's place is that of the first source including
            it; the sources looked at are these, else every source of ``sources``).
    """

    def __init__(
        self,
        sources: SourceSet,
        prefer: Path | None = None,
        texts: Mapping[Path, str] | None = None,
    ) -> None:
        self.sources = sources
        self.prefer = prefer
        self._texts = texts
        self._order = {f: i for i, f in enumerate(sources.files)}
        self._includers: dict[Path, Path] | None = None
        self._loadable: dict[str, list[Path]] | None = None

    def where(self, file: Path) -> Path:
        """The source whose place ``file`` takes: itself, or for a header its first includer."""
        if file in self._order:
            return file
        if self._includers is None:
            self._includers = {}
            dirs = self.sources.include_dirs
            for f in self.sources.files:
                text = self._texts.get(f) if self._texts is not None else _read(f)
                for header in included(f, text, dirs) if text else ():
                    self._includers.setdefault(header, f)
        return self._includers.get(file, file)

    def __call__(self, file: Path, name: str) -> tuple[int, int]:
        """The key of ``file``'s definition of module ``name``."""
        at = self.where(file)
        pos = self._order.get(at, len(self._order))
        if at in self.sources.library_files and library_hits(self.sources, name)[:1] != [at]:
            return _NOT_LOADED, pos
        if self.prefer is None:
            return 0, pos
        return (0 if at == self.prefer else 1 if at.parent == self.prefer.parent else 2), pos

    def _loaded_by_name(self) -> dict[str, list[Path]]:
        """Module name -> the library files defining it that the search loads for a module
        they define (their own name)."""
        if self._loadable is None:
            self._loadable = {}
            for f in sorted(self.sources.library_files):
                names = declared(f, self.sources.include_dirs)
                if f.stem in names and library_hits(self.sources, f.stem)[:1] == [f]:
                    for n in names:
                        self._loadable.setdefault(n, []).append(f)
        return self._loadable

    def conflict(self, name: str, chosen: Path) -> DesignError | None:
        """Why the build's definition of ``name`` cannot be told, when ``chosen`` (the
        definition ranked first) is a library file: another library file the search may
        load defines it too, or its folder holds it under two ``+libext+`` suffixes."""
        at = self.where(chosen)
        if at not in self.sources.library_files:
            return None
        hits = library_hits(self.sources, name)
        others = [h for h in hits[1:] if name in declared(h, self.sources.include_dirs)]
        if others and hits[0] == at:
            why = "both +libext+ files of one -y folder, which tools order differently"
        else:
            others = [f for f in self._loaded_by_name().get(name, []) if f != at]
            why = f"which the -y search loads for module {others[0].stem}" if others else ""
        if not others:
            return None
        return DesignError(
            f"module '{name}' is defined in {at} and in {others[0]} ({why}): which one the "
            "build compiles cannot be told",
            path=at,
            hint="remove or rename the stale definition, or list the file that defines it "
            "in the filelist",
        )


def header_conflict(
    name: str, definers: Mapping[Path, tuple[bool, int]], chosen: Path
) -> DesignError | None:
    """Why the build's definition of module ``name`` cannot be told: ``definers`` maps each
    file defining it to (whether through a header it includes, its place in the sources'
    order); ``chosen`` is the one ranked first. Where a header defines it and another file
    the build compiles before that one defines it too, include guards and ```ifdef``s
    decide (not followed here): fail closed."""
    if len(definers) < 2 or not any(h for h, _ in definers.values()):
        return None
    first = min(definers, key=lambda f: (definers[f][1], str(f)))
    if first == chosen or definers[first][1] == definers[chosen][1]:
        return None
    header = chosen if definers[chosen][0] else first
    other = first if header == chosen else chosen
    return DesignError(
        f"module '{name}' is defined through a header {header} includes and in {other}: "
        "which one the build compiles (include guards, `ifdef) cannot be told",
        path=header,
        hint="define the module in one file only (remove the stale copy or the header's)",
    )
