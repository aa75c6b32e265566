"""Source sets for a candidate: the candidate file plus the repository modules it may use.

A candidate replaces the target module. It may define helper modules of its own (which then
shadow repository modules of the same name) and may instantiate any module of the repository.
Files are copied into the candidate's scratch directory with the replaced modules blanked out
(newlines kept, so tool messages keep their line numbers).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.config import Config
from rtlopt.frontend import module_closure
from rtlopt.frontend._files import source_problem
from rtlopt.frontend.model import Design, Module
from rtlopt.verilog import blank_spans


@dataclass(frozen=True)
class CandidateSources:
    """Files to compile a candidate with, in order (library first, candidate last)."""

    files: tuple[Path, ...]
    candidate: Path
    library: tuple[Path, ...]


def library_files(
    design: Design, defined: Sequence[str], used: Sequence[str], outdir: Path
) -> tuple[Path, ...]:
    """Repository files a candidate needs, with the target and shadowed modules blanked.

    The design's prelude (its elaboration context: headers a filelist lists first) comes
    first, so candidate and reference are compiled with the same macros.

    Args:
        design: The design.
        defined: Module names the candidate defines (they shadow repository modules).
        used: Module names the candidate instantiates.
        outdir: Where blanked copies are written.
    """
    wanted = [n for n in module_closure(used, design.modules) if n not in defined]
    by_file: dict[Path, list[Module]] = {}
    for name in wanted:
        mod = design.modules[name]
        by_file.setdefault(mod.file, [])
    out: list[Path] = []
    # Keep closure order (dependencies first) for files that are needed.
    order = [f for f in design.closure if f in by_file] + [
        f for f in by_file if f not in design.closure
    ]
    outdir.mkdir(parents=True, exist_ok=True)
    for idx, f in enumerate(order):
        text = f.read_text(errors="replace")
        drop = [
            m
            for m in design.modules.values()
            if m.file == f and (m.name in defined or m.name == design.target.name)
        ]
        if drop:
            copy = outdir / f"lib{idx}_{f.name}"
            copy.write_text(blank_spans(text, [(m.start, m.end) for m in drop]))
            out.append(copy)
        else:
            out.append(f)
    return (*design.prelude, *(f for f in out if f not in design.prelude))


def cache_root(config: Config) -> Path | None:
    """The evaluation cache's folder (None when ``eval.cache`` is off)."""
    cfg = config.eval
    if not cfg.cache:
        return None
    base = cfg.cache_dir or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / ("rtlopt" if not cfg.cache_dir else "") / "eval"


def deps_dir(config: Config) -> Path | None:
    """Where the lists of files the preprocessor reads are kept (see ``files_read``)."""
    root = cache_root(config)
    return None if root is None else root / "deps"


def _file_digest(path: Path) -> str:
    why = source_problem(path, None)
    if why is not None:  # a FIFO or device in an include folder is never opened
        return "not read: " + why
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


def _repository_digest(design: Design, timeout: float = 60.0, memo_dir: Path | None = None) -> str:
    """Hash of every repository file a candidate could compile with (path and bytes): the
    sources, and every file the preprocessor reads for them (see :func:`files_read`)."""
    h = hashlib.sha256()
    for f in sorted(files_read(design, timeout, memo_dir)):
        h.update(_where(f, design.root).encode("utf-8", "surrogateescape"))
        h.update(b"\0" + _file_digest(f).encode() + b"\n")
    return h.hexdigest()


