"""Whether a build text's reading of the commit's metadata steers the build, for
:mod:`rtlopt.check._metadata_reads`: a line choosing or setting something (a Verilog tool's
or a define's line, a conditional in a file that sets something), an assignment or a file
such a line reads (through other variables, a few levels), a script a steering line runs for
its output (by name, ``python -m``, a glob or a name computed in part)."""

from __future__ import annotations

import bisect
import fnmatch
import itertools
import re
from collections.abc import Mapping
from pathlib import Path

from rtlopt.check._metadata_closed import UNNAMED_RUN, script_run, unescaped, with_defines
from rtlopt.check._setting_variables import _ASSIGN

__all__ = ["LEVELS", "Lines", "joined_lines", "run_by_choice", "steers"]

#: how many variables' assignments a reading is followed through
LEVELS = 6


_DEFINE = re.compile(r"(?:^|[\s\"'=])(?:-D\s*[A-Za-z_]|\+define\+)|GITHUB_ENV")


def joined_lines(text: str) -> str:
    """``text`` with each continued line joined to the next (one line of a recipe), a Make
    define block's lines read as its variable's assignments (:func:`with_defines`)."""
    return with_defines(unescaped(re.sub(r"\\\r?\n", " ", text)))


def _lines(text: str) -> list[str]:
    return joined_lines(text).split("\n")


#: a script's suffixes: a text a program runs by its name (a Makefile is read by make)
_SCRIPT_SUFFIXES = frozenset(".sh .bash .zsh .py .pl .rb .tcl .js .mjs .ps1 .bat .cmd".split())


def run_by_choice(where: str, i: int, every: Lines) -> bool:
    """Whether a build text is run where its output or its effect chooses: another text
    runs it (:func:`script_run`) on a line that chooses or sets something of the build
    (:func:`steers`), so what it reads of the metadata steers as if read there (round 86
    case 11)."""
    name, package = Path(where).name, ""
    if name in ("__main__.py", "__init__.py") and Path(where).parent.name:
        package = Path(where).parent.name  # python3 tools runs tools/__main__.py
        name = package + ".py"  # python3 -m tools too
    look = name[:-3] if name.endswith(".py") else name  # python3 -m sel
    if Path(where).suffix not in _SCRIPT_SUFFIXES and not every.texts[i][1].startswith("#!"):
        return False  # a Makefile or a configuration is read, not run for its output
    if every.environment_runs():
        return True  # a script the environment names runs before every line (BASH_ENV)
    return every.runs_by_pattern(name, i, where) or any(
        j != i and (run := _run(ln, name, package)) is not None and steers(run, j, every)
        for ln, j in every.containing(look)
    )


def _run(line: str, name: str, package: str) -> str | None:
    """:func:`script_run` of ``name``, or of the ``package`` folder an interpreter runs."""
    run = script_run(line, name)
    if run is None and package and re.search(_PACKAGE_RUN + re.escape(package) + r"/?\b", line):
        return line
    return run


#: an interpreter running a folder (its ``__main__.py``)
_PACKAGE_RUN = r"\bpython[\d.]*\s+(?:-\S+\s+)*[\"']?(?:\./)?(?:[\w.-]+/)*"


#: a variable's value inside a word: any text
_PIECE = re.compile(r"\$+\([^)]*\)|\$+\{[^}]*\}|\$+\w+")
#: a variable naming a script a program runs before each command, set; a shell not a shell
_ENVIRONMENT_RUN = re.compile(
    r"\b(?:BASH_ENV|MAKEFILES|LD_PRELOAD|PERL5OPT|RUBYOPT|NODE_OPTIONS|PYTHONSTARTUP)"
    r"\s*(?:[:?+!]?=|::=)[ \t]*(?=\S)(?!/dev/null\b)"  # autoconf's BASH_ENV=/dev/null runs nothing
    r"|\bexport\s+(?:BASH_ENV|MAKEFILES|LD_PRELOAD|PERL5OPT|RUBYOPT|NODE_OPTIONS)\b",
    re.M,
)
#: a Makefile's shell that is no shell (``SHELL := ./meta.sh``)
_OWN_SHELL = re.compile(
    r"^\s*(?:export\s+|override\s+)?SHELL\s*(?:[:?+!]?=|::=)[ \t]*(?=\S)"
    r"(?!(?:/usr)?/bin/(?:ba|da|z|k)?sh\b|(?:ba|da|z|k)?sh\b|/usr/bin/env\s+(?:ba|z)?sh\b)",
    re.M,
)


