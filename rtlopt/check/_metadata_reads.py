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
(:mod:`rtlopt.check._setting_variables`).

Metadata is read by class, not by a list of spellings:

- the version-control and forge programs and libraries as one set (git, hub, hg, sl, jj, gh,
  glab, tea, svn, ...; GitPython, pygit2, dulwich, nodegit, isomorphic-git, a forge's web
  API), run at a recipe's start after Make's ``@ - +`` prefixes, by a path, or through a
  variable naming the program on another line, to any depth (``VCS := git``, ``GIT ?= git``,
  ``A = $(B)``, ``${GIT:-git}``, ``$(shell which hg)``);
- a CI service's variable by what its name says (a part naming a branch, a commit, its
  message, subject or hash, a tag, a ref, a pull or merge request, an event, a change:
  ``BUILDKITE_MESSAGE``, Jenkins's ``GIT_BRANCH``, ``BUILD_SOURCEBRANCHNAME``), read by its
  ``$`` form in upper case (a service's names are; a lower-case ``$branch_target`` is a
  script's own) or from the environment by name, and not set by the build texts themselves;
- a workflow's expression on the event (``github.ref_name``, ``github.event.*``).

What the gate cannot name fails closed (:mod:`rtlopt.check._metadata_closed`): a VCS
program whose command is no literal word (``xargs git``, ``git $(ARGS)``), git's dashed
programs (``git-log``), a revision searching the messages (``HEAD^{/fast}``, ``:/fast``), the
whole environment read (``env | grep``), a variable's name computed at run time
(``$(BUILDKITE_$(K))``, ``${!N}``), a CI variable's name quoted for a helper
(``get_env_var("BUILDKITE_MESSAGE")``); a Make define block is a variable like any other.

Not metadata: git's own branch readings (``rev-parse --abbrev-ref``: a CI job checks a pull
request out detached; ibex's dvsim names its report folders so), git readings of a hash
(``git rev-parse HEAD``) and git commands that fetch or change a tree (``clone``,
``submodule``, ``restore``), not those printing the subject of the commit they reach
(``reset``, ``checkout``, ``switch``, ``worktree``, ``stash``, ``commit``) nor ``archive``
(``export-subst``); the branch a pull request goes into (``GITHUB_BASE_REF``,
``github.event.pull_request.base.sha``): it is the same for the base's build and the
change's. A reading on a line that only runs a linter or prints is no choice of the build.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Container
from pathlib import Path

from rtlopt.check._metadata_closed import (
    copy_reads,
    env_read,
    hash_read,
    no_literal_command,
    revision_search,
    variable_revision,
)
from rtlopt.check._metadata_steers import LEVELS, Lines, joined_lines, run_by_choice, steers
from rtlopt.check._setting_variables import _ASSIGN

__all__ = ["metadata_findings", "metadata_steering"]

#: the version-control and forge programs (one set: what they print of a commit, a branch, a
#: pull request is the author's): git and its wrappers (hub), Mercurial and Sapling, Jujutsu,
#: the forges' CLIs (gh, glab, tea), Subversion, Bazaar, Fossil, Darcs, Pijul, Perforce
_PROGRAM_NAMES = r"git|hub|hg|sl|jj|gh|glab|tea|svn|bzr|brz|fossil|darcs|pijul|p4|cvs"
#: one of them as a command: a shell's word (after Make's ``@ - +`` recipe prefixes), a quoted
#: argument vector's item, a variable's value, a path's last part
_GIT_WORD = re.compile(
    rf"""(?:^[ \t]*[@+\-]*|(?<=[\s;|&(`{{=\[,"'/\\]))(?P<prog>{_PROGRAM_NAMES})(?:\.exe)?"""
    r"""(?=[\s"',;)\]}|&<>`]|$)"""
)
#: an option of git's own before its command, with the argument it takes
_GIT_OPTION = re.compile(
    r"""["']?\s*,?\s*["']?(?:-[Cc]["',]*\s*,?\s*["']?[^\s"',]+|--[\w-]+(?:=[^\s"',]+)?|-\w)"""
)
_GIT_COMMAND = re.compile(r"""["']?\s*,?\s*["']?([A-Za-z][\w-]*)""")
#: git commands reading no metadata a commit's author writes: they fetch, make or change a
#: tree, or read the tree's own files or the repository's configuration (not a hash, which
#: an author grinds: ``merge-base``, ``status``'s ``branch.oid``, ``ls-remote .``, nor the
#: hashes of the tree and its files, which a documentation edit grinds: ``write-tree``,
#: ``ls-tree``, ``ls-files -s``, ``hash-object``; not
#: ``archive``: a file marked ``export-subst`` prints the commit's ``$Format:%s$``; nor the
#: commands printing the subject of the commit they reach: ``HEAD is now at 863ef98 fast``
#: of ``reset``, ``checkout``, ``switch --detach``, ``worktree add``, ``stash``'s ``WIP on``
#: and ``commit``'s ``[main 863ef98] fast``)
_NO_METADATA = frozenset(
    "clone restore submodule fetch pull push init apply am add rm mv "
    "config rev-parse lfs clean remote gc "
    "update-index version help update up co "
    "export sync auth".split()
)
#: of those, the other programs' commands that are no git built-in: a git alias may take
#: their names (``git -c alias.co='log -1' co``), and git-lfs is an external one
_NOT_GIT_BUILTIN = frozenset("update up co export sync auth lfs".split())
#: metadata readers besides the programs: git's files, the VCS libraries, a forge's web API, a
#: workflow's expression on the event (``github.ref_name``; not the repository, the run, the
#: runner's paths or the event's name, nor the branch a pull request goes into and its number:
#: the target is the same for the base's build and the change's), the CI services' event
#: payloads and commit lists
_META = re.compile(
    r"\.git/(?!hooks\b)|\bimport\s+git\b|\bfrom\s+git\b|\bpygit2\b|\bdulwich\b|\bGitPython\b"
    r"|\bnodegit\b|isomorphic-git|simple-git|\bgo-git\b|\blibgit2|\bgit2\b|\bRugged\b|hglib"
    r"|\bjgit\b|\bgitoxide\b|\bgix\b|\bpydriller\b|\bpygithub\b|\bimport\s+github\b|octokit"
    r"|python-gitlab|\bimport\s+gitlab\b|api\.github\.com|/api/v4/projects"
    r"|(?<![\w./-])(?:github|gitea|forgejo)\.(?!(?:com|io|workspace|repository\w*|run_\w+|"
    r"server_url|api_url|graphql_url|token|action\w*|job|workflow|env|path|retention_days|"
    r"event_name|secret_source|base_ref|event\.pull_request\.(?:base\.\w+|number))\b)[A-Za-z_]"
    r"|(?<![\w./-])(?:github|gitea|forgejo)\[|GITHUB_EVENT_PATH|toJSON\(\s*github|head_commit|commits\["
    r"|\blogs/HEAD\b|\bpacked-refs\b|\bCOMMIT_EDITMSG\b|\b(?:ORIG|FETCH)_HEAD\b"
    # git's folder by its name, its refs (``cd .git && cat refs/heads/*``, round 90 case 08)
    r"|(?:\b(?:cd|pushd|chdir|-C|--git-dir|GIT_DIR|cwd|dir)(?:\s+-\S+)*\W{1,4})(?:[^\s;&|]*/)?\.git(?![\w.-])"
    r"|\brefs/(?:heads|tags|remotes)\b|\bgitdir\b",
    re.M,
)
#: a CI service's metadata variable by what its name says: a part naming a branch, a commit,
#: its message, subject or hash, a tag, a ref, a pull or merge request, an event, a change
_NAME_WORDS = re.compile(
    r"BRANCH|COMMIT|MESSAGE|TITLE|PULL|MERGE|SUBJECT|EVENT|SOURCEVERSION|AUTHOR"
)
_NAME_PARTS = re.compile(
    r"(?:MSG|TAGS?|TAGNAME|REFS?|REFNAME|PRS?|HEAD|HEADREF|SHA1?|SHORTSHA|CHANGES?|DESCRIPTION"
    r"|LABELS?)"
)
#: a variable's read by its ``$`` form (``$(N)``, Azure's ``$(Build.SourceBranchName)``,
#: ``${N}``, ``$N``, ``%N%``) or a Make ``ifdef N``: a CI service's names are upper case
#: (Azure's dotted ones aside); a lower-case one is a script's own (``$branch_target``)
_UPPER = r"[A-Z_][A-Z0-9_]*\b(?!\.)|[A-Za-z_]\w*(?:\.\w+)+"
_DOLLAR_READ = re.compile(
    rf"\$+(?:\(\s*(?:value\s+|origin\s+)?({_UPPER})\s*[:)]|\{{\s*({_UPPER})|({_UPPER}))"
)
_OTHER_READ = re.compile(r"%([A-Z_][A-Z0-9_]*)%|ifn?def\s+([A-Z_][A-Z0-9_]*)\b")
#: a variable read from the environment by name, in any case: ``env.N``, ``$env:N``,
#: ``getenv("N")``, ``environ["N"]``, ``$ENV{N}``, ``$::env(N)``, Azure's ``variables['N']``
_ENV_READ = re.compile(
    r"(?:env|ENV|Env)(?:\.|:|\[\s*[\"']|\(\s*|\{\s*[\"']?)([A-Za-z_]\w*)"
    r"|(?:getenv|GETENV|Getenv)\(\s*[\"']([A-Za-z_]\w*)"
    r"|printenv\s+([A-Za-z_]\w*)|environ(?:\.get\(|\[)\s*[\"']([A-Za-z_]\w*)|variables(?:\.|\[\s*[\"'])([A-Za-z_][\w.]*)"
)


#: a CI service's variable named by a quoted string (``get_env_var("BUILDKITE_MESSAGE")``,
#: ``for v in ["GIT_BRANCH"]``) or a template's field (``{GIT_BRANCH}``, ``<GIT_BRANCH>``):
#: read by a helper with a computed key (``os.environ[v]``, dvsim's substitutions)
_QUOTED_NAME = re.compile(r"""["'{<]([A-Z][A-Z0-9]*(?:[_.][A-Z0-9]+)+)["'}>]""")

_TARGET = re.compile(r"(?:^|[_.])(?:BASE|TARGET)|TARGETBRANCH")
#: each read's pattern with the strings a text holds for it to match
_READS = (
    (_DOLLAR_READ, ("$",)),
    (_OTHER_READ, ("%", "ifdef", "ifndef")),
    (_ENV_READ, ("env", "ENV", "Env", "variables")),
    (_QUOTED_NAME, ('"', "'", "{", "<")),
)


def _metadata_name(name: str) -> bool:
    """Whether a variable's name says it holds a commit's metadata (``BUILDKITE_MESSAGE``,
    ``GIT_BRANCH``, ``BUILD_SOURCEBRANCHNAME``, ``CI_COMMIT_TAG``, ``GITHUB_REF``); not the
    branch a pull request goes into (``GITHUB_BASE_REF``, ``CHANGE_TARGET``,
    ``SYSTEM_PULLREQUEST_TARGETBRANCH``): the same for the base's build and the change's."""
    upper = name.upper()
    if _TARGET.search(upper):
        return False
    return bool(_NAME_WORDS.search(upper)) or any(
        _NAME_PARTS.fullmatch(part) for part in re.split(r"[_.]", upper)
    )


def _ci_name(m: re.Match[str], given: Container[str]) -> bool:
    """Whether a read (of :data:`_DOLLAR_READ` or :data:`_ENV_READ`) is of a metadata
    variable (:func:`_metadata_name`) the build texts do not set themselves (``given``: set by
    ``=``/``:=``, a loop's variable), so the CI service running the build gives it."""
    name = next(g for g in m.groups() if g)
    return _metadata_name(name) and name not in given


def _ci_reads(line: str, given: Container[str]) -> bool:
    """Whether ``line`` reads a CI service's metadata variable (:func:`_ci_name`)."""
    return any(_ci_name(m, given) for r, _ in _READS for m in r.finditer(line))


_METADATA_NAMES = (
    r"log|show|reflog|for-each-ref|diff[\w-]*|whatchanged|shortlog|cat-file|rev-list|describe"
    r"|name-rev|notes|interpret-trailers|format-patch|branch|tag|symbolic-ref|blame"
)
#: a metadata command anywhere after git on its line
_METADATA_COMMAND = re.compile(rf"(?<![\w-])(?:{_METADATA_NAMES})(?![\w-])")
#: a metadata command run through a variable holding git (``$G log``, ``$(GIT) show``)
_THROUGH_VARIABLE = re.compile(rf"\$+[({{]?\w+[)}}]?\s+(?:-\S+\s+)*(?:{_METADATA_NAMES})\b")


#: git's dashed programs (``git-log``, ``/usr/lib/git-core/git-show``), by their command
_DASHED = re.compile(
    r"""(?:^|(?<=[\s;|&(`{=\[,"'/\\]))git-([A-Za-z][\w-]*)(?:\.exe)?(?=[\s"',;)\]}|&`]|$)"""
)


def _line_indexes(text: str, at: list[int]) -> set[int]:
    """The indexes of ``text``'s lines holding the offsets ``at``."""
    if not at:
        return set()
    ends = [m.start() for m in re.finditer("\n", text)]
    return {bisect.bisect_left(ends, k) for k in at}


def _reads_metadata(line: str, given: Container[str] = frozenset()) -> bool:
    """Whether ``line`` runs a VCS or forge program for metadata (a command outside
    :data:`_NO_METADATA`, or git with no command after it: a variable's value, ``G=git; $G
    log``), reads another metadata source (:data:`_META`) or a CI service's metadata
    variable (:func:`_ci_reads`)."""
    if _META.search(line) or _ci_reads(line, given) or env_read(line, given):
        return True
    if any(m.group(1) not in _NO_METADATA for m in _DASHED.finditer(line)):
        return True
    for m in _GIT_WORD.finditer(line):
        at = m.end()
        while (opt := _GIT_OPTION.match(line, at)) is not None and opt.end() > at:
            at = opt.end()
        if revision_search(line, m.end()):
            return True
        cmd = _GIT_COMMAND.match(line, at)
        if cmd is not None and _unknown(m.group("prog"), cmd.group(1), line[m.end() : at]):
            return True
        if cmd is not None and cmd.group(1) == "rev-parse" and hash_read(line, cmd.end()):
            return True
        if cmd is not None and variable_revision(
            m.group("prog"), cmd.group(1), line, m.start("prog"), cmd.end()
        ):
            return True
        if cmd is None and no_literal_command(
            line, m.start("prog"), m.end(), at, m.group("prog") == "git"
        ):
            return True
        if cmd is None and m.group("prog") == "git" and _after_git(line, at):
            return True
    if _VCS_VARIABLE.search(line):
        return True
    return _THROUGH_VARIABLE.search(line) is not None and "GIT" in line.upper()


#: a variable named for a VCS program (``$(GIT)``, ``$HG_CMD``) run with no literal command
_VCS_VARIABLE = re.compile(
    r"\$+[({]?(?:\w+_)?(?:GIT|HG|VCS|SVN)(?:_\w+)?[)}]?\s+(?:-\S+\s+)*[\"']?(?:\$|$)", re.M
)


def _unknown(prog: str, cmd: str, options: str) -> bool:
    """Whether a VCS program's command may read metadata: none known to read none, a git
    alias's name (:data:`_NOT_GIT_BUILTIN`), any command under an alias set in the options
    (Mercurial's ``--config alias.update=log`` overrides its own commands)."""
    if cmd not in _NO_METADATA or "alias" in options:
        return True
    return prog == "git" and cmd in _NOT_GIT_BUILTIN


def _after_git(line: str, at: int) -> bool:
    """Whether git's word with no command after it is read as running one later on its
    line: ``G=git; $G log``, an option's value read as no command (``--git-dir .git log``)."""
    return bool(_THROUGH_VARIABLE.search(line, at) or _METADATA_COMMAND.search(line, at))


#: a variable's reference (``$(G)``, ``${G}``, ``$G``, ``$$G``, ``${G:-git}``)
_REFERENCE = re.compile(
    r"\$+(?:\(\s*(?:call\s+)?([A-Za-z_]\w*)\s*[,)]|\{\s*([A-Za-z_]\w*)\s*(?::?[-=?+]([^}]*))?\}"
    r"|([A-Za-z_]\w*))"
)
#: a value naming a program by its first word: a path's last part, after ``$(shell which``
_FIRST_WORD = re.compile(
    r"""\s*["'`]?(?:(?:\$\(shell\s+|\$\(|`)?(?:which|command\s+-v|type\s+-p)\s+"""
    r"""|(?:env|exec)\s+)?"""
    rf"""(?:[\w.~/\\-]*[/\\])?(?:{_PROGRAM_NAMES})(?:\.exe)?(?=[\s"'`)]|$)"""
)
#: a shell's assignment anywhere on a line (``G=git; $G log``, ``GIT=hg make``)
_SHELL_SET = re.compile(r"(?<![\w$.\-])([A-Za-z_]\w*)=(?!=)(\S*)")
#: a shell's alias or function and what it runs (``alias g=git``, ``g() { git "$@"; }``)
_COMMAND_NAME = re.compile(
    r"""\balias\s+([A-Za-z_][\w-]*)=["']?([^\n"';]*)|\b([A-Za-z_][\w-]*)\s*\(\)\s*\{\s*([^\n;}]*)"""
)


#: a program's word as a word (the quick look for the variables naming one)
_PROGRAM_WORD = re.compile(rf"(?:{_PROGRAM_NAMES})\b")  # no \b before: a slow search


def _program_words(text: str) -> list[int]:
    """Where ``text`` holds a program's word as a word (:data:`_PROGRAM_WORD`)."""
    return [
        m.start()
        for m in _PROGRAM_WORD.finditer(text)
        if not m.start() or not (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_")
    ]


class _Given:
    """The variables the build texts set themselves (``=``, ``:=``, a YAML key, ``set N``, a
    loop's variable; not ``?=`` nor ``+=``, which keep the environment's value), looked up by
    name on demand."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self._known: dict[str, bool] = {}

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if name not in self._known:
            n = re.escape(name)
            sets = re.compile(
                rf"(?<![\w$.\-]){n}[\"']?\s*(?:::=|:=|!=|=(?!=)|:(?=\s|$))"
                rf"|\bfor(?:each)?\s+\(?\s*\$?{n}\b|\bset\s+{n}\b",
                re.M,
            )
            self._known[name] = any(name in t and sets.search(t) for t in self.texts)
        return self._known[name]


class _Variables:
    """The build texts' variables: those holding a VCS or forge program (read through other
    variables, to any depth), and those the texts set themselves (:class:`_Given`)."""

    def __init__(self, texts: list[str]) -> None:
        self.given = _Given(texts)
        self._command: re.Pattern[str] | None = None
        self.programs: set[str] = set()
        self.words = [_program_words(text) for text in texts]
        look: re.Pattern[str] | None = None
        for _ in range(LEVELS):
            found = {
                name
                for i, text in enumerate(texts)
                for at in (self.words[i] if look is None else _starts(look, text, "$"))
                for name, value in _assignments(_line_at(text, at))
                if name not in self.programs and _FIRST_WORD.match(self.expand(value))
            }
            if not found:
                break
            self.programs |= found
            look = re.compile(rf"\$+[({{]?\s*(?:call\s+)?(?:{'|'.join(sorted(found))})\b")
        self._quick = _quick(self.programs)
        commands = {
            m.group(1) or m.group(3)
            for text in texts
            if "alias" in text or "()" in text
            for m in _COMMAND_NAME.finditer(text)
            if _FIRST_WORD.match(self.expand(m.group(2) or m.group(4) or ""))
        }
        if commands:
            named = "|".join(sorted(commands))
            self._command = re.compile(rf"(?:^|(?<=[\s;|&(`]))(?:{named})(?=\s)", re.M)
            self._quick.append((self._command, ""))

    def candidates(self, i: int, text: str) -> set[int]:
        """The indexes of ``text``'s lines (:func:`_lines`) that may read metadata: one of
        the quick look's words, a metadata variable read, a program's variable."""
        at = self.words[i] + [k for r, needle in self._quick for k in _starts(r, text, needle)]
        at += [
            m.start()
            for r, needles in _READS
            if any(n in text for n in needles)
            for m in r.finditer(text)
            if _ci_name(m, self.given)
        ]
        return _line_indexes(text, at)

    def expand(self, line: str) -> str:
        """``line`` with each reference to a program's variable (or a default naming one:
        ``${GIT:-git}``; ``$(call vcs)``), or a shell's alias or function running one used as
        a command (``alias g=git``, ``g() { git "$@"; }``: ``g log``), read as the program's
        word."""
        if self._command is not None:
            line = self._command.sub(" git ", line)
        if "$" not in line:
            return line

        def word(m: re.Match[str]) -> str:
            name = m.group(1) or m.group(2) or m.group(4)
            default = m.group(3)
            if name in self.programs or (default and _FIRST_WORD.match(self.expand(default))):
                return " git "
            return m.group(0)

        return _REFERENCE.sub(word, line)


def _line_at(text: str, at: int) -> str:
    return text[text.rfind("\n", 0, at) + 1 : (text.find("\n", at) + 1 or len(text) + 1) - 1]


def _assignments(line: str) -> list[tuple[str, str]]:
    """``(name, value)`` of each assignment of ``line``: at its start (``VCS := git``,
    ``G = "git"``, ``set G git``), a shell's anywhere (``G=git; $G log``)."""
    out = [(k.group(1), k.group(2)) for k in _SHELL_SET.finditer(line)]
    m = _ASSIGN.match(line)
    if m is not None:
        name = (m.group("tcl") or m.group("cmake") or m.group("plain")).split(".")[-1]
        out.append((name, line[m.end() :]))
    return out


