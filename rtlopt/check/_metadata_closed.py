"""The reads of a commit's metadata the gate cannot name, failed closed (for the gate).

:mod:`rtlopt.check._metadata_reads` names metadata reads by class: a VCS program's command,
a CI service's variable by its name. What it cannot name it counts as a read, on a line that
chooses or sets something of the build:

- a VCS program whose command is no literal word: read from stdin (``... | xargs git``), a
  variable (``git $(ARGS)``, ``git "$@"``), a placeholder (``xargs -I{} git {}``); unless the
  line only looks the program up (``which git``) or asks its version (``git --version``), or
  assigns the program's word alone (``GIT := git``: the variable is followed where it is read);
- a revision argument searching the commits' messages or the reflog (``HEAD^{/fast}``,
  ``:/fast``, ``HEAD@{1}``), whatever the command (``rev-parse`` included), read with the
  shell's quotes and escapes removed (``HEAD^\\{/fast\\}``, ``:"/fast"``); a revision
  argument holding a variable or a computed part (``HEAD$(Q)``): it may hold such a search;
- the whole environment read (``env`` or ``printenv`` with no name, ``set``, ``export -p``,
  ``declare -p``, Make's ``$(.VARIABLES)``, ``os.environ.items()``, ``for k in os.environ``,
  Perl's ``keys %ENV``, Tcl's ``array names env``): a CI service's metadata variable is in it;
- a variable's name computed at run time (``$(BUILDKITE_$(K))``, ``$($(V))``, ``${!N}``,
  ``os.environ[f"X_{k}"]``, ``getenv(name)``, ``$::env($n)``, ``$ENV{${N}}``): it may name one.

A Make ``define NAME ... endef`` block is a variable like any other: :func:`with_defines`
reads each line of its body as an assignment of ``NAME``.
"""

from __future__ import annotations

import re
from collections.abc import Container

__all__ = [
    "COMPUTED",
    "WHOLE_ENV",
    "copy_reads",
    "env_read",
    "no_literal_command",
    "revision_search",
    "variable_revision",
    "with_defines",
]

_SP = r"[ \t]*"
#: the whole environment read: a listing program with no name, the shell's ``set`` alone,
#: Make's variable list, a script's iteration over its environment
WHOLE_ENV = re.compile(
    rf"(?:^|[;&|(`{{]|\b(?:if|then|do|else|shell|exec)\b|!){_SP}"
    r"(?:(?:/|\.\.?/|~/)(?:[\w.~-]+/)*)?(?:env|printenv)(?:\s+-0)?\s*(?=$|[|;&)>`}])"
    rf"|(?:^|[;&|(`{{]|\b(?:if|then|do|else|shell)\b|!){_SP}set\s*[|>]"
    rf"|(?:^|[;&|(`{{]|\b(?:if|then|do|else|shell)\b|!){_SP}(?:export\s+-p|declare\s+-[px]+"
    r"|typeset\s+-x|compgen\s+-[ev])\s*(?=$|[|;&)>`}])"
    r"|\.VARIABLES\b|environ\.(?:items|keys|values)\s*\("
    r"|\bfor\s+\w+(?:\s*,\s*\w+)?\s+in\s+(?:os\.)?environ\b"
    r"|\b(?:filter|str|repr|dumps|sorted|list|print)\(\s*(?:os\.)?environ\s*[,)]"
    r"|\b(?:keys|values|each)\s+%ENV\b|\barray\s+(?:names|get)\s+(?:::)?env\b"
    r"|\b(?:keys|entries|values|stringify)\(\s*process\.env\b"
    r"|\bENV\.(?:each\w*|to_h|to_a|keys|values|select|filter\w*|find|map|inspect)\b",
    re.M,
)
#: a variable's name computed at run time: Make's ``$(X_$(Y))``, the shell's ``${!N}`` and
#: ``eval echo \$X_$K`` (not
#: autoconf's ``${$v+set}``: whether it is set), a script's environment read by a key built
#: in place (an f-string, ``+``, ``%``, ``format``, ``join``); a key held by a plain variable
#: (a function's parameter) is named where it is given, by a quoted name (:mod:`._metadata_reads`)
COMPUTED = re.compile(
    r"\$\(\s*(?:value\s+|origin\s+)?[\w.]*\$|\$\{\s*\w*\$(?!\w+\+set\})|\$\{!"
    r"|(?:environ(?:\.get\s*\(|\[)|getenv\s*\()\s*"
    r"(?:[fF][rRbB]?[\"']|[^\]),\n]*?(?:\+|%|\.format\b|\bjoin\b))"
    r"|(?:\benv\(|\bENV\{)\s*[$\[]|\bprintenv\s+[\"']?\$|\beval\b[^\n]*\\\$\{?\w*\$(?!\w+\+set\})"
    r"|process\.env\[\s*(?![\"'][\w.]*[\"']\s*\])|\bENV(?:\[|\.fetch\()\s*(?![\"'])"
)


