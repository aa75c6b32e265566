"""Changed texts that change how a build's lines are run, for the gate.

The gate reads a build's setting lines as text (``iverilog -DSLOW_INV ...``), but what runs
is what the interpreter makes of them: Make's ``SHELL := tools/simsh`` hands every recipe
line to a repository script that may rewrite it, and so may ``.SHELLFLAGS``, ``.ONESHELL``,
``BASH_ENV``, a shell ``alias`` or a function named like a tool, ``PATH`` (another
``iverilog``), an exported variable a tool reads, a locale (the order of a glob), an env file.
So, fail closed, a changed code line of any build, script or data text that sets one of
those (a Make special variable or target, an interpreter or search-path variable, a variable
named like a tool, an ``export``/``setenv``/environment assignment, a shell option, alias or
hash, a function or Tcl proc named like a tool, a script's ``#!`` line) is a finding; so is
any changed line of a file such a line of the repository names (``tools/simsh``, a folder on
``PATH``), or a Verilog tool's line names by a path (a wrapper ``tools/iverilog``, a data
file), and of an env or tool setup file (``.env``, ``.envrc``, ``modelsim.ini``...);
filelists and the configuration aside (the gate judges them as rules).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

__all__ = ["interpreter_paths", "interpreter_problems"]

_TOOLISH = (
    r"\w*(?:IVERILOG|ICARUS|VVP|VERILATOR|YOSYS|VCS|XRUN|MODELSIM|QUESTA|SYSTEMC|VSIM|VLOG|"
    r"XCELIUM|RIVIERA|VIVADO|GHDL)\w*"
)
_ENVIRONMENT = (
    r"PATH|BASH_ENV|ENV|IFS|CDPATH|SHELLOPTS|BASHOPTS|POSIXLY_CORRECT|"
    r"GLOBIGNORE|GLOBSORT|HOME|XDG_\w+|LD_\w+|DYLD_\w+|PYTHON\w*|PERL5\w*|TCL\w*|LANG|"
    r"LANGUAGE|LC_\w+"
)
_MAKE_SPECIAL = (
    r"SHELL|\.SHELLFLAGS|MAKESHELL|MAKEFLAGS|MFLAGS|MAKEFILES|MAKE|\.ONESHELL|\.POSIX|"
    r"\.RECIPEPREFIX|\.SECONDEXPANSION|\.EXPORT_ALL_VARIABLES|\.SUFFIXES|\.DEFAULT|"
    r"\.LIBPATTERNS|VPATH|GPATH|vpath|\.INCLUDE_DIRS"
)
_PREFIX = (
    r"^[ \t]*(?:-[ \t]*)?(?:(?:override|define|local|declare(?:[ \t]+-\w+)*|readonly|typeset|set)"
    r"[ \t]+|set[ \t]*\([ \t]*(?:ENV\{)?)*"
)
#: A line setting how lines run, by the name it sets (any assignment syntax, a Make target).
_NAMED = re.compile(
    rf"{_PREFIX}[\"']?(?P<name>{_MAKE_SPECIAL}|{_ENVIRONMENT}|{_TOOLISH})[\"']?(?![\w.\-])"
    r"(?=[ \t]*(?:::=|:=|\?=|\+=|!=|=|:|\}|\)|[ \t]\S|$))"
)
#: An assignment of such a name anywhere on a line (``sim: SHELL := x``, ``make SHELL=x``,
#: ``PATH=bin iverilog ...``).
_ASSIGNED = re.compile(
    rf"(?<![\w.$\-])(?:{_MAKE_SPECIAL}|{_ENVIRONMENT}|{_TOOLISH})[ \t]*"
    r"(?:::=|:=|\?=|\+=|!=|=(?!=))"
)
#: A line that sets the environment or the shell's reading of lines, whatever the name.
_ENVIRONMENT_LINE = re.compile(
    r"\$\(eval\b|^[ \t]*[@\-]*[ \t]*(?:eval|export|unexport|setenv|unsetenv|alias|unalias|"
    r"hash|enable|shopt|builtin|trap|rename|interp[ \t]+alias|set[ \t]+[-+][A-Za-z])\b"
    r"|\benv[ \t]+(?:-\S+[ \t]+)*[A-Za-z_]\w*=|\bos\.(?:environ\b(?!\.get|\[[^\]]*\]"
    r"[ \t]*(?:[^=\s]|==))|putenv|unsetenv)|\benv[ \t]*=[^=]|\$ENV\{|\bENV\{|"
    r"\bset[ \t]+(?:::)?env\(|\barray[ \t]+set[ \t]+(?:::)?env\b"
)
#: A shell function or Tcl proc named like a tool: it replaces the tool on later lines.
_TOOL_FUNCTION = re.compile(
    r"^[ \t]*(?:function[ \t]+|proc[ \t]+|def[ \t]+)?(?:iverilog|vvp|verilator|yosys|vcs|xrun|"
    r"vlog|vsim|vcom|xvlog|xelab|ghdl|make|sh|bash|sed|awk|cat|cp|python3?)\b[ \t]*"
    r"(?:\([ \t]*\)|\{)"
)
#: Files read into the environment or a tool's setup, whose every line is such a setting.
_SETUP_FILE = re.compile(
    r"(?:^|/)(?:\.env[\w.\-]*|[\w.\-]+\.env|\.envrc|\.bashrc|\.bash_profile|\.profile|"
    r"\.zshrc|\.zshenv|\.tclshrc|\.tool-versions|modelsim\.ini|synopsys_sim\.setup|"
    r"\.synopsys_vcs\.setup|cds\.lib|hdl\.var|sitecustomize\.py|usercustomize\.py|[^/]*\.pth)$"
)
#: Variables that name folders searched for commands, makefiles, prerequisites or modules.
_SEARCH_PATHS = frozenset(
    "PATH VPATH vpath GPATH CDPATH PYTHONPATH PERL5LIB TCLLIBPATH LD_LIBRARY_PATH".split()
)
_WORD_SPLIT = re.compile(r"[\s:;=,\"'()\[\]{}]+")
_VARIABLE = re.compile(r"\$\([^()]*(?:\([^()]*\)[^()]*)*\)|\$\{[^}]*\}|\$\w+|\$.")


def setting_line(line: str) -> bool:
    """Whether a code line sets how a build's lines are run (see the module's doc)."""
    return bool(
        _NAMED.match(line)
        or _ASSIGNED.search(line)
        or _ENVIRONMENT_LINE.search(line)
        or _TOOL_FUNCTION.match(line)
    )


def interpreter_paths(texts: Iterable[tuple[str, str]]) -> list[tuple[str, int, str, bool]]:
    """``(file, line, glob, folder)`` for each path a line of ``texts`` (``(path, code)``)
    that sets how lines run names (a variable in it read as any name); ``folder``: a search
    path (``PATH``), whose every file is meant."""
    from rtlopt.check._build_options import _tool_line
    from rtlopt.check._config_words import DOCUMENTATION

    out: list[tuple[str, int, str, bool]] = []
    for rel, code in texts:
        if DOCUMENTATION.search(rel):
            continue
        for ln, line in enumerate(code.split("\n"), 1):
            if not setting_line(line):
                # a tool's line runs the repository's files it names by a path (a wrapper
                # ``tools/iverilog``, a VPI module, a plusarg's data file)
                if _tool_line(line):
                    out += [
                        (rel, ln, w.strip("\"'`"), False)
                        for w in _WORD_SPLIT.split(_VARIABLE.sub("*", line))
                        if "/" in w and re.search(r"[A-Za-z0-9_]", w)
                    ]
                continue
            m = _NAMED.match(line)
            name = m.group("name") if m else ""
            folder = name in _SEARCH_PATHS
            for word in _WORD_SPLIT.split(_VARIABLE.sub("*", line[m.end() if m else 0 :])):
                word = word.strip("\"'`")
                if word.startswith("-") or not re.search(r"[A-Za-z0-9_]", word):
                    continue
                out.append((rel, ln, word, folder or word.endswith("/")))
    return out


def _named_by(rel: str, paths: list[tuple[str, int, str, bool]]) -> tuple[str, int, str] | None:
    import fnmatch

    for src, ln, word, folder in paths:
        here = posixpath.normpath(posixpath.join(posixpath.dirname(src), word))
        bare = word.lstrip("./").rstrip("/") or word
        pats = [here, word.rstrip("/"), "*/" + bare]
        pats += [p[2:] for p in pats if p.startswith("*/")]  # $(CURDIR)/bin: bin too
        if folder:
            pats += [p.rstrip("/") + "/*" for p in pats]
        if any(fnmatch.fnmatchcase(rel, p) for p in pats if p.strip("*/.")):
            return src, ln, word
    return None


def interpreter_problems(
    rel: str, old: str | None, new: str, paths: list[tuple[str, int, str, bool]]
) -> list[tuple[int, str]]:
    """``(line, finding)``: a changed stretch of ``rel`` holding a line that sets how lines
    run; any changed stretch where ``rel`` is an env or setup file or a file such a line
    names (``paths``: :func:`interpreter_paths` of the repository); a changed ``#!``."""
    from rtlopt.check._config_words import DOCUMENTATION, code_stretches

    if DOCUMENTATION.search(rel) and not _SETUP_FILE.search(rel):
        return []
    fix = "review this change in a commit of its own"
    old_first, new_first = (old or "").split("\n", 1)[0], new.split("\n", 1)[0]
    out: list[tuple[int, str]] = []
    if old_first != new_first and (old_first.startswith("#!") or new_first.startswith("#!")):
        out.append((1, f"a changed #! line of {rel}: another interpreter runs it; {fix}"))
    by = _named_by(rel, paths)
    for ln, added, removed in code_stretches(rel, old, new):
        if [x.split() for x in added if x.strip()] == [x.split() for x in removed if x.strip()]:
            continue
        hit = next((x.strip() for x in added + removed if setting_line(x)), None)
        if hit is not None:
            why = f"a changed line sets how the build's lines are run ({hit[:80]!r})"
        elif _SETUP_FILE.search(rel):
            why = f"{rel} is read into the environment or a tool's setup"
        elif by is not None:
            why = (
                f"{rel} may be run or read as {by[2]!r} by {by[0]}:{by[1]}, a line that "
                "runs a tool or sets how the build's lines are run"
            )
        else:
            continue
        out.append(
            (
                ln,
                f"{why}: the build's literal setting lines may then run as other commands, "
                f"which the gate does not follow in {rel}; {fix}",
            )
        )
        break
    return out
