"""Where each module of an accepted candidate goes on the branch, and the compile gate.

A candidate is the target module plus, possibly, helper modules. In the evaluation a helper
shadowed the repository module of the same name, so on the branch it must *replace* that module
(one definition, not two), wherever it is defined. When another repository module (one the
candidate does not redefine) also instantiates it, replacing it would change that module too,
and that change was never verified: the candidate's helper is then renamed (``<name>_rtlopt``)
inside the candidate and stays next to the target. A helper whose text equals the original
(comments and whitespace aside) keeps the original.

After the files are written, :func:`compile_gate` re-parses every changed file and compiles the
target with iverilog from the branch's own files, with the design's include folders and
defines: a branch that would not compile is never committed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.errors import DesignError, RepoError
from rtlopt.frontend import module_closure, module_users
from rtlopt.frontend.model import Design, Module, SourceSet
from rtlopt.verilog import blank_comments, module_spans

__all__ = ["Placement", "compile_gate", "place_candidate", "same_module_text"]


@dataclass(frozen=True)
class Placement:
    """The candidate split by destination.

    Attributes:
        target_text: Replaces the target module's span (the target, plus new helpers).
        helpers: Repository-relative file to ``(module name, new text, line hint)`` of each
            helper that replaces the repository module of that name.
        renamed: Helpers renamed because other repository modules use the original.
        defined: Every module name the (renamed) candidate defines.
        instances: Every module name the (renamed) candidate instantiates.
    """

    target_text: str
    helpers: Mapping[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    renamed: Mapping[str, str] = field(default_factory=dict)
    defined: frozenset[str] = frozenset()
    instances: frozenset[str] = frozenset()


def same_module_text(a: str, b: str) -> bool:
    """Equal modulo comments and whitespace."""
    return " ".join(blank_comments(a).split()) == " ".join(blank_comments(b).split())


def _fresh(name: str, taken: Iterable[str]) -> str:
    used = set(taken)
    new = f"{name}_rtlopt"
    i = 2
    while new in used:
        new = f"{name}_rtlopt{i}"
        i += 1
    return new


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
) -> Placement:
    """Decide where each module of ``new_text`` goes.

    Args:
        new_text: The accepted candidate (the target and its helpers).
        module_name: The target module.
        modules: The repository's modules by name (``Design.modules``).
        top: The repository's top folder (files are reported relative to it).
        sources: The design's elaboration context (the candidate may use project macros).
    """
    from rtlopt.harness import in_reference_order

    target = modules.get(module_name)
    if target is not None:  # as evaluated: the ports in the reference's order
        new_text = in_reference_order(new_text, module_name, [p.name for p in target.ports])
    mods = _parse(new_text, sources)
    defined = {m.name for m in mods}
    rename: dict[str, str] = {}
    for m in mods:
        orig = modules.get(m.name)
        if m.name == module_name or orig is None:
            continue
        if same_module_text(new_text[m.start : m.end], _text(orig)):
            continue
        users = [u for u in module_users(modules, m.name) if u not in defined]
        if users:
            rename[m.name] = _fresh(m.name, [*modules, *defined, *rename.values()])
    if rename:
        from rtlopt.harness import rename_modules

        new_text = rename_modules(new_text, rename)
        mods = _parse(new_text, sources)
        defined = {m.name for m in mods}
    cut: list[tuple[int, int]] = []
    helpers: dict[str, list[tuple[str, str, int]]] = {}
    for span in module_spans(new_text):
        orig = modules.get(span.name)
        if span.name == module_name or orig is None:
            continue
        cut.append((span.start, span.end))
        rel = _rel(orig.file, top)
        if rel is None:
            raise RepoError(
                f"the candidate redefines module '{span.name}', which is defined "
                f"outside the repository ({orig.file})",
                path=orig.file,
                hint="keep the helper unchanged, or give it another name",
            )
        helpers.setdefault(rel, []).append((span.name, new_text[span.start : span.end], orig.line))
    target_text = _cut(new_text, cut)
    instances = frozenset(i for m in mods for i in m.instances)
    return Placement(target_text, helpers, rename, frozenset(defined), instances)


def _text(m: Module) -> str:
    try:
        return m.text()
    except OSError:
        return ""


def _rel(path: Path, top: Path) -> str | None:
    try:
        return Path(path).resolve().relative_to(top).as_posix()
    except ValueError:
        return None


_COMMENT_LINES = re.compile(r"(?:^[ \t]*//[^\n]*\n)+\Z", re.M)


def _with_comment(text: str, start: int) -> int:
    """``start`` moved back over the ``//`` comment lines directly above it (its header)."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip():
        return start
    m = _COMMENT_LINES.search(text[:line_start])
    return m.start() if m else line_start


def _cut(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` without ``spans`` (and their header comments); blank lines are merged only
    where a span was cut, so the target's own lines stay as they are (a minimal diff)."""
    pieces: list[str] = []
    last = 0
    for start, end in sorted((_with_comment(text, a), b) for a, b in spans):
        pieces.append(text[last:start])
        last = end
    pieces.append(text[last:])
    out = pieces[0]
    for piece in pieces[1:]:
        left = re.sub(r"(?:\n[ \t]*)+\Z", "", out)
        right = re.sub(r"\A(?:[ \t]*\n)+", "", piece)
        out = f"{left}\n\n{right}" if left and right else left + right
    return out.strip()


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
            if m.name in names:
                raise RepoError(
                    f"the branch would define module '{m.name}' twice ({names[m.name]} and {rel})",
                    path=top / rel,
                    line=m.line,
                    hint="the branch was not created; please report this",
                )
            names[m.name] = rel


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
