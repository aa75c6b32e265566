"""Build lines that test or read files by a name they do not spell out (round 84, class B).

The named-file rule (:mod:`rtlopt.check._named_files`) matches the names a build text writes
out. A build can also reach a file by a name it never writes whole: built from pieces
(``$(wildcard $(addsuffix .v,fast_key))``, ``Path("fast_key").with_suffix(".v")``,
``"fast_key" + ".v"``, ``fast_key''.v``), a glob of any shape (``$(wildcard fast_*)``), a
variable no build text assigns (a loop's, the environment's), a recursive search or a
listing of a folder (``grep -r``, ``find``, ``ls``, ``os.walk``, ``listdir``, ``iterdir``),
or names read from a documentation or data file (``Path("docs/variants.md").read_text()``).
No enumeration of such forms is complete, so this rule fails closed by class: a line that
tests or reads files (or assigns a variable such a line reads) with any of these gives a
*reach* -- the folders it could reach, or every file -- and every added or deleted file in
that reach, and every edited documentation file in it when the line reads file text, is a
finding. Plain source lists are not asked (the caller passes only lines that are none).
"""

from __future__ import annotations

import fnmatch
import re
import shlex
from collections.abc import Set
from dataclasses import dataclass
from pathlib import PurePosixPath

__all__ = [
    "PLAIN_GLOB",
    "WORD",
    "Reach",
    "file_operation",
    "open_reach",
    "scripted",
    "tcl_assigned",
]


@dataclass(frozen=True)
class Reach:
    """What a line may reach by names it does not spell out: ``folders`` (empty: any file),
    whether it reads file text (``reads``: an edit is seen) and why (for the finding)."""

    folders: tuple[str, ...]
    reads: bool
    why: str
    glob: str = ""

    def covers(self, rel: str, edited: bool) -> bool:
        """Whether a change of ``rel`` (``edited``: its text, not its existence) is in reach."""
        if edited and not self.reads:
            return False
        if self.glob:
            return fnmatch.fnmatchcase(rel, self.glob) or fnmatch.fnmatchcase(rel, "*/" + self.glob)
        if not self.folders:
            return True
        return any(
            rel == f or rel.startswith(f + "/") or f"/{f}/" in f"/{rel}" or rel.endswith("/" + f)
            for f in self.folders
        )