def _starts(pattern: re.Pattern[str], text: str, needle: str) -> list[int]:
    """Where ``pattern`` matches in ``text``, searched only where ``text`` holds ``needle``."""
    return [m.start() for m in pattern.finditer(text)] if needle in text else []


#: the quick look for the whole environment read or a computed name (:func:`env_read`)
_ENV_QUICK = re.compile(r"env|ENV|VARIABLES|export|declare|typeset|compgen|eval")
_ENV_QUICK_SET = re.compile(r"set\s*[|>]")
_COMPUTED_QUICK = re.compile(r"\$(?:\{!|[({]\s*(?:value\s+|origin\s+)?[\w.]*\$)")


def _quick(programs: set[str]) -> list[tuple[re.Pattern[str], str]]:
    """A quick look for lines that may read metadata, besides a program's word: a metadata
    source's word, a command through a variable, a reference to a variable naming a program or
    a default naming one (each a plain pattern: a long alternation is slow on a large tree;
    each with a string a text holds for it to match)."""
    out = [
        (
            re.compile(
                r"git|dulwich|GitPython|Rugged|octokit|gix|api/v4|head_commit|commits\[|forgejo"
                r"|GITHUB_EVENT_PATH|pydriller"
            ),
            "",
        ),
        (_THROUGH_VARIABLE, "$"),
        (_VCS_VARIABLE, "$"),
        (re.compile(r"\$+\{\w+:?[-=]"), "$"),
        (_ENV_QUICK, ""),
        (_ENV_QUICK_SET, "set"),
        (_COMPUTED_QUICK, "$"),
    ]
    if programs:
        named = "|".join(sorted(programs))
        out.append((re.compile(rf"\$+[({{]?\s*(?:call\s+)?(?:{named})\b"), "$"))
    return out