def env_read(line: str, given: Container[str] = frozenset()) -> bool:
    """Whether ``line`` reads the whole environment or a variable by a computed name; not a
    Make name computed as the build texts set it themselves (``given``: the template's
    ``COMPILER_SUPPORTS_$(1) := ...`` read as ``$(COMPILER_SUPPORTS_$(1))``)."""
    if WHOLE_ENV.search(line):
        return True
    for m in COMPUTED.finditer(line):
        name = _reference(line, m.start()) if m.group(0).startswith("$") else None
        if not name or name not in given:
            return True
    return False


def _reference(line: str, at: int) -> str | None:
    """The name inside Make's reference ``$(...)``/``${...}`` at ``at`` (its parentheses
    balanced), or None."""
    opening = line[at + 1 : at + 2]
    if opening not in "({" or not opening:
        return None
    closing, depth = ")" if opening == "(" else "}", 0
    for k in range(at + 1, len(line)):
        depth += {opening: 1, closing: -1}.get(line[k], 0)
        if depth == 0:
            name = line[at + 2 : k].strip()
            return None if name.startswith(("value ", "origin ", "!")) else name
    return None


#: a copy of the whole environment: ``env = os.environ.copy()``, ``dict(os.environ)``,
#: ``{**os.environ}``, ``%ENV`` copied in Perl
_COPY = re.compile(
    r"(?<![\w.])([A-Za-z_]\w*)\s*=\s*(?:(?:os\.)?environ\.copy\(\)|dict\(\s*(?:os\.)?environ\s*\)"
    r"|\{\s*\*\*\s*(?:os\.)?environ\s*[,}]|\{\s*\.\.\.process\.env\b|ENV\.to_h\b)"
)


def copy_reads(text: str) -> list[int]:
    """Where ``text`` reads a copy of the whole environment it made (:data:`_COPY`) whole:
    iterated, its items or values, passed to a filter (``for k in env``, ``env.items()``);
    not passed to a program (``subprocess.run(cmd, env=env)``) nor read by a name."""
    if "environ" not in text and "process.env" not in text and "ENV" not in text:
        return []
    names = {m.group(1) for m in _COPY.finditer(text)}
    if not names:
        return []
    n = "|".join(sorted(map(re.escape, names)))
    whole = re.compile(
        rf"(?<![\w.])(?:{n})\.(?:items|keys|values)\s*\(|\bfor\s+\w+(?:\s*,\s*\w+)?\s+in\s+"
        rf"(?:{n})\b|\b(?:filter|str|repr|dumps|sorted|list|print|any|all|keys|entries)\(\s*"
        rf"(?:[^()]*,\s*)?(?:{n})\s*[,)]"
    )
    return [m.start() for m in whole.finditer(text)]


#: a revision argument searching the commits' messages (``^{/text}``, ``:/text`` after
#: anything: ``HEAD..:/fast``, ``-s:/fast``) or the reflog (``@{1}``, ``@{-1}``,
#: ``@{upstream}``); not a URL's ``://``
_SEARCH = re.compile(r"\^\{/|@\{|(?<![:/]):/(?!/)")