#: A line that tests files' existence or lists a folder.
_TESTS = re.compile(
    r"\$[({]\s*wildcard\b|\[\[?\s+!?\s*-[a-zA-Z]\s|\btest\s+!?\s*-[a-zA-Z]\s|\bls\b|\bfind\b"
    r"|exists?\b|\bis_?file\b|\bis_?dir\b|\blistdir\b|\bscandir\b|\bwalk\b|\biterdir\b"
    r"|\b[ri]?glob\b|\bGLOB(?:_RECURSE)?\b|\bEXISTS\b|\bstat\b|access\s*\(|\bgit\s+ls-files\b"
    # round 85: Make's realpath/abspath, exists-like calls by any spelling (lexists,
    # getmtime, find_spec, which, lstat ...)
    r"|\$[({]\s*(?:realpath|abspath)\s|get[mca]time\b|getsize\b|find_(?:spec|module|loader|library)\b"
    r"|\bwhich\s*\(|samefile\b|is_?(?:link|symlink|mount)\b|stat\s*\(|\breadlink\b|\bcompgen\b",
)
#: A command that tests a folder's existence by entering it (round 85 case 08).
_CD = re.compile(r"(?:^|[\s;&|(`])(?:cd|pushd|(?:os\.)?chdir)\b\s*\(?\s*[\"']?([^\s;&|)\"'`]+)")
#: A line that reads files' text.
_READS = re.compile(
    r"\b(?:cat|head|(?<!file )tail|grep|egrep|fgrep|rg|ag|ack|sed|awk|wc|diff|cmp|md5sum|sha\d*sum"
    r"|source|xargs|strings|sort|uniq|tac|nl|od|xxd|perl|python\d?)\b|-exec\b|^\s*\.\s"
    r"|\$[({]\s*file\s*<|(?<![<$(])<(?![<=(])\s*[\w$\"'./{]|\bopen\s*\(|\bread(?:_text|_bytes"
    r"|lines|line)?\s*\(|\bload(?:txt|s)?\s*\(|\bsafe_load\b|\bfileinput\b|\bREAD\b|\bSTRINGS\b"
    r"|^\s*-?s?include\s|\bgit\s+grep\b",
)
#: A name built from pieces: a Make function giving a name, Python's string or path
#: building, a shell word spliced from quotes or escapes, brace expansion.
_BUILT = re.compile(
    r"\$[({]\s*(?:addsuffix|addprefix|join|subst|patsubst|basename|notdir|dir|suffix|foreach"
    r"|call|eval|value|firstword|lastword|word|wordlist|file)\s"
    r"|[\"']\s*\+|\+\s*[\"']|\bf[\"'][^\"'\n]*\{|[\"']\s+%\s*[(\w]|[\"']%\s+[(\w]|\.format\s*\(|\bjoin\s*\("
    r"|\bwith_(?:suffix|name|stem)\b|\bjoinpath\b"
    r"|\)\s+/\s*[\w\"']|\)\s*/\s+[\w\"']|\)\s*/\s*[\"']|[\"']\s+/\s*\w"
    r"|\w(?:''|\"\")|(?:''|\"\")\w|[\"'][\w.-]+[\"'][\w.]|\w\\[\w.]"
    r"|(?<!\w)(?!(?:[rRbBuUfF]|[rR][bBfF]|[bBfF][rR])[\"'])\w+[\"'][\w.]+[\"']"
    r"|\{[^{}\s]*,[^{}\s]*\}|\$'|\b(?:chr|ord|reversed)\s*\(|\.\[[^\]\s]+\]|\w\[[^\]\s]+\][\w.]"
)
#: A recursive search or a listing of a folder.
_LISTING = re.compile(
    r"\bgrep\b[^;|&)]*\s(?:-\w*[rR]\w*|--recursive|--dereference-recursive|-d\s*recurse)\b"
    r"|\b(?:rg|ag|ack)\b|\bfind\b|\bls\b|\b(?:walk|listdir|scandir|iterdir|rglob)\b"
    r"|\bgit\s+(?:grep|ls-files)\b|\bGLOB_RECURSE\b"
)
#: A data file a build may take names from (besides a documentation file).
_DATA_SUFFIXES = (
    ".txt",
    ".csv",
    ".tsv",
    ".json",
    ".hjson",
    ".yaml",
    ".yml",
    ".toml",
    ".ini",
    ".cfg",
    ".conf",
    ".lst",
    ".list",
    ".xml",
)
#: A variable's value (a positional parameter aside: its caller's line names the file).
_VARIABLE = re.compile(
    r"(?<!\\)\$\$?(?:\(([A-Za-z_][\w.-]*)\)|\{[#!]?([A-Za-z_][\w.-]*)|([A-Za-z_]\w*))"
)
#: Variables that never hold a name of the tree's files.
_NO_NAME = {
    "MAKE",
    "CURDIR",
    "RANDOM",
    "SECONDS",
    "LINENO",
    "SHELL",
    "MAKEFLAGS",
    "MAKELEVEL",
    "mktemp",
    "pwd",
    "PWD",
    "HOME",
    "TMPDIR",
    "BASH_SOURCE",
    "OPTARG",
    "COPROC_PID",
}
#: A Python call taking a path whose argument is a bare name: a loop's or a parameter's.
_BARE_ARG = re.compile(
    r"\b(?:Path|exists|isfile|isdir|is_file|is_dir|open|listdir|scandir|walk|glob|iglob"
    r"|getsize|stat|access|join)\s*\(\s*([A-Za-z_]\w*)\s*[,)]"
)
_SHELL_ASSIGN = re.compile(r"(?:^|[\s;(])(\w+)=(?!=)|\bfor\s+(\w+)\s+in\b")
#: A Tcl assignment (``set K value``): its variable is assigned.
_TCL_SET = re.compile(r"^\s*set\s+([A-Za-z_]\w*)\s+\S")
_GLOB_WORD = re.compile(r"[\w.*?/-]*[*?][\w.*?/-]*")
#: A word of a build text that may name a file (split at quotes, parentheses, operators).
WORD = re.compile(r"[^\s()'\"`;,=:<>|&{}$\\]+")


