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

#: git commands that read the commit's message or the files it changes (a list form of
#: Python, ``['git', '-C', d, 'log', ...]``, too), and CI variables holding a message
_META = re.compile(
    r"""(?:^|[\s;|&(`{=\[,])["']?git["']?,?"""
    r"""(?:\s*(?:["']?-{1,2}[\w-]+(?:=\S+)?["']?|["'][^"'\n]*["']|str\([^)\n]*\)|\$\S+),?){0,4}"""
    r"""\s*["']?(log|show|cat-file|rev-list|notes|interpret-trailers|shortlog|whatchanged"""
    r"""|diff|diff-tree|describe|name-rev|format-patch)(?![\w-])"""
    r"|\.git/(?:COMMIT_EDITMSG|logs/)"
    r"|head_commit\.message|commits\[\d*\]\.message|pull_request\.(?:title|body)"
    r"|\w*COMMIT_(?:MESSAGE|TITLE|DESCRIPTION|MSG)\b|SOURCEVERSIONMESSAGE"
    # the branch a pull request comes from, as CI services give it
    r"|GITHUB_HEAD_REF|github\.head_ref|CI_COMMIT_(?:BRANCH|REF_NAME)|CI_MERGE_REQUEST_SOURCE"
    r"|\bBRANCH_NAME\b|SYSTEM_PULLREQUEST_SOURCEBRANCH|TRAVIS_PULL_REQUEST_BRANCH",
    re.M,
)
_LEVELS = 6
#: a quick look for the words of ``_META`` before it is tried on a line
_WORDS = re.compile(
    r"git|COMMIT_|SOURCEVERSION|SOURCEBRANCH|MERGE_REQUEST|\.message|pull_request|HEAD_REF|head_ref|_BRANCH|BRANCH_"
)
_DEFINE = re.compile(r"(?:^|[\s\"'])(?:-D\s*[A-Za-z_]|\+define\+)")


def _lines(text: str) -> list[str]:
    return re.sub(r"\\\r?\n", " ", text).split("\n")


def metadata_steering(tree: Path) -> list[tuple[str, int, str]]:
    """``(path, line, text)`` of each line of ``tree``'s build texts that reads the commit's
    metadata where it chooses or sets something of the build (the module docstring)."""
    from rtlopt.check._build_files import build_texts

    texts = [(rel, _lines(text)) for rel, text in build_texts(tree) if _WORDS.search(text)]
    hits = [
        (rel, i, ln)
        for rel, lines in texts
        for i, ln in enumerate(lines, 1)
        if _WORDS.search(ln) and _META.search(ln)
    ]
    if not hits:
        return []
    every = [ln for _, text in build_texts(tree) for ln in _lines(text)]
    return [(rel, i, ln.strip()[:120]) for rel, i, ln in hits if _steers(ln, every)]


def _steers(line: str, every: list[str]) -> bool:
    """Whether ``line`` chooses or sets something of the build: a conditional, a Verilog
    tool's or a define's line, or an assignment of a variable such a line reads (through
    other variables' assignments, a few levels)."""
    from rtlopt.check._conditionals import CONDITIONAL
    from rtlopt.check._setting_variables import _is_setting, _reads, assigned

    if CONDITIONAL.match(line) or _sets(line):
        return True
    name = assigned(line)
    todo, seen = [name] if name else [], set()
    for _ in range(_LEVELS):
        if not todo:
            return False
        nxt = []
        for var in todo:
            seen.add(var)
            for ln in (x for x in every if var in x):
                if var not in _reads(ln):
                    continue
                if CONDITIONAL.match(ln) or _is_setting(ln, {}):
                    return True
                other = assigned(ln)
                if other and other not in seen:
                    nxt.append(other)
        todo = nxt
    return False


def _sets(line: str) -> bool:
    from rtlopt.check._build_options import _TOOLS

    return bool(_TOOLS.search(line) or _DEFINE.search(line))


def metadata_findings(tree: Path) -> list[tuple[str, str]]:
    """``(path, finding)`` for each line of :func:`metadata_steering`."""
    return [
        (
            rel,
            f"line {i} chooses the build by the commit's own metadata ({text!r}): a commit's"
            " message or the files it changes steer what the build compiles, which the gate"
            " cannot judge; every commit is a finding here unless --trust-config is passed"
            " after checking the build by hand",
        )
        for rel, i, text in metadata_steering(tree)
    ]
