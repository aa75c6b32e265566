"""A build that chooses a setting by the commit's own metadata, for the gate.

A recipe can read what the commit under review says about itself: ``git log -1
--format=%B | grep -q "^Variant: fast"`` choosing ``-DFAST_INV``, ``$(shell git show
--name-only)`` choosing a filelist, a CI ``if: contains(github.event.head_commit.message,
'fast')``. The commit's message and the files it changes are written by its author, so such a
build is steered by a commit that changes no rule the gate reads (a README line and a message
line). The gate cannot tell what the build reads there; so, unless the configuration is
trusted, every commit is a finding where a build text reads that metadata on a line that
chooses or sets something of the build: a conditional line, a line running a Verilog tool or
passing a define, or an assignment of a variable that a setting line or a conditional reads
(:mod:`rtlopt.check._setting_variables`). The branch a pull request comes from counts as CI
services give it (``GITHUB_HEAD_REF``, ``CI_COMMIT_BRANCH``, ...); git's own branch readings
(``rev-parse --abbrev-ref``) do not: a CI job checks a pull request out detached (ibex's dvsim
names its report folders so). Readings of a hash (``git rev-parse HEAD``, a ``GIT_COMMIT``
variable) and git commands that fetch or change a tree (``clone``, ``checkout``,
``submodule``) are no metadata a commit's author writes; a reading on a line that only runs a
linter or prints is no choice of the build.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["metadata_findings", "metadata_steering"]

#: git as a command: a shell's word, a quoted argument vector's item, a variable's value
_GIT_WORD = re.compile(r"""(?:^|(?<=[\s;|&(`{=\[,"'/\\]))git(?:\.exe)?(?=[\s"',;)\]}]|$)""")
#: an option of git's own before its command, with the argument it takes
_GIT_OPTION = re.compile(
    r"""["']?\s*,?\s*["']?(?:-[Cc]["',]*\s*,?\s*["']?[^\s"',]+|--[\w-]+(?:=[^\s"',]+)?|-\w)"""
)
_GIT_COMMAND = re.compile(r"""["']?\s*,?\s*["']?([A-Za-z][\w-]*)""")
#: git commands reading no metadata a commit's author writes: they fetch, make or change a
#: tree, or read a hash, the tree's own files or the repository's configuration
_NO_METADATA = frozenset(
    "clone checkout switch restore submodule fetch pull push init apply am add commit rm mv "
    "config rev-parse lfs clean reset remote ls-remote merge-base status stash worktree gc "
    "ls-files ls-tree hash-object update-index write-tree archive version help".split()
)
#: metadata readers besides git commands: git's files, git libraries, the CI services'
#: message, title, branch and event variables (not a hash, a number or the event's name)
_META = re.compile(
    r"\.git/(?!hooks\b)|\bimport\s+git\b|\bfrom\s+git\b|\bpygit2\b|\bdulwich\b|\bGitPython\b"
    r"|github\.event(?!_name\b|\.pull_request\.(?:number|base\.|head\.sha)|\.\w*\.?sha\b)"
    r"|GITHUB_EVENT_PATH|toJSON\(\s*github|github\.head_ref|GITHUB_HEAD_REF"
    r"|\w*COMMIT_(?:MESSAGE|TITLE|DESCRIPTION|MSG|BRANCH|REF_NAME)\b|CI_MERGE_REQUEST_\w+"
    r"|SOURCEVERSIONMESSAGE|\bBRANCH_NAME\b|SYSTEM_PULLREQUEST_SOURCEBRANCH|CHANGE_TITLE"
    r"|TRAVIS_PULL_REQUEST_BRANCH|BITBUCKET_BRANCH|head_commit|commits\[",
    re.M,
)


_METADATA_NAMES = (
    r"log|show|reflog|for-each-ref|diff[\w-]*|whatchanged|shortlog|cat-file|rev-list|describe"
    r"|name-rev|notes|interpret-trailers|format-patch|branch|tag|symbolic-ref|blame"
)
#: a metadata command anywhere after git on its line
_METADATA_COMMAND = re.compile(rf"(?<![\w-])(?:{_METADATA_NAMES})(?![\w-])")
#: a metadata command run through a variable holding git (``$G log``, ``$(GIT) show``)
_THROUGH_VARIABLE = re.compile(
    r"\$+[({]?\w+[)}]?\s+(?:-\S+\s+)*(?:log|show|reflog|for-each-ref|diff[\w-]*|whatchanged|"
    r"shortlog|cat-file|rev-list|describe|name-rev|notes|interpret-trailers|format-patch|"
    r"branch|tag|symbolic-ref|blame)\b"
)


def _reads_metadata(line: str) -> bool:
    """Whether ``line`` runs git for metadata (a command outside :data:`_NO_METADATA`, or git
    with no command after it: a variable's value, ``G=git; $G log``) or reads another
    metadata source (:data:`_META`)."""
    if _META.search(line):
        return True
    for m in _GIT_WORD.finditer(line):
        at = m.end()
        while (opt := _GIT_OPTION.match(line, at)) is not None and opt.end() > at:
            at = opt.end()
        cmd = _GIT_COMMAND.match(line, at)
        if cmd is not None and cmd.group(1) not in _NO_METADATA:
            return True
        if cmd is None and _THROUGH_VARIABLE.search(line, at):
            return True  # G=git; $G log
        if cmd is None and _METADATA_COMMAND.search(line, at):
            return True  # an option's value read as no command: git --git-dir .git log
    return _THROUGH_VARIABLE.search(line) is not None and "GIT" in line.upper()


_LEVELS = 6
#: a quick look for the words of ``_META`` before it is tried on a line
_WORDS = re.compile(
    r"git|Git|COMMIT_|SOURCEVERSION|SOURCEBRANCH|MERGE_REQUEST|HEAD_REF|head_ref|_BRANCH|BRANCH_"
    r"|GITHUB_|github\.|CHANGE_TITLE|head_commit|commits\["
)
_DEFINE = re.compile(r"(?:^|[\s\"'=])(?:-D\s*[A-Za-z_]|\+define\+)|GITHUB_ENV")


def _lines(text: str) -> list[str]:
    return re.sub(r"\\\r?\n", " ", text).split("\n")


def metadata_steering(
    tree: Path, read: list[tuple[str, str]] | None = None
) -> list[tuple[str, int, str]]:
    """``(path, line, text)`` of each line of ``tree``'s build texts (``read``: those already
    read) that reads the commit's metadata where it chooses or sets something of the build
    (the module docstring)."""
    from rtlopt.check._build_texts import build_texts

    texts = list(build_texts(tree)) if read is None else read
    hits = [
        (i, n, ln)
        for i, (_, text) in enumerate(texts)
        if _WORDS.search(text)
        for n, ln in enumerate(_lines(text), 1)
        if _WORDS.search(ln) and _reads_metadata(ln)
    ]
    if not hits:
        return []
    every = _Lines(texts)
    return [(texts[i][0], n, ln.strip()[:120]) for i, n, ln in hits if _steers(ln, i, every)]


class _Lines:
    """Every line of the build texts, with whether its file sets something (a Verilog tool's
    or a define's line), found on demand."""

    def __init__(self, texts: list[tuple[str, str]]) -> None:
        self.texts = texts
        self.lines = [(ln, i) for i, (_, text) in enumerate(texts) for ln in _lines(text)]
        self._sets: dict[int, bool] = {}

    def sets(self, i: int) -> bool:
        if i not in self._sets:
            self._sets[i] = _sets(self.texts[i][1])
        return self._sets[i]


def _steers(line: str, i: int, every: _Lines) -> bool:
    """Whether ``line`` (of the ``i``-th text) chooses or sets something of the build: a
    Verilog tool's or a define's line; a conditional in a file that sets something; in such
    a file, a CI service's metadata (an event read whole: ``GITHUB_EVENT_PATH``); an
    assignment of a variable, or a file it writes (``> subject.txt``), that such a line reads
    (through other variables' assignments, a few levels)."""
    from rtlopt.check._conditionals import CONDITIONAL

    if _sets(line) or (every.sets(i) and (CONDITIONAL.match(line) or _META.search(line))):
        return True
    assigns = "" if CONDITIONAL.match(line) else _assigned_name(line)  # `if:` assigns nothing
    names = [n for n in (assigns, *_WRITES.findall(line)) if n]
    return _read_by_choice(names, every)


def _assigned_name(line: str) -> str:
    from rtlopt.check._setting_variables import assigned

    return assigned(line) or ""


#: a file a line writes: a shell redirection, ``tee``, an ``-o``/``--output`` option
_WRITES = re.compile(r"(?:>>?|\btee(?:\s+-a)?|--output[= ]|-o\s)\s*[\"']?([\w./-]*\w)")


def _read_by_choice(names: list[str], every: _Lines) -> bool:
    """Whether a line choosing or setting something reads one of ``names`` (variables, file
    names), directly or through other variables' assignments, a few levels."""
    from rtlopt.check._conditionals import CONDITIONAL
    from rtlopt.check._setting_variables import _is_setting, _reads

    todo, seen = list(names), set()
    for _ in range(_LEVELS):
        if not todo:
            return False
        nxt = []
        for var in todo:
            seen.add(var)
            for ln, i in every.lines:
                if var not in ln:
                    continue
                if "/" not in var and "." not in var and var not in _reads(ln):
                    continue  # a variable: read by its $ form or by a conditional's name
                if _is_setting(ln, {}) or (CONDITIONAL.match(ln) and every.sets(i)):
                    return True
                other = _assigned_name(ln)
                if other and other not in seen:
                    nxt.append(other)
        todo = nxt
    return False


def _sets(line: str) -> bool:
    from rtlopt.check._build_options import _TOOLS

    return bool(_TOOLS.search(line) or _DEFINE.search(line))


def metadata_findings(
    tree: Path, read: list[tuple[str, str]] | None = None
) -> list[tuple[str, str]]:
    """``(path, finding)`` for each line of :func:`metadata_steering`."""
    return [
        (
            rel,
            f"line {i} chooses the build by the commit's own metadata ({text!r}): a commit's"
            " message or the files it changes steer what the build compiles, which the gate"
            " cannot judge; every commit is a finding here unless --trust-config is passed"
            " after checking the build by hand",
        )
        for rel, i, text in metadata_steering(tree, read)
    ]