#: Build texts a build runs or reads as commands: Makefiles, scripts, CI and tool scripts.
_SCRIPT = re.compile(
    r"(?:^|/)(?:[\w.-]*akefile[\w.-]*|[\w.-]+\.(?:mk|mak|make|sh|bash|zsh|py|pyw|pl|tcl|tk"
    r"|cmake|do|ys|yml|yaml|nix|bzl|bazel|rb|ps1|bat|cmd|mill|sbt|scons|just|gradle|lua|js)"
    r"|CMakeLists\.txt|SConstruct|SConscript|BUILD|WORKSPACE|[Jj]ustfile|Rakefile|noxfile\.py)$"
)


def scripted(where: str, text: str) -> bool:
    """Whether the build text ``where`` (``text``) is a script or a build file: by its name,
    or a first line naming an interpreter (``#!``)."""
    return bool(_SCRIPT.search(where)) or text.startswith("#!")


def tcl_assigned(line: str) -> str:
    """The variable a Tcl ``set K value`` assigns, or ""."""
    m = _TCL_SET.match(line)
    return m.group(1) if m else ""


def file_operation(line: str) -> str:
    """The parts of ``line`` that name the files it tests or reads ("" when it tests or reads
    none): the arguments of Make's ``$(wildcard ..)`` or of a Python call (``exists(..)``,
    ``open(..)``), a shell command's words (``cat ..``, ``[ -f .. ]``), or the whole line
    when it tests or reads files in another form (``x.exists()``, ``os.listdir``)."""
    if not (_TESTS.search(line) or _READS.search(line)):
        line = _CASE_ARM.sub(" ", line)  # a case pattern matches a string, lists no file
        return line if _SHELL_GLOB.search(line) and _glob_reach(line, False) else ""
    parts = [_arguments(line, m.end()) for m in _CALLED.finditer(line)]
    if any(not p.strip() for p in parts):
        return line  # x.exists(): the name is before it
    parts += [m.group(0) for m in _SEGMENT.finditer(line)]
    rest = _SEGMENT.sub(" ", _CALLED.sub(" ", line))
    if _TESTS.search(rest) or _READS.search(rest) or _LISTING.search(line):
        return line
    return " ".join(parts)


#: A shell command (Make's ``$(shell ..)``, a script's ``set --``, ``echo``, ``printf``,
#: ``for .. in``): a glob in it is a listing (round 85 case 05).
_SHELL_GLOB = re.compile(
    r"\$[({]\s*shell\s|\b(?:echo|printf)\b|\bset\s+--?(?:\s|$)"
    r"|\bfor\s+\w+\s+in\s[^:\[\]()]*(?:;\s*do\b|$)"
)


_CASE_ARM = re.compile(r"^\s*\(?[^\s()]*\)(?=\s|$)")


#: A shell command that tests or reads the files of its words, up to its pipe or its end
#: (a redirection's target aside).
_SEGMENT = re.compile(
    r"(?:\b(?:cat|head|(?<!file )tail|grep|egrep|fgrep|rg|sed|awk|wc|diff|cmp|source|ls|find|md5sum"
    r"|sha\d*sum|xargs|stat|readlink|tac|nl|od|xxd|strings)\b|\[\[?\s|\btest\s"
    r"|(?<![<$(])<(?![<=(]))(?:\$[({][^)}]*[)}]|[^|;&)`>])*"
)


#: A call whose arguments name the files it tests or reads.
_CALLED = re.compile(
    r"\$[({]\s*wildcard\s|\b(?:Path|exists|isfile|isdir|is_file|is_dir|open|glob|iglob"
    r"|read_text|read_bytes|getsize|access)\s*\("
)


def _arguments(line: str, start: int) -> str:
    """The text from ``start`` to the parenthesis closing the call opened before it."""
    depth = 1
    for i in range(start, len(line)):
        depth += {"(": 1, "{": 1, ")": -1, "}": -1}.get(line[i], 0)
        if depth == 0:
            return line[start:i]
    return line[start:]