def _is_make(where: str) -> bool:
    name = Path(where).name
    return name in ("GNUmakefile", "makefile", "Makefile") or name.endswith((".mk", ".make"))


#: the rest of a word a run by pattern begins (``$(X).py``)
_REST = re.compile(r"(?:\([^)\n]*\)|\{[^}\n]*\}|[^\s;&|)\"'])*")


class Lines:
    """Every line of the build texts, with whether its file sets something (a Verilog tool's
    or a define's line), found on demand."""

    def __init__(self, texts: list[tuple[str, str]], meta: re.Pattern[str]) -> None:
        self.texts = texts
        self.meta = meta  # the metadata sources besides the programs
        self.lines = [(ln, i) for i, (_, text) in enumerate(texts) for ln in _lines(text)]
        self._sets: dict[int, bool] = {}
        self._patterns: list[tuple[str, int]] | None = None
        self._environment: bool | None = None
        self._values: Mapping[str, str] | None = None
        self._all = "\n".join(ln for ln, _ in self.lines)
        self._ends = list(itertools.accumulate(len(ln) + 1 for ln, _ in self.lines))
        self._ends = [e - 1 for e in self._ends]

    def runs_by_pattern(self, name: str, i: int, where: str = "") -> bool:
        """Whether a steering line of a text but the ``i``-th runs a program by a glob or a
        name computed in part that matches ``name`` (``sh ./me?a.sh``, ``python3
        m$(X).py``: :data:`UNNAMED_RUN`, round 88 case 10)."""
        if self._patterns is None:
            self._patterns = []
            for m in UNNAMED_RUN.finditer(self._all):
                ln, j = self.lines[bisect.bisect_left(self._ends, m.start())]
                rest = _REST.match(self._all, m.end())  # no slice: the text is megabytes
                word = re.split(r"\s+", m.group(0).strip())[-1] + (rest.group(0) if rest else "")
                word = self._evaluated(word.strip("\"'"))
                full = re.sub(r"^(?:\./)+", "", _PIECE.sub("*", word))
                last = full.rsplit("/", 1)[-1]
                # a wholly computed name matches by its folder (``. tools/$(F)``, round 91
                # case 05); a name computed whole, read through its variables' values and
                # Make's text functions, by what they give; one they leave computed is not read
                pattern = last if last.strip("*?") else full
                if pattern.strip("*?/") and steers(ln, j, self):
                    self._patterns.append((pattern, j))
        return any(
            j != i and (fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(where, p))
            for p, j in self._patterns
        )

    def _evaluated(self, word: str) -> str:
        """``word`` with the Make variables the texts give a value (their first) and the
        text functions of literal words evaluated (``$(F)`` for ``F := $(addsuffix
        .py,sel)``: ``sel.py``): :func:`~rtlopt.evaluate.make_values.evaluated`."""
        from rtlopt.evaluate.make_values import assignments, evaluated

        if self._values is None:
            self._values = assignments(self._all)
        return evaluated(word, self._values)

    def environment_runs(self) -> bool:
        """Whether a build text sets a variable that makes a program run a script it names
        before each command (bash's ``BASH_ENV``, make's ``MAKEFILES``, a preloaded
        library, an interpreter's start-up code) or a shell of its own: any script may
        then steer (round 90 case 05)."""
        if self._environment is None:
            self._environment = any(
                _ENVIRONMENT_RUN.search(text) or (_is_make(where) and _OWN_SHELL.search(text))
                for where, text in self.texts
            )
        return self._environment

    def containing(self, word: str) -> list[tuple[str, int]]:
        """The lines holding ``word`` (searched in one string: a large tree has many)."""
        out, at = [], self._all.find(word)
        while at >= 0:
            k = bisect.bisect_left(self._ends, at)
            out.append(self.lines[k])
            end = self._ends[k] if k < len(self._ends) else len(self._all)
            at = self._all.find(word, end)
        return out

    def sets(self, i: int) -> bool:
        if i not in self._sets:
            self._sets[i] = _sets(self.texts[i][1])
        return self._sets[i]


