"""What a command read, observed again without running it, and its answer kept under its
command line.

A short command whose answer is already in a cache (``rtlopt evaluate`` of a candidate judged
before) spent most of its time finding out which cache entry answers it: reading the
configuration, parsing the repository, resolving the PDK, importing all of that. Here, with
the standard library only, it is answered from a *memo* instead:

- an *observation* is one thing the command read, made again: a file (its bytes, and where
  its path leads), a folder (its names), a repository's source tree (what the source scan
  sees), a path (where it leads), a binary or a Python module (its identity: inode, size,
  modification and change times), a tool (the binary rtlopt would start, and its identity);
- a memo keeps, under the command's key (its arguments, working folder, environment and
  interpreter), every observation with its value and what the answer needs; it is served
  only while every observation gives the same value again.

A memo is written only when every observation gives, at the end of the command, the value it
gave right after the command read its inputs, and nothing present among them (file, folder,
binary) changed from shortly before the command started (their change times): the values
recorded are then those the command itself read, and a file that changed while the command
ran is never tied to an answer made from its older bytes. (Paths that are absent have no
change time; the files a command did read are present, and a deletion between the reading and
the first observation is what the caller checks: ``config_files`` of ``session.Target``.)
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "MARGIN_NS",
    "SKIP_DIRS",
    "Observation",
    "command_key",
    "holds",
    "load_memo",
    "locate_tool",
    "observe",
    "observe_all",
    "python_observations",
    "repository_files",
    "store_memo",
    "tool_env_key",
]

FORMAT = "rtlopt-inputs-1"

#: Observation kinds: ``bytes`` (a file), ``names`` (a folder), ``code`` (a folder of
#: Python code, its ``__pycache__`` aside), ``tree`` (a repository's
#: source scan), ``repository`` (every file of a repository: :func:`repository_files`),
#: ``real`` (where a path leads), ``exists``, ``stat`` (a file's identity), ``tool`` (the
#: binary a tool name starts), ``shadows`` (files named like loaded modules).
Observation = tuple[str, str]

#: A change time this close to the command's start may still belong to a write the command
#: raced with (file systems stamp times from a clock a tick behind): such a memo is not kept.
MARGIN_NS = 50_000_000

#: Folders the repository scan never enters (``rtlopt.frontend._sources``), besides hidden ones.
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv"})
#: Names the source scan looks at (``rtlopt.frontend._sources``: sources and headers).
SCANNED_SUFFIXES = (".v", ".sv", ".vh", ".svh", ".vinc", ".inc")

#: Environment variables that never change an answer: the shell's own bookkeeping.
_SHELL_VARIABLES = frozenset(
    {
        "_",
        "OLDPWD",
        "PWD",
        "SHLVL",
        "PS1",
        "PS2",
        "PROMPT_COMMAND",
        "COLUMNS",
        "LINES",
        "TERM_SESSION_ID",
        "WINDOWID",
        "SSH_CLIENT",
        "SSH_CONNECTION",
        "SSH_TTY",
        "SSH_AUTH_SOCK",
        "HISTFILE",
        "HISTSIZE",
        "HISTCONTROL",
        "LS_COLORS",
    }
)
_CHUNK = 1 << 20


def tool_env_key(name: str) -> str:
    """The environment variable naming a tool's binary: ``RTLOPT_YOSYS``, ``RTLOPT_YOSYS_ABC``."""
    return "RTLOPT_" + "".join(c if c.isascii() and c.isalnum() else "_" for c in name.upper())


def locate_tool(name: str) -> str | None:
    """The binary rtlopt starts for ``name`` (``RTLOPT_<NAME>``: a path, or a program name on
    PATH; else ``name`` on PATH), or None when there is no executable file there."""
    import shutil

    override = os.environ.get(tool_env_key(name))
    if override:
        found = os.path.abspath(override) if os.sep in override else shutil.which(override)
        if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
            return None
        return found
    return shutil.which(name)


def command_key(argv: Sequence[str], cwd: str, env: Mapping[str, str]) -> str:
    """The key of a command: its arguments, working folder, environment (the shell's own
    bookkeeping variables aside) and interpreter (version, executable, module search path)."""
    blob = {
        "format": FORMAT,
        "argv": list(argv),
        "cwd": cwd,
        "env": sorted((k, v) for k, v in env.items() if k not in _SHELL_VARIABLES),
        "python": [sys.version, sys.executable, list(sys.path), sys.flags.optimize],
    }
    return hashlib.sha256(json.dumps(blob).encode("utf-8", "surrogateescape")).hexdigest()[:32]