def open_reach(line: str, tested_assignment: bool, assigned: Set[str]) -> Reach | None:
    """The reach of ``line`` (no plain source list) by names it does not spell out, or None.
    ``tested_assignment``: the line assigns a variable a test or a read takes its name from;
    ``assigned``: the variables the build texts assign (any other is a computed name)."""
    reach = _reach(line, tested_assignment, assigned)
    if reach is None or (reach.folders and not reach.glob):
        return _cd_reach(line, bool(_READS.search(line))) or reach
    return reach


def _reach(line: str, tested_assignment: bool, assigned: Set[str]) -> Reach | None:
    subject = file_operation(line)
    if not subject and (
        not tested_assignment or re.search(r"=\s*\t|[;`|]|&&", line)  # a recipe's line
    ):
        return None
    reads = bool(_READS.search(line)) or tested_assignment
    line = subject or line
    why = _why(line, assigned, reads)
    if not why:
        return _glob_reach(line, reads)
    if why.startswith("names read from"):
        reads = False  # its names reach files' existence; its own edit is found by its name
    return Reach(() if not why.startswith("a listing") else _folders(line), reads, why)


def _cd_reach(line: str, reads: bool) -> Reach | None:
    """The reach of a folder ``line`` enters (``cd variants``, ``os.chdir("variants")``): its
    existence is tested, so a file added to or deleted from under it is in reach."""
    for m in _CD.finditer(line):
        folder = re.sub(r"^(?:\./)+", "", m.group(1)).rstrip("/")
        if folder in ("", ".", "-", "~") or folder.startswith(("..", "/", "~", "$")):
            continue  # a parent, an outside or a computed folder: the variable rule's
        return Reach((folder,), reads, f"a folder tested by entering it ({folder})")
    return None


def _why(line: str, assigned: Set[str], reads: bool) -> str:
    """Why ``line`` reaches files it does not name: "" when it names all it reaches."""
    for m in re.finditer(r"\s-[ceE]\s+(?:\"([^\"\n]*)\"|'([^'\n]*)')", line):
        code = m.group(1) or m.group(2)  # code another language embeds (python3 -c "...")
        if (_TESTS.search(code) or _READS.search(code)) and _BUILT.search(code):
            return "a name built from pieces"
    line = re.sub(r"\'\'\'|\"\"\"", "_", line)  # a docstring's quotes
    line = _MAKEFILE_LIST.sub("Makefile", line)  # $(lastword $(MAKEFILE_LIST)): a Makefile
    line = re.sub(r"\"[^\"\n]*\"|'[^'\n]*'", _unspaced, line)  # a message, a pattern
    here = {a or b for a, b in _SHELL_ASSIGN.findall(line)}  # j=1; ..$$j, for f in ..; $$f
    assigned = assigned | here
    quoted = [m.span() for m in re.finditer(r"'[^'\n]*'", line)]
    if _LISTING.search(line):
        return "a listing or a recursive search"
    for m in _BUILT.finditer(line):
        if not (m.group(0).startswith("$") and re.search(r"[\w.)/-]$", line[: m.start()])):
            return "a name built from pieces"  # (a Make function inside a word: any text)
    for m in _VARIABLE.finditer(line):
        name = next(g for g in m.groups() if g)
        if (m.group(0).startswith("$$") or m.group(3)) and any(
            a < m.start() < b for a, b in quoted
        ):
            continue  # a shell's variable in single quotes: no variable
        if re.match(r"/[\w./-]*[A-Za-z0-9][\w.-]*(?![\w.*?\[{$/-])", line[m.end() :]):
            continue  # a folder's variable before a name spelled out: $(D)/k.md
        if re.match(r"[\w.-]", line[m.end() : m.end() + 1]) or re.search(
            r"[\w.-]$", line[: m.start()]
        ):
            continue  # a part of a word: the named-file rule reads it as any text ($(V)_key.v)
        if name not in assigned and name not in _NO_NAME:
            return f"a name holding ${name}, which no build text assigns"
    bare = _BARE_ARG.search(line)
    if bare and bare.group(1) not in assigned and bare.group(1) not in ("__file__",):
        return f"a name held by {bare.group(1)}, which no build text assigns"
    for word in WORD.findall(line) if reads else ():
        name = PurePosixPath(word.strip("./"))
        if name.suffix.lower() in _DATA_SUFFIXES or _is_doc(str(name)):
            return f"names read from {word}"
    return ""


