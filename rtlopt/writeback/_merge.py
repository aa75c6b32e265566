"""Where each module of an accepted candidate goes on the branch, and the compile gate.

A candidate is the target module plus, possibly, helper modules of new names (the screen
refuses a helper under a name the repository defines: :mod:`rtlopt.harness._redefined`). On
the branch the target's span holds the target and its helpers; no other module of the
repository is ever replaced. What was proven is the target with the candidate's helpers in
place of any module of their names, so a helper under the name of a repository module (in any
file, the target's own included, in any ```ifdef`` branch) is an internal error, never a
branch: that module's other instances and users were not compared. An unchanged copy is no
exception: it was read in the candidate's macro state, not its own file's.

After the files are written, :func:`compile_gate` re-parses every changed file and compiles the
target with iverilog from the branch's own files, with the design's include folders and
defines: a branch that would not compile is never committed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.errors import DesignError, RepoError
from rtlopt.frontend import module_closure
from rtlopt.frontend.model import Design, Module, SourceSet
from rtlopt.verilog import module_spans, plain_name

__all__ = [
    "Placement",
    "UnprovenWriteBack",
    "compile_gate",
    "place_candidate",
]


class UnprovenWriteBack(AssertionError):
    """The write-back would write a repository module other than the target: the branch
    would differ from what was proven (the screen refuses such candidates; reaching this is a
    bug, reported as an internal error rather than written)."""


@dataclass(frozen=True)
class Placement:
    """The candidate as written over the target's span.

    Attributes:
        target_text: Replaces the target module's span (the target, plus new helpers).
        defined: Every module name the candidate defines there.
        instances: Every module name the candidate instantiates.
    """

    target_text: str
    defined: frozenset[str] = frozenset()
    instances: frozenset[str] = frozenset()


def _parse(text: str, sources: SourceSet | None = None) -> list[Module]:
    from rtlopt.frontend import parse_text

    try:
        return parse_text(text, "candidate.v", sources=sources)
    except DesignError:
        return []


def place_candidate(
    new_text: str,
    module_name: str,
    modules: Mapping[str, Module],
    top: Path,
    sources: SourceSet | None = None,
    declared: Mapping[str, str] | None = None,
) -> Placement:
    """What goes over the target's span: the target and its new helpers.

    Args:
        new_text: The accepted candidate (the target and its helpers).
        module_name: The target module.
        modules: The repository's modules by name (``Design.modules``).
        top: The repository's top folder (files are reported relative to it).
        sources: The design's elaboration context (the candidate may use project macros).
        declared: Helper names any file of the branch declares (in any ```ifdef`` branch)
            -> the file: none may be written.

    Raises:
        UnprovenWriteBack: a helper has the name of a repository module (internal error).
    """
    from rtlopt.harness import in_reference_order

    target = modules.get(module_name)
    if target is not None:  # as evaluated: the ports in the reference's order
        new_text = in_reference_order(new_text, module_name, [p.name for p in target.ports])
    for span in module_spans(new_text):
        name = plain_name(span.name)  # ``\\h`` is ``h`` to every tool
        if name == module_name:
            continue
        orig = modules.get(name)
        where = (_rel(orig.file, top) or str(orig.file)) if orig is not None else None
        where = where or (declared or {}).get(name)
        if where is not None:
            raise UnprovenWriteBack(
                f"the candidate defines module '{name}', which the repository defines "
                f"too ({where}) and which is not the target '{module_name}': written back, "
                "its other instances and users would change unproven; the branch was not "
                "created (please report this)"
            )
    mods = _parse(new_text, sources)
    defined = frozenset(m.name for m in mods)
    instances = frozenset(i for m in mods for i in m.instances)
    return Placement(new_text, defined, instances)


def _rel(path: Path, top: Path) -> str | None:
    try:
        return Path(path).resolve().relative_to(top).as_posix()
    except ValueError:
        return None


def compile_gate(
    wt: Path,
    top: Path,
    module_name: str,
    changed: Sequence[str],
    placement: Placement,
    design: Design | None,
    scratch: Path,
) -> None:
    """Refuse to commit a branch that does not parse or compile.

    Args:
        wt: The branch's work tree.
        top: The user's repository top folder (paths of ``design`` are under it).
        module_name: The target module.
        changed: Repository-relative files written on the branch.
        placement: Where the candidate went.
        design: The parsed design (None: parse check only).
        scratch: A folder for the compiler's output.

    Raises:
        RepoError: naming the file and the first error, with "the branch was not created".
    """
    _parse_changed(wt, top, changed, design)
    if design is None:
        return
    from rtlopt.eda.iverilog import compile_sources
    from rtlopt.tools import require_tool

    require_tool("iverilog")
    reach = set(module_closure([module_name, *placement.instances], design.modules))
    needed = [design.modules[n].file for n in sorted(reach) if n not in placement.defined]
    files: list[Path] = []
    for f in [*design.closure, *needed]:
        frel = _rel(f, top)
        p = wt / frel if frel is not None else Path(f)
        # a file missing on the branch (uncommitted) is left out: the compiler then names the
        # module that is missing
        if p not in files and p.is_file():
            files.append(p)
    for rel in changed:
        if wt / rel not in files:
            files.append(wt / rel)
    incs = []
    for d in design.include_dirs:
        drel = _rel(d, top)
        incs.append(wt / drel if drel is not None else d)
    res = compile_sources(
        [*design.prelude, *files],
        scratch,
        top=module_name,
        include_dirs=incs,
        defines=design.defines,
        out=scratch / "branch.vvp",
        timeout=300,
    )
    if not res.ok and _elaborates_as_systemverilog(
        wt, top, module_name, files, incs, design, scratch
    ):
        return
    if not res.ok:
        lines = res.errors or tuple(res.output.strip().splitlines()[-1:]) or ("no message",)
        text = lines[0].replace(str(wt) + "/", "")
        raise RepoError(
            f"the branch would not compile: {text}",
            path=top,
            hint="the branch was not created; it is made from HEAD, so commit "
            "every file the design needs",
        )


def _parse_changed(wt: Path, top: Path, changed: Sequence[str], design: Design | None) -> None:
    """Every changed file parses, and no module is defined twice among them.

    Raises:
        RepoError: naming the file and the problem.
    """
    from rtlopt.frontend import parse_text

    names: dict[str, str] = {}
    for rel in changed:
        text = (wt / rel).read_text(errors="replace")
        try:
            mods = parse_text(text, rel, sources=design.sources if design else None)
        except DesignError as exc:
            raise RepoError(
                f"the branch's {rel} does not parse: {exc.message}",
                path=top / rel,
                line=exc.line,
                hint="the branch was not created; please report this",
            ) from None
        for m in mods:
            name = plain_name(m.name)
            if name in names:
                raise RepoError(
                    f"the branch would define module '{name}' twice ({names[name]} and {rel})",
                    path=top / rel,
                    line=m.line,
                    hint="the branch was not created; please report this",
                )
            names[name] = rel


def _elaborates_as_systemverilog(
    wt: Path,
    top: Path,
    module_name: str,
    files: Sequence[Path],
    incs: Sequence[Path],
    design: Design,
    scratch: Path,
) -> bool:
    """The gate for SystemVerilog iverilog cannot compile: when the original files do not
    compile with iverilog either, the branch must elaborate with slang (the frontend its
    candidates were evaluated through, ``flow.systemverilog``).

    Raises:
        RepoError: the branch does not elaborate (slang's first error).
    """
    from rtlopt.eda._slang import elaborate, slang_available
    from rtlopt.eda.iverilog import compile_sources
    from rtlopt.frontend._packages import package_files

    if not slang_available():
        return False
    head = compile_sources(
        [*design.prelude, *design.closure],
        scratch / "head",
        top=module_name,
        include_dirs=design.include_dirs,
        defines=design.defines,
        out=scratch / "head" / "head.vvp",
        timeout=300,
    )
    if head.ok:
        return False  # plain Verilog: iverilog's verdict stands
    packages = []
    for f in package_files(design):
        frel = _rel(f, top)
        packages.append(wt / frel if frel is not None else f)
    pre = list(design.prelude)
    res = elaborate(
        [*pre, *(f for f in [*packages, *files] if f not in pre)],
        module_name,
        scratch / "slang",
        root=wt,
        include_dirs=incs,
        defines=design.defines,
        timeout=900,
    )
    if not res.ok:
        text = res.first_error().replace(str(wt) + "/", "")
        raise RepoError(
            f"the branch would not elaborate: {text}",
            path=top,
            hint="the branch was not created; it is made from HEAD, so commit "
            "every file the design needs",
        )
    return True