# ---------------------------------------------------------------------------- observations


def _ctime(path: str, times: list[int] | None, follow: bool = True) -> os.stat_result | None:
    try:
        st = os.stat(path) if follow else os.lstat(path)
    except OSError:
        return None
    if times is not None:
        times.append(st.st_ctime_ns)
    return st


def identity(path: str, times: list[int] | None = None) -> str:
    """A file's identity (inode, size, modification and change times), "absent" without it."""
    st = _ctime(path, times)
    if st is None:
        return "absent"
    return f"{st.st_ino}|{st.st_size}|{st.st_mtime_ns}|{st.st_ctime_ns}|{st.st_mode:o}"


#: Where folders lead, for one round of observations (cleared at its start: a link made
#: between two rounds is seen).
_REAL_DIRS: dict[str, str] = {}


def _realpath(path: str, lst: os.stat_result) -> str:
    """``os.path.realpath(path)``, each folder resolved once per round."""
    if stat.S_ISLNK(lst.st_mode):
        return os.path.realpath(path)
    folder, name = os.path.split(os.path.abspath(path))
    real = _REAL_DIRS.get(folder)
    if real is None:
        real = _REAL_DIRS[folder] = os.path.realpath(folder)
    return os.path.join(real, name)


def _file_bytes(path: str, times: list[int] | None) -> str:
    """The SHA-256 of a regular file (opened without blocking: a FIFO is never read), with
    where its path leads; else what it is."""
    lst = _ctime(path, times, follow=False)
    st = _ctime(path, times)
    if lst is None:
        return "absent"
    real = _realpath(path, lst)
    if st is None:
        return f"broken link to {real}"
    if not stat.S_ISREG(st.st_mode):
        return f"{real} mode {st.st_mode:o}"
    try:
        return f"{real} {file_sha256(path)}"
    except NotRegularError:
        return f"{real} not regular"
    except OSError as exc:
        return f"{real} unreadable {exc.errno}"


class NotRegularError(OSError):
    """The path opened is no regular file (it changed between the stat and the open)."""


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of a regular file's bytes, opened without blocking (a FIFO is never read).

    Raises:
        NotRegularError: What was opened is no regular file.
        OSError: The file cannot be opened or read.
    """
    h = hashlib.sha256()
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularError(0, "not a regular file", str(path))
        while chunk := os.read(fd, _CHUNK):
            h.update(chunk)
    finally:
        os.close(fd)
    return h.hexdigest()


def _names(path: str, times: list[int] | None) -> str:
    """A folder's entries (name and kind), "absent" without the folder."""
    if _ctime(path, times) is None:
        return "absent"
    try:
        with os.scandir(path) as it:
            rows = sorted(f"{e.name}:{_kind(e)}" for e in it)
    except OSError as exc:
        return f"unreadable {exc.errno}"
    return hashlib.sha256("\n".join(rows).encode("utf-8", "surrogateescape")).hexdigest()


def _code_names(path: str, times: list[int] | None) -> str:
    """A folder of Python code: its entries as :func:`_names` reads them, but for the
    interpreter's own cache (``__pycache__``, made by the first import of a module there,
    also by the command itself); the change times are its files', not the folder's or its
    subfolders', which that cache's making changes."""
    try:
        with os.scandir(path) as it:
            entries = [e for e in it if e.name != "__pycache__"]
            rows = sorted(f"{e.name}:{_kind(e)}" for e in entries)
    except FileNotFoundError:
        return "absent"
    except OSError as exc:
        return f"unreadable {exc.errno}"
    for e in entries:  # a folder is observed itself (its entries); its time is that cache's
        if not e.is_dir(follow_symlinks=False):
            _ctime(e.path, times, follow=False)
    return hashlib.sha256("\n".join(rows).encode("utf-8", "surrogateescape")).hexdigest()


def _kind(entry: os.DirEntry[str]) -> str:
    try:
        if entry.is_symlink():
            return "l"
        return "d" if entry.is_dir() else "f" if entry.is_file() else "o"
    except OSError:
        return "?"