_MAKEFILE_LIST = re.compile(r"\$\((?:lastword|firstword)\s+\$\(MAKEFILE_LIST\)\)")


def _unspaced(m: re.Match[str]) -> str:
    """A quoted string holding a space (a message, a pattern: no file name) as one word."""
    return "_" if re.search(r"\s", m.group(0)) else m.group(0)


def _glob_reach(line: str, reads: bool) -> Reach | None:
    """A glob with no folder or suffix (``fast_*``, ``*``), which the named-file rule does not
    read as one: its reach."""
    for m in WORD.finditer(line):
        word = m.group(0)
        if not _GLOB_WORD.fullmatch(word) or PLAIN_GLOB.fullmatch(word):
            continue
        if line[max(m.start() - 1, 0) : m.start()] == "\\":
            continue  # a regular expression's \s*, \w+
        word = re.sub(r"^(?:\.{1,2}/|/)+", "", word)
        if re.search(r"\d[*?]+\w|\w[*?]+\d", word) or word.startswith("?"):
            continue  # arithmetic (4*n, 16*1024), a regular expression's (?P
        if not re.search(r"[A-Za-z0-9]", word):
            if word == "*" and _ALONE.match(line[max(m.start() - 1, 0) : m.end() + 1]):
                return Reach((), reads, "the glob *")
            continue
        return Reach((), reads, f"the glob {word}", glob=word)
    return None


#: A ``*`` standing alone as a glob (``$(wildcard *)``, ``for f in *;``, ``ls *``), not a
#: product (``a * b``).
_ALONE = re.compile(r"^(?:[\s(\"'=]\*[)\"';]?|[(\"'=]?\*[\s)\"';]|\s\*)$|^\*$")
#: A glob the named-file rule reads (with a folder or a suffix).
#: A file glob: path characters only, with a folder or a suffix (``*.v``, ``rtl/*``,
#: ``x.*``), not ``*d`` (a format's ``%d``), ``s*`` or ``2*i+2``.
PLAIN_GLOB = re.compile(r"[\w.*?/-]*(?:/|\.[\w*?]+$)[\w.*?/-]*")


def _is_doc(rel: str) -> bool:
    from rtlopt.check._build_texts import is_documentation

    return "." in rel and is_documentation(rel)


def _folders(line: str) -> tuple[str, ...]:
    """The folders a listing or a recursive search of ``line`` reads, () for any (the
    current folder, a computed one, or one it does not say)."""
    m = re.search(r"\b(?:walk|listdir|scandir)\s*\(\s*[\"']([\w./-]*)[\"']\s*\)", line) or (
        re.search(r"\bPath\s*\(\s*[\"']([\w./-]*)[\"']\s*\)\s*\.\s*(?:iterdir|rglob)\b", line)
    )
    if m:
        return _clean([m.group(1)])
    m = re.search(r"\b(find|ls|grep|rg|ag|ack)\b([^;|&)`]*)", line)
    if not m or re.search(r"\b(?:walk|listdir|scandir|iterdir|rglob|git)\b", line):
        return ()
    try:
        words = shlex.split(m.group(2))
    except ValueError:
        return ()
    if m.group(1) == "find":
        paths = []
        for w in words:
            if w.startswith(("-", "(", "!")):
                break
            paths.append(w)
    else:
        paths = [w for w in words if not w.startswith("-")]
        if m.group(1) != "ls" and not re.search(r"(?:^|\s)(?:-e|-f|--regexp|--file)\b", m.group(2)):
            paths = paths[1:]  # the pattern
    return _clean(paths)


def _clean(paths: list[str]) -> tuple[str, ...]:
    out = []
    for p in paths:
        p = re.sub(r"^(?:\./)+", "", p).rstrip("/")
        if p.startswith(("/", "~")):
            out.append("/" + p)  # outside the tree: reaches none of its files
            continue
        if p in ("", ".") or p.startswith("..") or re.search(r"[$*?\[{]", p):
            return ()  # the current folder, a parent, or a computed one: any file
        out.append(p)
    return tuple(out)