def files_read(design: Design, timeout: float = 60.0, memo_dir: Path | None = None) -> set[Path]:
    """The sources and every file the tools read for them: ```include``'d files of any name
    (``x.vinc``, no suffix), the prelude, filelist entries.

    The list comes from the preprocessor itself (``iverilog -E -Mall=``, run with the design's
    include folders and defines over prelude and sources), so it follows the includes the tools
    follow (Yosys's ``read_verilog`` searches the same folders with the same macros). When the
    preprocessor cannot run over them, every regular file in the include folders counts.

    ``memo_dir`` keeps the list between runs under a key of the sources' bytes, the include
    folders' listings and the defines; it is served only while every listed file still has
    the bytes it had (an include that changed may include other files: the list is made again).
    """
    known: set[Path] = set(design.sources.files) | set(design.closure) | set(design.prelude)
    known |= {m.file for m in design.modules.values()}
    key = _reads_key(design, known)
    deps = _memo_load(memo_dir, key)
    if deps is not None and _lookups(design, known | deps) != _memo_lookups(memo_dir, key):
        deps = None  # an include would now find another file (or cannot be told)
    if deps is None:
        order = [*design.prelude, *sorted(known - set(design.prelude))]
        deps = _preprocessor_reads(order, design, timeout)
        if deps is not None:
            _memo_store(memo_dir, key, deps, _lookups(design, known | deps))
    if deps is None:
        for inc in design.include_dirs:
            deps = (deps or set()) | {f for f in _listing(inc) if f.is_file()}
    resolved = {f.resolve() for f in known}
    return known | {f for f in deps or () if f.resolve() not in resolved}