#: the shell's quoting and escapes, removed before a revision is read: ``HEAD^\{/fast\}``,
#: ``HEAD^'{/'fast}`` and ``:"/fast"`` are git's ``HEAD^{/fast}`` and ``:/fast``
_QUOTING = re.compile(r"[\\'\"]")


def revision_search(line: str, at: int) -> bool:
    """Whether ``line`` holds, after a VCS program's word at ``at``, a revision argument
    searching the messages or the reflog (:data:`_SEARCH`), read with the shell's quotes and
    escapes removed."""
    return _SEARCH.search(_QUOTING.sub("", line[at:])) is not None


#: git's commands known to read no metadata (:mod:`._metadata_reads`) that take a revision
#: argument: one holding a variable or a computed part may search the messages (``Q :=
#: ^{/fast}``, ``git rev-parse HEAD$(Q)``)
_REVISION_COMMANDS = frozenset(
    "rev-parse checkout switch restore reset merge-base ls-tree archive worktree fetch pull "
    "push".split()
)
#: a variable's reference or a computed part: ``$(Q)``, ``${Q}``, ``$Q``, ``$$Q``, a backquote
_VARIABLE_PART = re.compile(r"\$|`")
#: an option whose value is no revision (``--short=$(N)``)
_COUNT_OPTION = re.compile(r"--(?:short|abbrev)=")
#: a script's command text built in place: a string joined or formatted (``"git rev-parse " +
#: rev``, ``% rev``, ``.format(``), a name in braces (an f-string's ``{rev}``; not git's
#: ``^{commit}`` nor a shell's ``${R}``, read as a variable)
_BUILT = re.compile(r"""["']\s*(?:\+|%|\.format\b)|(?<![$^@{])\{[A-Za-z_]""")
#: an argument vector's item that is a literal string
_LITERAL = re.compile(r"""[rb]?(?:"[^"]*"|'[^']*')""")
#: arguments given by stdin: ``... | xargs git rev-parse``
_XARGS = re.compile(r"\bxargs\b[^;&()]*$")


#: Mercurial's and Sapling's commands known to read no metadata that take a revision: a
#: revset's function may search the messages (``hg update -r 'desc(fast)'``)
_REVSET_COMMANDS = frozenset("update up co".split())


def variable_revision(prog: str, cmd: str, line: str, start: int, at: int) -> bool:
    """Whether the VCS program's command ``cmd`` (its word at ``start``, the command ending
    at ``at``), one taking a revision, has an argument that is no literal before its command
    ends: a variable or a computed part (not a count option's), a script's string built in
    place or an argument vector's item that is a name, arguments given by ``xargs``; for
    Mercurial and Sapling, a revset's function too. An unknown revision, failed closed."""
    if prog in ("hg", "sl") and cmd in _REVSET_COMMANDS:
        if "(" in _command_text(line, at) or _XARGS.search(line, 0, start):
            return True
    elif prog != "git" or cmd not in _REVISION_COMMANDS:
        return False
    segment = _command_text(line, at)
    if _XARGS.search(line, 0, start) or _BUILT.search(segment):
        return True
    if any(
        _VARIABLE_PART.search(word) and not _COUNT_OPTION.match(_QUOTING.sub("", word))
        for word in segment.split()
    ):
        return True
    if line[start - 1 : start] not in ("'", '"'):
        return False  # no argument vector's item
    if _JOINED.match(line, at + len(segment)):
        return True  # a vector joined with another (`["git", "rev-parse"] + [rev]`)
    items = [item.strip() for item in segment.split(",")[1:]]
    return any(item and not _LITERAL.fullmatch(item) for item in items)


#: an argument vector joined with another after its bracket
_JOINED = re.compile(r"\]\s*\+")


def _command_text(line: str, at: int) -> str:
    """The text of the command starting at ``at``: up to a ``;``, ``|``, ``&``, a closing
    parenthesis or bracket outside those opened in it, or the backquote closing the command's
    own substitution (another backquote opens a computed part: a word of the command)."""
    depth, k, quoted = 0, at, line.count("`", 0, at) % 2 == 1
    while k < len(line):
        c = line[k]
        if c in "([":
            depth += 1
        elif c in ")]":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (c in ";|&" or (c == "`" and quoted)):
            break
        k += 1
    return line[at:k]


