"""Everything that puts a name or a path into a tool script goes through here.

Module names, port names and file paths come from the user's repository and may hold any
character an escaped Verilog identifier or a file name may hold: ``}``, ``[``, ``;``, ``$``,
quotes, backslashes, spaces, newlines. Pasted into a Yosys script or an OpenSTA Tcl script they
could change the script (OpenSTA runs full Tcl: ``[exec ...]`` in a name runs a program), so:

* **Paths** become *safe words* (``[A-Za-z0-9_./+,=@%:-]`` only). A path that is not one is
  reached through a symlink with a safe name in a per-process folder (:func:`script_path`):
  Yosys 0.23 has no quoting for ``-I``, ``tee -o`` or ``-D``, and OpenSTA 2.0.17's
  ``read_liberty``/``read_verilog`` fail on a file name with a space even when it is quoted. The
  folder holding the file is linked (not the file), so ``include`` relative to the file works.
* **Names in Yosys commands** are given as RTLIL identifiers (:func:`yosys_id`): simple
  identifiers as they are, others with a leading backslash; names Yosys would split (a
  trailing ``;``, whitespace) are refused with a :class:`~rtlopt.errors.UsageError`.
* **Words in Tcl** are backslash-escaped character by character (:func:`tcl_word`), so no
  substitution or word break can happen; module names are first put in OpenSTA's own form
  (:func:`sta_cell_name`).
* **Defines** whose value is not a safe word go into a ``read_verilog`` here-document
  (:func:`yosys_read_lines`) instead of a ``-D`` option.

On the ground floor with the runner: the harness layer's formal scripts use it too.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from rtlopt.errors import UsageError
from rtlopt.tools._process import register_cleanup

__all__ = [
    "SIMPLE_IDENTIFIER",
    "argv_path",
    "check_define",
    "is_safe_word",
    "is_simple_identifier",
    "link_root",
    "original_path",
    "script_path",
    "sta_cell_name",
    "tcl_word",
    "yosys_id",
    "yosys_read_lines",
]

SIMPLE_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_SAFE_WORD = re.compile(r"[A-Za-z0-9_./+,=@%:-]+")
_TCL_PLAIN = re.compile(r"[A-Za-z0-9_./,=@%:+-]")
_DEFINE_NAME = SIMPLE_IDENTIFIER

_lock = threading.Lock()
_root: Path | None = None
_targets: dict[str, str] = {}  # link path -> the path it stands for (to translate messages)


def is_simple_identifier(name: str) -> bool:
    """Whether ``name`` is a plain Verilog identifier (letters, digits, ``_``, ``$``)."""
    return SIMPLE_IDENTIFIER.fullmatch(name) is not None


def is_safe_word(text: str) -> bool:
    """Whether ``text`` can stand unquoted in a Yosys script and a Tcl script."""
    return _SAFE_WORD.fullmatch(text) is not None and not text.startswith(("-", "+"))


# ---------------------------------------------------------------------------------- paths


def link_root() -> Path:
    """The per-process folder of safe-named links (created on first use, removed at exit)."""
    global _root
    with _lock:
        if _root is None or not _root.is_dir():
            base = tempfile.gettempdir()
            if not is_safe_word(base):
                base = "/tmp"
            _root = Path(tempfile.mkdtemp(prefix="rtlopt-links-", dir=base))
            root = _root
            register_cleanup(lambda: shutil.rmtree(root, ignore_errors=True))
        return _root


def _ensure_link(link: Path, target: str) -> None:
    try:
        os.symlink(target, link)
    except FileExistsError:
        if os.readlink(link) != target:  # a 80-bit hash collision, or someone else's file
            raise UsageError(
                f"cannot make a safe link for {target!r}: {link} is taken", hint="remove it"
            ) from None
    with _lock:
        _targets[str(link)] = target


def original_path(text: str) -> str:
    """``text`` (a path or a tool message) with every link of :func:`script_path` replaced by
    the path it stands for."""
    with _lock:
        items = sorted(_targets.items(), key=lambda kv: -len(kv[0]))
    for link, target in items:
        text = text.replace(link, target)
    return text


def _digest(text: str) -> str:
    return hashlib.sha256(os.fsencode(text)).hexdigest()[:20]


def script_path(path: Path | str) -> str:
    """An absolute path to ``path`` that is a safe word (see :func:`is_safe_word`).

    Safe paths are returned as they are (made absolute). Others are reached through a link in
    :func:`link_root`: ``<root>/d<hash of the folder>/<name>`` when only the folder is unsafe,
    else ``<root>/f<hash of the path><suffix>``. The file need not exist yet (outputs).
    """
    p = os.path.abspath(os.fspath(path))
    if is_safe_word(p):
        return p
    parent, base = os.path.split(p)
    root = link_root()
    if base and base not in (".", "..") and is_safe_word(base):
        link = root / ("d" + _digest(parent))
        _ensure_link(link, parent)
        return f"{link}/{base}"
    suffix = "".join(s for s in Path(base).suffixes if is_safe_word(s))[-12:]
    link = root / ("f" + _digest(p) + suffix)
    _ensure_link(link, p)
    return str(link)


def argv_path(path: Path | str) -> str:
    """A path for iverilog's argument vector: as it is, unless iverilog would mangle it.

    Arguments never pass through a shell, but iverilog copies file and include paths into its
    line-based command files (where a line break starts a new directive) and source paths into
    quoted strings of the compiled ``.vvp`` file (where a quote or a backslash ends or escapes
    the string); such paths go through :func:`script_path`. Spaces are kept, so messages show
    the user's path.
    """
    text = os.fspath(path)
    if all(c.isprintable() and c not in '"\\' for c in text):
        return text
    return script_path(text)


# ---------------------------------------------------------------------------------- names


def yosys_id(name: str) -> str:
    """A module, port or cell name as one Yosys command argument (an RTLIL identifier).

    Raises:
        UsageError: the name cannot be one Yosys word (empty, whitespace, control characters,
            a trailing ``;`` which Yosys reads as a command separator).
    """
    if is_simple_identifier(name):
        return name
    if not name or name.endswith(";") or any(c.isspace() or not c.isprintable() for c in name):
        raise UsageError(
            f"the name {name!r} cannot be passed to Yosys",
            hint="rename it to a simple identifier (letters, digits, _ and $)",
        )
    return "\\" + name


def tcl_word(text: str) -> str:
    """``text`` as one Tcl word with no substitution: every special character escaped."""
    if not text:
        return "{}"
    out: list[str] = []
    for ch in text:
        o = ord(ch)
        if _TCL_PLAIN.fullmatch(ch):
            out.append(ch)
        elif 0x20 < o < 0x7F:
            out.append("\\" + ch)
        elif o <= 0xFFFF:
            out.append(f"\\u{o:04x}")
        else:  # OpenSTA's Tcl 8.6 stores at most 3 UTF-8 bytes per character
            raise UsageError(
                f"{text!r} holds a character OpenSTA's Tcl cannot represent", hint="rename it"
            )
    return "".join(out)


def sta_cell_name(name: str) -> str:
    """OpenSTA's name of a Verilog module (escaped identifiers keep ``[ ] / \\`` escaped)."""
    if is_simple_identifier(name):
        return name
    return "".join("\\" + c if c in "[]/\\" else c for c in name)