def _reads_key(design: Design, known: set[Path]) -> str:
    """What decides which files the preprocessor reads: the sources' paths and bytes, the
    defines, and the names in every folder an include is looked up in."""
    h = hashlib.sha256(repr(sorted(design.defines.items())).encode())
    for f in sorted(known):
        h.update(f"{f}\0{_file_digest(f)}\n".encode("utf-8", "surrogateescape"))
    for d in [*_include_tree(design), *sorted({f.parent for f in known})]:
        names = ",".join(p.name for p in _listing(d))
        h.update(f"{d}\0{names}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _include_tree(design: Design) -> list[Path]:
    """The include folders and every folder under them (:func:`folder_tree`): an
    ```include "sub/k.vh"`` looks each folder's ``sub/`` up in turn."""
    out: list[Path] = []
    for folder in design.include_dirs:
        out += folder_tree(Path(folder))[1] if Path(folder).is_dir() else [Path(folder)]
    return out


def folder_tree(folder: Path) -> tuple[list[Path], list[Path]]:
    """The files and the folders under ``folder`` (itself included), linked folders followed
    once each (git's and rtlopt's state aside), in a stable order."""
    files: list[Path] = []
    folders: list[Path] = []
    seen: set[str] = set()
    for here, dirs, names in os.walk(folder, followlinks=True):
        real = os.path.realpath(here)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        folders.append(Path(here))
        dirs[:] = sorted(d for d in dirs if d not in (".git", ".rtlopt"))
        files += [Path(here, n) for n in sorted(names) if os.path.isfile(os.path.join(here, n))]
    return files, folders


#: the lists made in this process (key -> ({file: its digest then}, the include lookups)),
#: served as the disk memo is: only while every listed file has the bytes it had and every
#: include would find the same file (a run without a cache, an evaluator's fingerprint and
#: its source check read the list twice)
_IN_PROCESS: dict[str, tuple[dict[Path, str], dict[str, str] | None]] = {}
_INCLUDE_NAME = re.compile(r'`include\s*["<]([^">\n]+)[">]')
#: an include in a macro's body: looked up from wherever the macro is expanded
_MACRO_INCLUDE = re.compile(r"`define\b[^\n]*(?:\\\n[^\n]*)*`include\b")


def _lookups(design: Design, files: set[Path]) -> dict[str, str] | None:
    """The file each place an ```include`` of ``files`` may be looked up in holds ("" for
    none; the including file's folder, then the include folders), or None where an include's
    name is a macro's, or an include sits in a macro's body or a define's value (looked up
    from wherever it is expanded): no list is kept then. A place is the folder and the name
    as a tool opens them: the kernel walks a ``..`` through a linked folder to the link
    target's parent (``sub/../hdr`` is no lexical ``hdr``), and the file found is told by its
    real path (a link retargeted finds another file)."""
    if any("`" in str(v) for v in design.defines.values()):
        return None  # a define's value may include (where it is expanded) or name a macro
    out: dict[str, str] = {}
    for f in sorted(files):
        try:
            text = f.read_text(errors="replace")
        except OSError:
            continue
        if re.search(r"`include\s*`", text) or _MACRO_INCLUDE.search(text):
            return None
        for name in _INCLUDE_NAME.findall(text):
            for d in (f.parent, *design.include_dirs):
                place = os.path.join(d, name)
                out[place] = os.path.realpath(place) if os.path.isfile(place) else ""
    return out


def _memo_lookups(memo_dir: Path | None, key: str) -> dict[str, str] | None:
    got = _IN_PROCESS.get(key)
    if got is not None:
        return got[1]
    if memo_dir is None:
        return None
    try:
        entry = json.loads((memo_dir / f"{key}.lookups.json").read_text())
        return {str(k): str(v) for k, v in entry.items()}
    except (OSError, ValueError, AttributeError):
        return None


def _memo_load(memo_dir: Path | None, key: str) -> set[Path] | None:
    got = _IN_PROCESS.get(key)
    listed: dict[Path, str] | None = got[0] if got is not None else None
    if listed is None and memo_dir is not None:
        try:
            entry = json.loads((memo_dir / f"{key}.json").read_text())
            listed = {Path(p): str(digest) for p, digest in entry.items()}
        except (OSError, ValueError, AttributeError):
            return None
    if listed is None:
        return None
    if any(_file_digest(p) != digest for p, digest in listed.items()):
        return None
    return set(listed)


def _memo_store(
    memo_dir: Path | None, key: str, deps: set[Path], lookups: dict[str, str] | None
) -> None:
    if lookups is None:
        return  # an include named by a macro: the list is made each time
    if len(_IN_PROCESS) > 64:
        _IN_PROCESS.clear()
    _IN_PROCESS[key] = ({p: _file_digest(p) for p in deps}, lookups)
    if memo_dir is None:
        return
    entry = {str(p): digest for p, digest in _IN_PROCESS[key][0].items()}
    tmp = memo_dir / f".{key}.{os.getpid()}.tmp"
    try:
        memo_dir.mkdir(parents=True, exist_ok=True)
        (memo_dir / f"{key}.lookups.json").write_text(json.dumps(lookups))
        tmp.write_text(json.dumps(entry))
        os.replace(tmp, memo_dir / f"{key}.json")
    except OSError:
        tmp.unlink(missing_ok=True)


def _listing(folder: Path, limit: int = 5000) -> list[Path]:
    try:
        return sorted(folder.iterdir())[:limit]
    except OSError:
        return []


def _preprocessor_reads(files: Sequence[Path], design: Design, timeout: float) -> set[Path] | None:
    """The files ``iverilog -E`` opens for ``files`` (None when it fails)."""
    import tempfile

    from rtlopt.eda._known_preprocess import known_output
    from rtlopt.eda.iverilog import preprocess_argv
    from rtlopt.errors import RtloptError
    from rtlopt.tools import Limits, argv_path, require_tool, run_tool

    if not files:
        return set()
    try:
        known = known_output(
            require_tool("iverilog"),
            files,
            include_dirs=design.include_dirs,
            defines=design.defines,
            timeout=timeout,
        )
    except RtloptError:
        known = None
    if known is not None:  # the files it opens, without a run over them all
        return set(known[1])
    with tempfile.TemporaryDirectory(prefix="rtlopt-deps-") as tmp:
        cwd = Path(tmp)
        deps = cwd / "deps.txt"
        try:
            argv = preprocess_argv(
                require_tool("iverilog"),
                files,
                "pre.v",
                include_dirs=design.include_dirs,
                defines=design.defines,
            )
            # the include lookup of evaluate._preprocess (a file's own folder first)
            argv[1:1] = ["-grelative-include", "-Mall=" + argv_path(deps)]
            run = run_tool(
                argv,
                cwd=cwd,
                log_path=cwd / "pre.log",
                limits=Limits(timeout),
                raise_on_timeout=False,
            )
            if run.returncode != 0 or run.timed_out:
                return None
            lines = deps.read_text(errors="surrogateescape").splitlines()
        except (OSError, RtloptError):
            return None
        return {cwd / ln if not Path(ln).is_absolute() else Path(ln) for ln in lines if ln}


def _where(path: Path, root: Path) -> str:
    """A path for the fingerprint: relative to the repository root when inside it, so that
    the same repository content checked out elsewhere (``rtlopt check`` exports the base
    revision to a fresh temporary folder each time) finds its cached results."""
    try:
        return "<root>/" + path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