#: a program's word only looked up or assigned, not run: ``which git``, ``shutil.which("git")``
_LOOKUP = re.compile(
    r"(?:\bwhich|\bcommand\s+-[vV]|\btype(?:\s+-[aptP]+)?|\bhash|\bwhereis|\bwhere"
    r"|Get-Command|find_program\s*\(\s*\w+(?:\s+NAMES)?|\bwhich\s*\()\s*[\"']?[\w.~/\\-]*$"
)
#: the program's word as an assignment's whole value: ``GIT := git``, ``G="/usr/bin/git"``
_VALUE_BEFORE = re.compile(
    r"(?:^|[\s;&|(`{,])(?:[A-Za-z_][\w.]*\s*(?:::=|:=|\?=|\+=|=)|[\"']?[A-Za-z_][\w.-]*[\"']?\s*:)"
    r"\s*[\"']?[\w.~/\\-]*$"
)
_VALUE_AFTER = re.compile(r"(?:\.exe)?[\"']?\s*(?:[;#,].*)?$")
#: a variable's reference or a placeholder next (``hg $(ARGS)``, ``xargs -I{} hg {}``)
_VARIABLE_NEXT = re.compile(r"""\s*["']?(?:\$|\{\}|%)""")
#: the word as a variable's name being assigned (``jj = cfg.next()``)
_ASSIGNED = re.compile(r"\s*(?:::=|[:+?!]?=(?!=))")
#: git's options that print no metadata and run no command
_TERMINAL = re.compile(r"--(?:version|help|exec-path|html-path|man-path|info-path)\b|-h\b")


def no_literal_command(line: str, start: int, end: int, at: int, git: bool = True) -> bool:
    """Whether the VCS program's word at ``line[start:end]`` runs with no literal command
    word after its options (which end at ``at``): nothing, a variable, stdin, a
    placeholder (for another VCS than git, whose short names are common words, only a
    variable or a placeholder). Not a lookup (``which git``), a terminal option (``git
    --version``), nor the word alone as an assignment's value (``GIT := git``: followed where
    it is read)."""
    if not git and not _VARIABLE_NEXT.match(line, at):
        return False  # `jj = start;`, `for (j = jj; ...`: another program's word, a C name
    before = line[:start]
    if _ASSIGNED.match(line, end) or _LOOKUP.search(before) or _TERMINAL.search(line, end, at):
        return False
    return not (_VALUE_BEFORE.search(before) and _VALUE_AFTER.match(line, end))


_DEFINE_BLOCK = re.compile(
    r"^([ \t]*(?:(?:override|export|private)[ \t]+)*define[ \t]+([A-Za-z_][\w.-]*)[^\n]*\n)"
    r"(.*?)(?=^[ \t]*endef\b)",
    re.M | re.S,
)


def with_defines(text: str) -> str:
    """``text`` with each line of a Make ``define NAME ... endef`` block's body read as an
    assignment of ``NAME`` (``NAME = <line>``); the lines keep their numbers."""
    if "endef" not in text:
        return text

    def body(m: re.Match[str]) -> str:
        name = m.group(2)
        lines = m.group(3).split("\n")
        return m.group(1) + "\n".join(f"{name} = {ln}" if ln else ln for ln in lines)

    return _DEFINE_BLOCK.sub(body, text)


#: ``git rev-parse``'s options that print a path or a property of the checkout, never the
#: commit (not git's own folder, ``--git-dir``, ``--git-path``: its files hold the reflog's
#: hashes and messages, round 88 case 07): a rev-parse with anything else (``HEAD``,
#: ``--verify``, ``--short``) prints a hash a committer can steer by amending (round 86 case
#: 10) or verifies a revision
_PATH_ONLY = re.compile(
    r"--(?:show-toplevel|show-cdup|show-prefix|is-inside-work-tree|is-inside-git-dir"
    r"|is-bare-repository|show-superproject-working-tree|local-env-vars|path-format=\w+)\b"
)


