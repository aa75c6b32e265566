"""The gate's rule on files a build text names where it does not compile them.

A build reads a file's existence or its text in many forms: ``ifneq ($(wildcard opt.v),)``,
``[ -f fast.v ] && DEF=-DFAST``, ``test -e``, ``$(shell cat k.md)``, a script opening it.
Adding or deleting a Verilog file, or editing a documentation file (which the gate otherwise
reads as harmless), then changes the build though no module the gate judges changed. So each
such change is a finding when a build text (any file that is neither Verilog nor
documentation: :func:`rtlopt.check._build_files.build_texts`) names the file, by its path,
a path it ends with, or a glob (``%`` a Make pattern) matching it, on a line that is not
plainly a source list. A source list tests, reads and branches on nothing (no
``$(shell``, ``ifneq``, ``[ ``, ``test``, ``cat``, ``&&``, a loop ...) and is a line naming
a compiler (``iverilog ... $(wildcard rtl/*.v)``), a list entry (a filelist's, a YAML or a
Python list's), or, for a Verilog file or a glob, a variable assignment or Make
prerequisites. Comment lines (``#``) and quoted messages of three words or more name no
file. A file compiled this way is judged as a source (a new module is screened and compared
with the design's names; a deleted one is checked for its users; a documentation file by
its Verilog view).

A variable assigned a name (``OPT = opt.v``) that such a line reads (``ifneq ($(wildcard
$(OPT)),)``) makes its assignment such a line too.

A computed part of a name (``$(DOC).md``, ``f"{variant}_key.v"``) matches any text.

A variable passed on through another (``A = $(OPT)``, ``A = OPT``) is tested when the other
is, to any depth; a name some line assigns, read bare (a Python name), is read like ``$(OPT)``.

A line where a name, or its existence through ``$(wildcard)``, turns into something other
than a source tests it: a Make function other than a source list's (``wildcard``, ``sort``,
``addprefix`` of a folder, ``addsuffix`` of a suffix) -- ``$(patsubst %_key.v,-DFAST,..)``,
``subst``, ``dir``, ``$(addprefix -D,..)`` --, a substitution reference (``$(K:.v=)``), a
computed variable name, a shell expansion that edits a value (``${K%.v}``, ``${K:+x}``), a
flag glued to a value (``-D$(K)``, ``f"-D{k}"``), a Python call other than a list's or a
runner's (``len``, ``map``, ``.replace``), an operator (``and``, ``in``, ``lambda``).
Make prerequisites are tested when their rule reads them through an automatic variable
(``$^ $+ $? $< $| $(^D)``) on a line that is no plain compile line (``$(if $(word 3,$^),
-DFAST)``, ``./build.sh $^``, ``-I$(<D)``); such a line outside a recipe tests every rule's,
and so does a second pattern rule (which one builds a target depends on which files exist).
A variable is tested when any build text tests it (``export``, ``include``); a ``define``
block's lines are assignments to its variable; an index into a list (``[1]``) is a test.

A script's line that tests or reads files by a name it does not spell out (built from
pieces, a glob of any shape, a variable no build text assigns, a listing or a recursive
search of a folder, names read from a documentation or data file) fails closed by class:
every added or deleted file it could reach, and every edited documentation file when it
reads file text, is a finding (:mod:`rtlopt.check._open_names`). Added and deleted
documentation files are targets too (``ifneq ($(wildcard NOTES.md),)``).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Mapping, Set
from pathlib import Path, PurePosixPath

from rtlopt.check._metadata_closed import unescaped
from rtlopt.check._open_names import (
    PLAIN_GLOB,
    WORD,
    file_operation,
    open_reach,
    scripted,
    tcl_assigned,
)

__all__ = ["named_file_findings"]

#: Calls that pass a list of sources on unchanged (Python's, a CMake's or a Tcl's).
_CALLS = (
    "glob",
    "glob.glob",
    "sorted",
    "list",
    "Path",
    "os.path.join",
    "str",
    "run",
    "subprocess.run",
    "subprocess.check_call",
    "subprocess.call",
    "subprocess.Popen",
    "subprocess.check_output",
    "os.system",
    "print",
)
#: A line that reads a file's existence, its text or its mode, or branches on one.
_DATA = re.compile(
    r"\$\(\s*(?:shell|if|or|and|filter|filter-out|findstring|file|strip|firstword|lastword|"
    r"word|words|notdir|basename|suffix|realpath|abspath|eval|call|foreach)\b"
    r"|\bif(?:n?eq|n?def)?\b|\belse\b|\bthen\b|\bcase\b|\bwhile\b|\bfor(?:each)?\b|\[\s|\btest\b|\bcat\b"
    r"|\bhead\b|\btail\b|\bgrep\b|\bsed\b|\bawk\b|\bperl\b|\bpython\d?\b|\bexists?\b"
    r"|\bis_?file\b|\bis_?dir\b|\bopen\b|\bsource\b|\bread\b|\bcp\b|\bmv\b|\bln\b|\bchmod\b"
    r"|\bstat\b|\blistdir\b|\bwalk\b|\bfind\b|\bls\b|\bwc\b|\bdiff\b|\bcmp\b"
    r"|\$readmem|\$fopen|(?<!\$)(?<!\$\()(?<!\$\{)<|\$[({]<(?![DF][)}])|`|&&|\|\||(?:^|\s)-[fFcx]\s"
    # a name turned into something else: a Make function other than a source list's
    # (patsubst, subst, dir, a flag's addprefix ...), a substitution reference
    # ($(K:.v=)), a computed variable name ($(FAST_$(K))), a shell expansion that edits a
    # value (${K%.v}, ${K:+x}, ${!K}), a flag glued to a value (-D$(K), f"-D{k}", "-D" +),
    # a Makefile read as such (include), a call or an operator of Python's or a shell's
    r"|\$[({]\s*(?!(?:wildcard|sort)\s|addprefix\s+(?![-+])[\w.$(){}/-]*/\s*,|addsuffix\s+\.\w+\s*,)"
    r"[\w-]+\s"
    r"|\$[({][\w.-]+:[^)}]*=|\$[({][\w.-]*\$|\$\{[#!]|\$\{\w+(?::?[-+=?]|[#%/^,:\[])"
    r"|(?<=[\w)\]])\["
    r"|(?:-D|\+define\+|-P)[\w.=]*[$%{]|[\"']-D[\w=]*[\"']\s*\+|^\s*-?s?include\s"
    r"|\b(?:and|or|not|in|lambda)\b|\b(?:basename|dirname|tr|cut|xargs|expr|set)\b"
    rf"|(?<![$\w])(?<!\w\.)(?<!\$\()(?<!\$\{{)(?!(?:{'|'.join(_CALLS)})\s*\()[A-Za-z_][\w.]*\s*\(",
    re.I,
)
#: A compiler or a tool that reads the files of its line as Verilog sources.
_TOOL = re.compile(
    r"\b(?:iverilog|verilator|yosys|read_verilog|read_systemverilog|vcs|xrun|irun|ncverilog"
    r"|vlog|xvlog|qverilog|vsim|xelab|sv2v|slang|surelog|sby|verible[\w-]*)\b"
)
_ASSIGN = re.compile(r"^\s*(?:export\s+|override\s+)?[A-Za-z_][\w.-]*\s*(?:[:+?!]?=|::=)")
_PREREQUISITES = re.compile(r"^[^\s=#:][^=#:]*:(?![=:])")
#: A list entry: a YAML item (``- rtl/a.v : {file_type : verilogSource}``), or a line of one
#: path (a filelist's, a Python or JSON list's ``"rtl/a.v",``).
_LIST_ENTRY = re.compile(r"^\s*(?:-\s+\S|[\"']?[\w./*%${}()+-]+[\"']?\s*,?\s*$)")


def _logical_lines(text: str) -> Iterable[tuple[int, str]]:
    """The lines of ``text`` with their backslash continuations joined: (first line, text)."""
    start, parts = 0, list[str]()
    for i, line in enumerate(text.split("\n")):
        if not parts:
            start = i + 1
        elif parts[-1].endswith("$"):  # Make's `$\` joins the next line with no space
            line = parts.pop()[:-1] + line.lstrip()
        if line.rstrip().endswith("\\"):
            parts.append(line.rstrip()[:-1])
            continue
        yield start, " ".join([*parts, line])
        parts = []
    if parts:
        yield start, " ".join(parts)


def _names(line: str) -> list[str]:
    """The words of ``line`` that may name a file or a glob of files: a path, a file name
    with a suffix, a pattern holding a letter or digit (leading ``./``, ``../`` and ``/``
    dropped; ``%`` read as ``*``), outside quoted messages."""
    out = []
    line = _COMPUTED.sub("*", plain_words(line))  # a computed part of a name matches any text
    for word in WORD.findall(line):
        if word.count("[") != word.count("]"):  # a Tcl command's brackets: [glob rtl/*.v]
            word = word.strip("[]")
        word = re.sub(r"^(?:\.{1,2}/|/)+", "", word).replace("%", "*")
        if not re.search(r"[./*?]", word) or not re.search(r"[A-Za-z0-9]", word):
            continue
        if any(c in word for c in "*?") and not PLAIN_GLOB.fullmatch(word):
            continue  # a pattern of a regular expression, a format, arithmetic: no file glob
        out.append(word)
    return out


#: A variable's or a format field's value inside a word (``$(DOC).md``, ``${V}_key.v``,
#: ``f"{variant}_key.v"``): any text.
_COMPUTED = re.compile(r"\$\(\w+\)|\$\{\w+\}|\$\w+|(?<![$\w])\{\w+\}(?=[\w.])")
#: A variable standing for a folder (``$(RTL)/``, ``${D}/``, ``$D/``): the path after it
#: names the file by its end.
_VARIABLE_DIR = re.compile(r"\$(?:\([\w.-]+\)|\{[\w.-]+\}|\w+)/")
#: A quoted string, each from its opening quote (a message is one of three words or more:
#: :func:`_message`)
_PROSE = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")
#: a program running the quoted string after it as code (``sh -c "grep -q k f.v"``)
_RUNS_CODE = re.compile(
    r"(?:\b(?:ba|z|da|k)?sh|python[\d.]*|perl|ruby|node|tclsh)\b[^;&|\"'\n]*?\s-[a-zA-Z]*[ceE]\b"
    r"[^;&|\"'\n]*$|\beval\s*$"  # -c after other options, before `--` (round 91 cases 07, 10)
)


def _source_line(line: str) -> str:
    """How ``line`` is plainly a source list, testing and reading nothing: "list" (a tool's
    line, a list entry), "other" (a variable assignment, Make prerequisites, whose recipe may
    read the file) or ""."""
    if _DATA.search(line):
        return ""
    if _TOOL.search(line) and _OBSERVED.search(line):
        return ""  # a compile whose outcome the build reads (``-iverilog -o k.vvp f.v``)
    if _TOOL.search(line) or _LIST_ENTRY.match(line):
        return "list"
    return "other" if _ASSIGN.match(line) or _PREREQUISITES.match(line) else ""


#: make told to go on past a recipe's error: ``.IGNORE:``, ``-i``/``-k`` in MAKEFLAGS
_IGNORING = re.compile(
    r"^\.IGNORE\s*:|\bMAKEFLAGS\b.*(?:\s-[a-zA-Z]*[ik]\b|--ignore-errors|--keep-going)"
)
#: a compile whose success or output the build reads: errors ignored (Make's ``-``), a list
#: operator after it (round 91 case 16)
_OBSERVED = re.compile(r"^\t[@+]*-|&&|\|\||;")


def _matches(rel: str, name: str) -> str:
    """How ``name`` names the path ``rel``: "name", "glob" or ""."""
    if any(c in name for c in "*?"):
        if fnmatch.fnmatchcase(rel, name) or fnmatch.fnmatchcase(rel, "*/" + name):
            return "glob"
        return ""
    return "name" if rel == name or rel.endswith("/" + name) else ""


def named_file_findings(
    changes: Mapping[str, str], texts: Iterable[tuple[str, str]]
) -> list[tuple[str, str]]:
    """(path, finding) for each added or deleted Verilog file and each edited documentation
    file (``changes``: path -> git's status letter) a build text (``texts``: (path, text))
    names where it does not compile it (see the module's doc)."""
    from rtlopt.check._build_texts import is_documentation, is_verilog
    from rtlopt.check._yaml_text import is_yaml, yaml_env

    targets = {
        rel: status
        for rel, status in changes.items()
        if (is_verilog(rel) and status in "AD") or is_documentation(rel)
    }
    found: dict[str, tuple[str, int, str]] = {}
    texts = list(texts) if targets else []
    read = [
        (where, _lines(text), scripted(where, text))
        for where, text in (texts if targets else ())
        if not PurePosixPath(where).name.startswith(".git")  # git's own files: their rules
    ]
    tested = _tested_variables([lines for _, lines, _ in read])
    file_tested = _tested_variables([lines for _, lines, _ in read], file_operation)
    assigned = {_assigned(ln) or tcl_assigned(ln) for _, lines, _ in read for _, ln in lines} - {""}
    assigned |= {n for where, text in texts if is_yaml(where) for n in yaml_env(text)}
    patterns = sum(len(_pattern_rules(lines)) for _, lines, _ in read)
    search_path = any(_search_path(line) for _, lines, _ in read for _, line in lines)
    # make going on past errors: a compile's outcome is read (round 92 case 05)
    ignoring = any(_IGNORING.search(line) for _, lines, _ in read for _, line in lines)
    for where, lines, script in read:
        rules = _tested_prerequisites(lines, search_path)
        if patterns > 1:  # which pattern rule builds a target depends on which files exist
            rules |= _pattern_rules(lines)
        for number, line in lines:
            names = _names(line)
            source = "" if ignoring and _TOOL.search(line) else _source_line(line)
            if source and (_assigned(line) in tested or number in rules):
                source = ""  # OPT = opt.v, and ifneq ($(wildcard $(OPT)),) tests it
            reach = (
                None
                if source or not script
                else open_reach(line, _assigned(line) in file_tested, assigned)
            )
            for rel in targets.keys() - found.keys():
                edited = targets[rel] not in "AD"
                if reach and reach.covers(rel, edited):
                    found[rel] = (where, number, reach.why)
                    continue
                hows = {_matches(rel, n) for n in names} - {""}
                if script and not source and not edited and _folder_named(rel, line):
                    # a script's chmod/mkdir/rev-parse/rename of the folder tests it; a
                    # filelist's library folder (-y) is the library rule's
                    hows = {"folder"}
                if not hows or _compiled(source, is_verilog(rel), hows):
                    continue
                found[rel] = (where, number, "")
    return [(rel, _finding(rel, targets[rel], *found[rel])) for rel in sorted(found)]


def _folder_named(rel: str, line: str) -> bool:
    """Whether a word of ``line`` (quoted text too: code handed to ``python -c``) names a
    folder holding ``rel`` (``variants`` or ``rtl/variants`` for ``rtl/variants/k.v``): a
    line that tests or reads the folder in any way (``chmod``, ``mkdir ... ||``, ``git
    rev-parse HEAD:variants``, a rename) tells whether it exists, so what it holds is named
    too."""
    parts = rel.split("/")[:-1]
    folders = {
        "/".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1)
    }
    plain = _ASSIGNED_NAME.sub(" ", plain_words(line, messages=False))
    moves = re.compile(r"\b(?:cd|pushd)\s+\S+")  # changing to a folder reads nothing of it
    rest = moves.sub(" ", line) + "\n" + moves.sub(" ", plain)
    if _WORKING_FOLDER.search(rest) or _NO_OPERAND.search(rest):
        return True  # the working folder holds every folder (its link count: round 90 case 06)
    words = WORD.findall(plain) if folders else []
    return any(re.sub(r"^(?:\./)+", "", w).strip("/") in folders for w in words)


#: the name a shell or Python assignment gives a variable (``src="git+..."``) and a
#: reference to one (``"${src}"``): no folder's (held-out trial 49: the workflow ``rtlopt
#: init`` wrote named biriscv's ``src/``)
_ASSIGNED_NAME = re.compile(r"(?<![\w$./-])[A-Za-z_]\w*(?=\s*=(?!=))|\$\{\w+\}|\$\(\w+\)|\$\w+")

#: a command reading a folder given none: the working folder (``du -s --inodes``: round 91
#: case 14)
_NO_OPERAND = re.compile(r"\b(?:du|ls|tree|vdir|dir)\b(?:\s+-[^\s;&|)`]+)*\s*(?:$|[;&|)`])", re.M)

#: the working folder or its parent as a whole word (``stat -c %h .``, ``ls ..``,
#: ``$(CURDIR)``, ``$$PWD``, `` `pwd` ``), not a path's start (``./x``, ``$(CURDIR)/x``)
_WORKING_FOLDER = re.compile(
    r"/proc/(?:self|\$+\w*|\d+)/cwd\b"  # the working folder by its link (round 92 case 07)
    r"|(?<![\w./$@%{(-])(?:\.{1,2}/?|\$\(CURDIR\)|\$\$?\{?PWD\}?|`pwd`|\$\$?\((?:shell\s+)?pwd\))"
    r"(?![\w./-])"
)


def plain_words(line: str, messages: bool = True) -> str:
    """``line`` with its words as the shell passes them (round 87 cases 08-11): quoted
    messages and variable folders (``$(RTL)/``, ``$$PWD/``) dropped, escapes (``var\\iants``)
    and quotes inside a word (``var"ia"nts``) removed, ``/./``, ``//``, ``x/../``, ``~+/``
    and a last ``/.`` collapsed (round 88 cases 04, 06, 09);
    ``messages=False`` keeps quoted text (code handed to ``python -c``)."""
    line = _PROSE.sub(_message, line) if messages else line
    line = re.sub(r"\\(?=[\w./-])", "", unescaped(line))  # vari\x61nts: round 91 case 12
    line = re.sub(r"(?<=[\w./)}-])[\"']+|[\"']+(?=[\w./$-])", "", line)
    line = _VARIABLE_DIR.sub(" ", line)  # after the quotes: "$$PWD"/variants
    line = re.sub(r"(?<![\w.-])~[+-]?/", "", line)  # bash's ~+ (the working folder), ~-
    line = re.sub(r"(?<=[\w.-])/{2,}", "/", line)
    line = re.sub(r"(?<=/)\.(?:/|(?![\w.-]))", "", line)
    while True:  # rtl/x/../y is rtl/y
        folded = re.sub(r"(?<![\w.-])(?!\.\.?/)[\w.-]+/\.\./", "", line)
        if folded == line:
            return line
        line = folded


def _message(m: re.Match[str]) -> str:
    """A quoted string as :func:`plain_words` reads it: one of three words or more is a
    message (``"see README.md for how"``, naming no file a build reads), dropped, unless it
    is code: a shell operator or a variable in it (``"grep -q k f.v && echo -DF"``, round 89
    case 04) or handed to a program running it (``sh -c "grep -q k f.v"``, round 90 case
    12); fewer words are kept (round 90 case 14: ``"fast_key" f.v -e "fast_key"``)."""
    text = m.group(0)
    if len(text[1:-1].split()) < 3 or re.search(r"&&|\|\||[;|<>$`]", text):
        return text
    return text if _RUNS_CODE.search(m.string[: m.start()]) else " "


_VARIABLE_USE = re.compile(r"\$(?:\(([\w.-]+)\)|\{([\w.-]+)\}|([A-Za-z_]\w*))")


def _assigned(line: str) -> str:
    """The variable ``line`` assigns, or ""."""
    m = _ASSIGN.match(line)
    return (
        re.sub(r"^\s*(?:export\s+|override\s+)?", "", m.group(0)).split("=")[0].strip(" :+?!")
        if m
        else ""
    )


def _lines(text: str) -> list[tuple[int, str]]:
    """The logical lines of ``text`` but comments, a line of a multi-line Make variable
    (``define K`` ... ``endef``) read as an assignment to it (``K += line``)."""
    out, block = [], ""
    for number, line in _logical_lines(text):
        if line.lstrip().startswith("#") and not block:
            continue  # a define block's `#` line is its text (round 90 case 16)
        m = _DEFINE.match(line)
        if m:
            block = m.group(1)
        elif block and re.match(r"\s*endef\b", line):
            block = ""
        elif block:
            line = f"{block} += {line}"
        out.append((number, line))
    return out


_DEFINE = re.compile(r"^\s*(?:export\s+|override\s+)*define\s+([\w.-]+)")


def _pattern_rules(lines: list[tuple[int, str]]) -> set[int]:
    """The numbers of the lines of Make pattern rules (``%.vvp: %.v``, ``.v.vvp:``)."""
    return {
        n
        for n, ln in lines
        if not ln.startswith("\t")
        and _PREREQUISITES.match(ln)
        and not _ASSIGN.match(ln)
        and re.match(r"^\s*(?:[^:]*%[^:]*|\.\w+\.\w+)\s*:", ln)
    }


def _tested_variables(
    texts: list[list[tuple[int, str]]], reads: Callable[[str], str] | None = None
) -> set[str]:
    """The variables a line that is no source list reads (``$(OPT)``, ``${OPT}``, ``$OPT``,
    or a bare name some line of its text assigns, as Python reads one), and every variable
    such a variable's value passes on (``A = $(OPT)``, ``A = OPT``), to any depth, over all
    the build texts (one sets a variable, another tests it: ``export``, ``include``)."""
    out: set[str] = set()
    passes: dict[str, set[str]] = {}
    for lines in texts:
        values: dict[str, list[str]] = {}
        for _, line in lines:
            name = _assigned(line)
            if name:
                values.setdefault(name, []).append(line.split("=", 1)[1] if "=" in line else "")

        def uses(text: str, names: Set[str] = values.keys()) -> set[str]:
            found = {next(g for g in m.groups() if g) for m in _VARIABLE_USE.finditer(text)}
            return found | (set(_BARE_NAME.findall(text)) & names)

        for _, line in lines:
            if not _source_line(line):
                out |= uses(line if reads is None else reads(line))
        for name, texts_ in values.items():
            passes.setdefault(name, set()).update(*(uses(v) for v in texts_))
    todo = list(out)
    while todo:
        new = passes.get(todo.pop(), set()) - out
        out |= new
        todo.extend(new)
    return out


#: Make's automatic variables of a rule's prerequisites (``$^ $+ $? $< $|``, ``$(^D)``,
#: ``${<F}``), not a shell's ``$$?``.
_AUTOMATIC = re.compile(r"(?<!\$)\$(?:[\^+?<|]|[({][\^+?<|][DF]?[)}])")


def _tested_prerequisites(lines: list[tuple[int, str]], search_path: bool) -> set[int]:
    """The (first line) numbers of Make prerequisite lines whose rule reads its prerequisites
    through an automatic variable on a line that is no plain compile line
    (``$(if $(word 3,$^),-DFAST)``, ``./build.sh $^``): the rule tests them. Such a line
    outside a recipe (a variable's value, expanded in any recipe) tests every rule's, and
    so does a search path (``VPATH``, ``vpath``) any build text sets (``search_path``)."""
    out: set[int] = set()
    rules: list[int] = []
    every = {n for n, ln in lines if _PREREQUISITES.match(ln)}
    if search_path:
        return every  # a prerequisite is found where it exists along a search path
    for number, line in lines:
        head, recipe = ("", line) if line.startswith("\t") else (line, "")
        if head and _PREREQUISITES.match(line) and not _ASSIGN.match(line):
            rules.append(number)
            head, _, recipe = line.partition(";")
        if _AUTOMATIC.search(head) or (_AUTOMATIC.search(recipe) and not rules):
            return every  # a variable's value, read in any recipe
        if _AUTOMATIC.search(recipe) and not _compiles_prerequisites(recipe):
            out.add(rules[-1])
    return out


def _search_path(line: str) -> bool:
    """Whether ``line`` sets Make's search path for prerequisites (``VPATH``, ``vpath``)."""
    return _assigned(line) == "VPATH" or bool(re.match(r"\s*vpath\s", line))


def _compiles_prerequisites(line: str) -> bool:
    """Whether ``line`` is a plain compile line that reads the prerequisites only as whole
    words (``iverilog -o $@ $^``), not a folder, a name or a part of one (``-I$(<D)``)."""
    words = line.split()
    return _source_line(line) == "list" and all(
        w in ("$^", "$+", "$<") for w in words if _AUTOMATIC.search(w)
    )


_BARE_NAME = re.compile(r"(?<![\w$.])[A-Za-z_]\w*(?![\w(])")


def _compiled(source: str, verilog: bool, hows: set[str]) -> bool:
    """Whether a line of kind ``source`` (:func:`_source_line`) naming a file (``hows``: by
    "name", by "glob") compiles it, as far as the gate reads it: a Verilog file on any source
    line; a documentation file by a glob, or by its name on a tool's line or in a list."""
    if not source:
        return False
    return verilog or hows == {"glob"} or source == "list"


def _finding(rel: str, status: str, where: str, line: int, why: str = "") -> str:
    what = {"A": "added", "D": "deleted"}.get(status, "edited")
    if why:
        return (
            f"{what}, and {Path(where).as_posix()} at line {line} tests or reads files by "
            f"{why}, which may reach it: rtlopt cannot follow which files such a build reads; "
            "check the change by hand and pass --trust-config if the build's results stay "
            "the same"
        )
    return (
        f"{what}, and {Path(where).as_posix()} names it at line {line}, not plainly as a source "
        "to compile: a build may test whether it exists or read its text, which rtlopt cannot "
        "follow in every form; check the change by hand and pass --trust-config if the "
        "build's results stay the same"
    )