# ---------------------------------------------------------------------------------- reads


def check_define(name: str, value: str) -> None:
    """Refuse a define that a tool script could not carry as one plain word and one line.

    Raises:
        UsageError: the name is not an identifier, or the value holds a line break.
    """
    if not is_simple_identifier(name):
        raise UsageError(
            f"define name {name!r} is not an identifier",
            hint="use letters, digits and _ in -D / project.defines",
        )
    if "\n" in value or "\r" in value:
        raise UsageError(
            f"the value of define {name} holds a line break",
            hint="write it on one line in -D / project.defines",
        )


def yosys_read_lines(
    files: Sequence[Path],
    include_dirs: Sequence[Path],
    defines: Mapping[str, str],
    *,
    one_per_file: bool = False,
) -> list[str]:
    """``read_verilog -sv`` lines reading ``files`` with the include folders and defines.

    Defines whose value is not a safe word are declared first in a here-document
    (``\\`define NAME value``), which Yosys keeps for the later reads.

    Args:
        files: Sources.
        include_dirs: ``-I`` folders.
        defines: Macros (empty value: defined without a value).
        one_per_file: One ``read_verilog`` line per file (else one line for all).

    Raises:
        UsageError: a define name that is not an identifier, or a value with a line break.
    """
    opts = ["-sv"] + [f"-I{script_path(d)}" for d in include_dirs]
    heredoc: list[str] = []
    for k, v in defines.items():
        check_define(k, v)
        if v == "":
            opts.append(f"-D{k}")
        elif is_safe_word(v) or re.fullmatch(r"[A-Za-z0-9_'.+-]+", v):
            opts.append(f"-D{k}={v}")
        else:
            heredoc.append(f"`define {k} {v}")
    lines: list[str] = []
    if heredoc:
        # named after its content: deterministic scripts, and no define line can equal it
        marker = "RTLOPT_EOT_" + _digest("\n".join(heredoc))[:12]
        lines += [f"read_verilog -sv <<{marker}", *heredoc, marker]
    words = [script_path(f) for f in files]
    head = "read_verilog " + " ".join(opts)
    if one_per_file:
        lines += [f"{head} {w}" for w in words]
    else:
        lines.append(f"{head} {' '.join(words)}")
    return lines