def metadata_steering(
    tree: Path, read: list[tuple[str, str]] | None = None
) -> list[tuple[str, int, str]]:
    """``(path, line, text)`` of each line of ``tree``'s build texts (``read``: those already
    read) that reads the commit's metadata where it chooses or sets something of the build
    (the module docstring); a program is read through the variables naming it
    (:class:`_Variables`)."""
    from rtlopt.check._build_texts import build_texts

    texts = list(build_texts(tree)) if read is None else read
    joined = [joined_lines(text) for _, text in texts]
    names = _Variables(joined)
    hits = []
    computed = _computed_programs(joined)
    for i, text in enumerate(joined):
        lines = text.split("\n")
        copies = _line_indexes(text, copy_reads(text))
        if computed:
            copies |= _line_indexes(text, _programs_run(text, computed))
        copies |= _line_indexes(text, [m.start() for m in _SPLICED_COMMAND.finditer(text)])
        for k in sorted(names.candidates(i, text) | copies):
            if k in copies or _reads_metadata(names.expand(lines[k]), names.given):
                hits.append((i, k + 1, lines[k]))
    if not hits:
        return []
    every = Lines(texts, _META)
    return [
        (texts[i][0], n, ln.strip()[:120])
        for i, n, ln in hits
        if steers(ln, i, every) or run_by_choice(texts[i][0], i, every)
    ]