def _scanned(entry: os.DirEntry[str], times: list[int] | None) -> str:
    """What the source scan decides from for a file named like a source or header: its kind,
    size, and for a symlink where it leads."""
    lst = _ctime(entry.path, times, follow=False)
    st = _ctime(entry.path, times)
    if lst is None:
        return "gone"
    link = os.path.realpath(entry.path) if stat.S_ISLNK(lst.st_mode) else ""
    if st is None:
        return f"broken {link}"
    return f"{st.st_mode:o} {st.st_size} {link}"


def _tree(root: str, times: list[int] | None) -> str:
    """The repository as its source scan sees it (``rtlopt.frontend._sources._scan``): every
    folder it enters (hidden ones and :data:`SKIP_DIRS` skipped, symlinked folders not
    entered) and every source and header there with its kind, size and link target (other
    files, which the scan never looks at, do not count)."""
    h = hashlib.sha256()
    stack = [root]
    if _ctime(root, times) is None:
        return "absent"
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            h.update(f"{here}\0unreadable {exc.errno}\n".encode("utf-8", "surrogateescape"))
            continue
        for e in entries:
            kind = _kind(e)
            if e.name.endswith(SCANNED_SUFFIXES):
                row = f"{e.path}\0{kind}\0{_scanned(e, times)}"
            elif kind == "d" and e.name not in SKIP_DIRS and not e.name.startswith("."):
                stack.append(e.path)
                _ctime(e.path, times)
                row = f"{e.path}\0d"
            else:
                continue
            h.update((row + "\n").encode("utf-8", "surrogateescape"))
    return h.hexdigest()


#: Folders (and files) of a repository that are git's own or rtlopt's state (its candidates
#: and copies), at any depth: :func:`repository_files` leaves them out.
STATE_NAMES = frozenset({".git", ".rtlopt"})


def repository_files(root: Path) -> list[Path]:
    """Every file under ``root`` (sorted; a link to a file counts, a linked folder is not
    entered, a folder that may not be read is skipped) but git's own and rtlopt's state
    (:data:`STATE_NAMES`), except the files of ``.rtlopt`` that git tracks (a build may
    compile what the repository holds there). The repository rules read these files
    (``rtlopt.evaluate._repo_texts.other_texts``, ``rtlopt.harness._captured``), and the
    evaluation cache's fingerprint hashes them.

    Raises:
        OSError: a folder could not be listed (other than for want of permission).
    """
    out: list[Path] = []
    if not os.path.isdir(root):
        return out
    stack = [str(root)]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as it:
                entries = list(it)
        except PermissionError:
            continue
        for e in entries:
            if e.name in STATE_NAMES:
                continue
            try:
                if e.is_dir() and not e.is_symlink():
                    stack.append(e.path)
                elif e.is_file():
                    out.append(Path(e.path))
            except OSError:
                continue
    out.sort()
    if os.path.isdir(os.path.join(root, ".rtlopt")):
        import subprocess

        try:
            listed = subprocess.run(
                ["git", "-C", str(root), "ls-files", "-z", "--", ".rtlopt"],
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            ).stdout
        except (OSError, subprocess.SubprocessError):
            listed = ""
        out += sorted(root / r for r in listed.split("\0") if r and (root / r).is_file())
    return out