def steers(line: str, i: int, every: Lines) -> bool:
    """Whether ``line`` (of the ``i``-th text) chooses or sets something of the build: a
    Verilog tool's or a define's line; a conditional in a file that sets something; in such
    a file, a CI service's metadata (an event read whole: ``GITHUB_EVENT_PATH``); an
    assignment of a variable, or a file it writes (``> subject.txt``), that such a line reads
    (through other variables' assignments, a few levels)."""
    from rtlopt.check._conditionals import CONDITIONAL

    value = _ASSIGN.sub("", line, count=1)  # a define block's line (:func:`with_defines`)
    condition = CONDITIONAL.match(line) or _CI_CONDITION.match(line) or CONDITIONAL.match(value)
    if _sets(line) or (every.sets(i) and (condition or every.meta.search(line))):
        return True
    # `if:` assigns nothing, nor a CI step's key (`run: make "$GIT_BRANCH"` runs a command)
    assigns = "" if CONDITIONAL.match(line) or _STEP_KEY.match(line) else _assigned_name(line)
    # a number is no file a line writes but a comparison (`if len(x) > 1`), nor a variable
    names = [n for n in (assigns, *_WRITES.findall(line)) if n and not n.isdigit()]
    return _read_by_choice(names, every)


#: a CI job's or step's condition key besides ``if:`` (Azure's ``condition:``)
_CI_CONDITION = re.compile(r"^\s*(?:-\s+)?(?:condition|conditions)\s*:")
#: a CI step's key holding a command or a name, no variable (GitHub, GitLab, Azure, Buildkite)
_STEP_KEY = re.compile(
    r"^\s*(?:-\s+)?(?:run|script|before_script|after_script|command|commands|cmd|name|if|uses"
    r"|with|shell|args|entrypoint|bash|pwsh|powershell|displayName|label)\s*:"
)


def _assigned_name(line: str) -> str:
    from rtlopt.check._setting_variables import assigned

    return assigned(line) or ""


#: a file a line writes: a shell redirection, ``tee``, an ``-o``/``--output`` option
_WRITES = re.compile(r"(?:>>?|\btee(?:\s+-a)?|--output[= ]|-o\s)\s*[\"']?([\w./-]*\w)")


#: Make code run from a variable: it may set or choose anything (``$(eval $(CHOOSER))``)
_EVAL = re.compile(r"\$\(\s*eval\b")


def _read_by_choice(names: list[str], every: Lines) -> bool:
    """Whether a line choosing or setting something reads one of ``names`` (variables, file
    names), directly or through other variables' assignments, a few levels."""
    from rtlopt.check._conditionals import CONDITIONAL
    from rtlopt.check._setting_variables import _is_setting, _reads

    todo, seen = list(names), set()
    for _ in range(LEVELS):
        if not todo:
            return False
        nxt = []
        for var in todo:
            seen.add(var)
            for ln, i in every.containing(var):
                if "/" not in var and "." not in var and var not in _reads(ln):
                    continue  # a variable: read by its $ form or by a conditional's name
                chooses = CONDITIONAL.match(ln) or _EVAL.search(ln)
                if _is_setting(ln, {}) or (chooses and every.sets(i)):
                    return True
                other = _assigned_name(ln)
                if other and other not in seen:
                    nxt.append(other)
        todo = nxt
    return False


def _sets(line: str) -> bool:
    from rtlopt.check._build_options import _TOOLS

    return bool(_TOOLS.search(line) or _DEFINE.search(line))