#: a variable's value computed by a function or a command (``G := $(subst x,i,gxt)``; not a
#: program's look-up by its literal name, ``$(shell which psgen)``)
_COMPUTED_VALUE = re.compile(
    r"^\s*(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*(?:[:?+!]?=|::=)\s*"
    r"(?:\$+[({]\s*(?:subst|patsubst|join|addprefix|addsuffix|word|wordlist|firstword|lastword"
    r"|strip|filter|filter-out|sort|call|eval|value|shell|if|or|and|foreach|notdir|basename"
    r"|dir|suffix|wildcard|file|let|intcmp)\b(?!\s+(?:which|command\s+-v|type\s+-p)\s+[\w.+-]+\))"
    r"|`|\$\$\()",
    re.M,
)


#: a program run by a name a variable is spliced into (``gi$(E)t``: round 92 case 11)
_SPLICED_COMMAND = re.compile(
    r"(?:\$\(shell\s+|`|\$\$\(|^\t[@+-]*)\s*(?:[\w./-]+\$+[({][\w.-]*[)}][\w./-]*(?=\s)"
    # or computed by a function (``$(join g,it)``: case 15)
    r"|\$\((?:join|subst|patsubst|addprefix|addsuffix|word|wordlist|firstword|lastword|strip"
    r"|filter|filter-out|sort|notdir|basename|dir|suffix|call|if|or|and|foreach|value|eval)\b)",
    re.M,
)


def _computed_programs(texts: list[str]) -> frozenset[str]:
    """The variables whose values are computed (:data:`_COMPUTED_VALUE`)."""
    return frozenset(m.group(1) for t in texts for m in _COMPUTED_VALUE.finditer(t))


def _programs_run(text: str, computed: frozenset[str]) -> list[int]:
    """Where ``text`` runs a program by a variable of ``computed`` (``$(shell $(G) ...)``,
    round 91 case 15): its name may spell git; offsets."""
    run = re.compile(
        r"(?:\$\(shell\s+|`|\$\$\(|^\t[@+-]*)\s*\$+[({]("
        + "|".join(re.escape(n) for n in sorted(computed))
        + r")[)}]",
        re.M,
    )
    return [m.start() for m in run.finditer(text)]


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