def _repository(root: str, times: list[int] | None) -> str:
    """Every file of the repository at ``root`` (:func:`repository_files`: what the
    repository rules read, any name and suffix) by its path and identity."""
    h = hashlib.sha256()
    try:
        files = repository_files(Path(root))
    except OSError as exc:
        return f"unreadable {exc.errno}"
    for f in files:
        h.update(f"{f}\0{identity(str(f), times)}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _real(path: str, times: list[int] | None) -> str:
    """Where ``path`` leads."""
    del times
    return os.path.realpath(path)


def _exists(path: str, times: list[int] | None) -> str:
    del times
    return "yes" if os.path.lexists(path) else "no"


def _shadows(arg: str, times: list[int] | None) -> str:
    """``folder NUL name,name,...``: the entries of a folder on the module search path named
    like one of the modules (``name``, ``name.py``, ``name.<abi>.so``: it would be imported
    instead)."""
    del times
    folder, _, names = arg.partition("\0")
    wanted = set(names.split(","))
    try:
        with os.scandir(folder) as it:
            found = sorted(e.name for e in it if e.name.partition(".")[0] in wanted)
    except OSError as exc:
        return f"unreadable {exc.errno}"
    return ",".join(found)


def _tool(name: str, times: list[int] | None) -> str:
    """The binary a tool name starts and its identity ("missing" without one)."""
    found = locate_tool(name)
    if found is None:
        return "missing"
    return f"{found} {identity(found, times)}"


_OBSERVERS = {
    "bytes": _file_bytes,
    "names": _names,
    "code": _code_names,
    "tree": _tree,
    "repository": _repository,
    "real": _real,
    "exists": _exists,
    "shadows": _shadows,
    "stat": identity,
    "tool": _tool,
}


def observe(kind: str, arg: str, times: list[int] | None = None) -> str:
    """The value of one observation now (``times`` collects the change times it saw)."""
    return _OBSERVERS[kind](arg, times)


def observe_all(observations: Iterable[Observation]) -> list[tuple[str, str, str]]:
    """Every observation (once) with its value now."""
    _REAL_DIRS.clear()
    return [(k, a, observe(k, a)) for k, a in dict.fromkeys(observations)]


def holds(observed: Iterable[Sequence[str]]) -> bool:
    """Whether every ``(kind, arg, value)`` gives the same value again."""
    _REAL_DIRS.clear()
    for kind, arg, value in observed:
        if kind not in _OBSERVERS or observe(kind, arg) != value:
            return False
    return True


def python_observations(package: Path) -> list[Observation]:
    """The interpreter's side of a command: every file of ``package`` (rtlopt's own code and
    data, imported or not) and its folders, the file of every module outside the standard
    library loaded now, and every folder of the module search path (an install or removal
    there changes it; the working folder, which ``python -m`` puts first, by the names of the
    modules loaded now: a file there named like one would be imported instead)."""
    out: list[Observation] = []
    for d, dirs, files in os.walk(package):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        out.append(("code", d))
        out += [("stat", os.path.join(d, f)) for f in sorted(files)]
    std = sys.stdlib_module_names
    pkg = str(package) + os.sep
    tops: set[str] = set()
    for name, mod in list(sys.modules.items()):
        tops.add(name.partition(".")[0])
        f = getattr(mod, "__file__", None)
        if isinstance(f, str) and name.partition(".")[0] not in std and not f.startswith(pkg):
            out.append(("stat", f))
    cwd = os.getcwd()
    tops -= set(sys.builtin_module_names)
    for p in sys.path:
        if p in ("", cwd):
            out.append(("shadows", cwd + "\0" + ",".join(sorted(tops))))
        elif os.path.isdir(p):
            out.append(("stat", p))
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------------------------- memos


def memo_dir() -> Path:
    """Where memos are kept: ``$XDG_CACHE_HOME/rtlopt/commands`` (default ``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rtlopt" / "commands"


def load_memo(key: str) -> dict[str, Any] | None:
    """The answer kept under ``key`` while every observation still holds, else None."""
    try:
        entry = json.loads((memo_dir() / f"{key}.json").read_text())
        observed = entry["observed"]
        answer = entry["answer"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if entry.get("format") != FORMAT or not isinstance(answer, dict):
        return None
    try:
        ok = holds(observed)
    except (ValueError, TypeError):
        return None
    return answer if ok else None


def store_memo(
    key: str,
    observed: Sequence[tuple[str, str, str]],
    answer: Mapping[str, Any],
    started_ns: int,
) -> bool:
    """Keep ``answer`` under ``key`` with ``observed`` (the values the command's inputs gave
    right after it read them). Not kept (False) when any value differs now, or anything
    present among them changed since :data:`MARGIN_NS` before ``started_ns``."""
    times: list[int] = []
    _REAL_DIRS.clear()
    for k, a, v in observed:
        if observe(k, a, times) != v:
            return False
    if any(t >= started_ns - MARGIN_NS for t in times) or time.time_ns() < started_ns:
        return False
    d = memo_dir()
    tmp = d / f".{key}.{os.getpid()}.{os.urandom(8).hex()}.tmp"
    entry = {"format": FORMAT, "observed": [list(o) for o in observed], "answer": dict(answer)}
    try:
        d.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(entry))
        os.replace(tmp, d / f"{key}.json")
    except OSError:
        tmp.unlink(missing_ok=True)
        return False
    return True