def hash_read(line: str, at: int) -> bool:
    """Whether the ``git rev-parse`` command ending at ``at`` reads more than a path: its
    words up to the end of the command (a pipe, a separator, a closing parenthesis) are not
    all path options."""
    command = re.split(r"[|;&)`]", line[at:], maxsplit=1)[0]
    words = re.sub(r"\d*[<>]{1,2}&?\s*\S+", " ", command).split()  # no redirection's file
    words = [w.strip("\"',[]") for w in words]
    first = next((w for w in words if w and not w.startswith("-")), "")
    exempt = ("--abbrev-ref", "--symbolic-full-name")
    if any(w in exempt for w in words[: words.index(first) if first else len(words)]):
        return False  # the branch's name of what follows, which no commit sets
    words = [w for w in words if w and not _PATH_ONLY.fullmatch(w) and w not in ("2>/dev/null",)]
    return bool(words) or not _PATH_ONLY.search(line[at:])


def script_run(line: str, name: str) -> str | None:
    """``line`` as it steers the script ``name`` it names (any word: an interpreter, a path,
    a variable's program; a Python module run by ``-m``), or None where it names it not:
    whole where it takes the output (``$(shell ..)``, ``$(..)``, backquotes, a redirection),
    else without the script's own name and quoted text (a message), so a tool's word there
    (``build-verible.sh``, ``"run format-verible"``) makes no tool line."""
    word = rf"(?<![\w.-]){re.escape(name)}(?![\w.-])"
    if name.endswith(".py"):
        word += rf"|-m\s*(?:[\w.]+\.)?{re.escape(name[:-3])}(?![\w.-])"
    if not re.search(word, line):
        return None
    if re.search(r"\$\(|`|>", line):
        return line
    return re.sub(rf"\S*(?:{word})\S*|\"[^\"]*\"|'[^']*'", " ", line)


#: a program run by a name no text spells: a glob or a variable after an interpreter or
#: ``.`` (``sh ./me?a.sh``, ``python3 $(GEN)``, round 88 case 10), or as the command itself
#: (``$(shell ./me?a.sh)``, round 89 case 08)
UNNAMED_RUN = re.compile(
    r"(?:\b(?:sh|bash|zsh|dash|ksh|python[\d.]*|perl|ruby|tclsh|node|source)[ \t]+(?:-\S+[ \t]+)*"
    r"|(?<![\w.-])\.[ \t]+)[\"']?[^\s;&|)]*[*?\[$]"
    r"|(?:\$\(shell[ \t]+|(?:;|(?<![\w$)}\]])[&|`])[ \t]*)\.{0,2}/[^\s;&|)*?\[]*[*?\[]"
)


def unescaped(text: str) -> str:
    """``text`` with the escapes a shell, Perl or Python resolves in a program's or a file's
    name resolved: ``\\x69``, ``\\151`` (printable only), and a backslash before a letter
    dropped (``g\\it``, ``qx{g\\x69t log}``, ``vari\\x61nts``: round 91 cases 06, 11, 12)."""
    text = unquoted(text)
    if "\\" not in text:
        return text
    text = re.sub(r"\\x([2-7][0-9a-fA-F])", lambda m: chr(int(m.group(1), 16)), text)
    text = re.sub(r"\\(0?[4-7][0-7]|1[0-7][0-7])(?![0-7])", lambda m: chr(int(m.group(1), 8)), text)
    return re.sub(r"\\(?=[A-Za-z])", "", text)


def unquoted(text: str) -> str:
    """``text`` with the quotes inside a word the shell removes dropped: ``g''it``,
    ``g"i"t`` (round 92 case 09)."""
    return re.sub(
        r"(?<=\w)(?:''|\"\"|'(\w+)'|\"(\w+)\")(?=\w)",
        lambda m: m.group(1) or m.group(2) or "",
        text,
    )
