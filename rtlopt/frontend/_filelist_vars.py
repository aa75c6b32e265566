"""Values of a filelist's variables, guessed from the repository (``rtlopt init``).

Many repositories' filelists name their files through variables that a build script sets
(cv32e40p's manifest: ``${DESIGN_RTL_DIR}/cv32e40p_alu.sv``; CVA6's ``Flist.cva6``:
``${CVA6_REPO_DIR}/core/alu.sv`` and ``${TARGET_CFG}_config_pkg.sv``). ``rtlopt init``
writes them into ``project.filelist_vars`` so that every machine, the gate's CI included,
reads the same design. :func:`guess_variables` proposes, per variable, the values under
which the files the filelist names exist: for a variable in front of a path, the
repository folders below which the most of its paths exist; for one inside a file name, the
words that complete the name to files the repository has (each a configuration the user
chooses from).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from rtlopt.frontend._files import read_source

__all__ = ["guess_variables", "variables_used"]

_VAR = re.compile(r"\$\{(\w+)\}|\$\((\w+)\)|\$(\w+)")

#: The deepest repository folder tried as a variable's value.
_MAX_DEPTH = 4


def variables_used(path: Path) -> list[str]:
    """The variables a filelist's lines use, in order of first use (comments aside)."""
    seen: dict[str, None] = {}
    for raw in read_source(path).splitlines():
        line = re.sub(r"(^|\s)(//|#).*$", "", raw)
        for m in _VAR.finditer(line):
            seen.setdefault(m.group(1) or m.group(2) or m.group(3), None)
    return list(seen)


def _tokens(path: Path) -> list[str]:
    """The paths a filelist's lines name (option prefixes removed), comments aside."""
    out: list[str] = []
    for raw in read_source(path).splitlines():
        line = re.sub(r"(^|\s)(//|#).*$", "", raw).strip()
        for tok in line.split():
            for prefix in ("+incdir+", "-I"):
                if tok.startswith(prefix) and len(tok) > len(prefix):
                    tok = tok[len(prefix) :]
            out.append(tok)
    return out


def _use(name: str) -> str:
    """A regular expression matching a use of variable ``name``."""
    return r"\$(?:\{" + name + r"\}|\(" + name + r"\)|" + name + r"\b)"


def _folders(root: Path) -> list[str]:
    """The repository's folders (``.`` first), hidden and tool folders aside."""
    from rtlopt.inputs import SKIP_DIRS

    out = ["."]
    for dirpath, dirnames, _ in os.walk(root):
        here = Path(dirpath)
        depth = len(here.relative_to(root).parts)
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        if depth >= _MAX_DEPTH:
            dirnames[:] = []
        out += [(here / d).relative_to(root).as_posix() for d in dirnames]
    return out


def guess_variables(path: Path, root: Path, known: Sequence[str] = ()) -> dict[str, list[str]]:
    """Per variable of the filelist ``path`` (those not in ``known``), the values under which
    its files exist, best first (an empty list: no value found)."""
    tokens = _tokens(path)
    out: dict[str, list[str]] = {}
    folders: list[str] | None = None
    for name in (n for n in variables_used(path) if n not in known):
        lead = re.compile("^" + _use(name) + "/?")
        rests = [lead.sub("", t) for t in tokens if lead.match(t)]
        rests = [r for r in rests if r and not _VAR.search(r)]
        if rests:  # a folder in front of paths: the one below which most of them exist
            folders = _folders(root) if folders is None else folders
            scored = [(sum((root / f / r).exists() for r in rests), f) for f in folders]
            best = max((s for s, _ in scored), default=0)
            out[name] = [f for s, f in scored if s == best and s > 0][:3]
        else:
            out[name] = _completions(name, tokens, root)
    return out


def _completions(name: str, tokens: Sequence[str], root: Path) -> list[str]:
    """Values of ``name`` inside a file name that complete it to a repository file the
    filelist does not also name literally (``${TARGET_CFG}_config_pkg.sv``: every
    ``<cfg>_config_pkg.sv`` but the listed ``build_config_pkg.sv``)."""
    from rtlopt.inputs import SKIP_DIRS

    listed = {t.rsplit("/", 1)[-1] for t in tokens if not _VAR.search(t.rsplit("/", 1)[-1])}
    patterns: list[tuple[str, re.Pattern[str]]] = []
    for tok in tokens:
        folder, _, leaf = tok.rpartition("/")
        literal = _VAR.sub("", leaf)
        if not re.search(_use(name), leaf) or "." not in literal or len(literal) < 3:
            continue  # a whole name (``${LIB}``) or no suffix: any file would match
        # the folder after a leading variable (``${ROOT}/core/include``): where the files are
        where = "/".join(p for p in folder.split("/") if p and not _VAR.search(p))
        regex, at = "", 0
        for m in _VAR.finditer(leaf):
            mine = (m.group(1) or m.group(2) or m.group(3)) == name and "(?P<v>" not in regex
            regex += re.escape(leaf[at : m.start()]) + (r"(?P<v>\w+)" if mine else r"\w+")
            at = m.end()
        patterns.append((where, re.compile(regex + re.escape(leaf[at:]))))
    found: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")]
        here = Path(dirpath).relative_to(root).as_posix()
        for where, pat in patterns:
            if where and not (here == where or here.endswith("/" + where)):
                continue
            for f in filenames:
                hit = pat.fullmatch(f)
                if hit and f not in listed:
                    found.add(hit.group("v"))
    return sorted(found)
