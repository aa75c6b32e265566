"""A header a build writes, for :mod:`._tb_x_folders` (round 86: cases 01, 02, 07, 08, 13, 14).

A testbench's ```include "stim.vh"`` reads the file its tool finds first: Icarus looks in its
working folder, then in each ``-I`` folder in order; other tools look beside the including
file too. A build that writes a file of that name (``printf .. > gen/stim.vh``, ``> stim.vh``
in the working folder, a generator script, ``cp``) may put it ahead of the committed header
through any include folder: a computed one (``-I$(G)``), a quoted one (``-I"gen"``), one in a
command file it writes (``printf '+incdir+gen\\n' > cmds.f``), or none at all (the working
folder). Which text that build reads is unknown, so the x analysis feeds every input. The
rule judges the file's name, never the folders, failing closed:

- a writer (a text the testbench's build may run: :func:`_writers`) naming the header's
  file name outside comments, as the shell passes it, may write it (any command may);
- a write whose target's name is computed in part (``st$(X)im.vh``, ``$(N).vh``) or a
  pattern rule's (``%.vh``) writes it where the name's literal parts match; a wholly
  computed target, an unpacked archive or copied tree, a program run by a name computed in
  part or a glob, any make, and any write of a program script (Python, Perl, Tcl: its
  names are computed by code rtlopt does not run) write names no text gives: x;
- a writer too large to read is read as writing anything;
- an include by a macro (```include `STIM``) reads each value the repository's texts give
  the macro (```define``, ``-D``/``+define+``); one they give none of has a name rtlopt does
  not know, which feeds x too.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from rtlopt.evaluate._tb_x_commands import (
    generated_include,
    is_make,
    run_kinds,
    unread_command,
    written_arguments,
)
from rtlopt.evaluate.make_values import assignments, evaluated

__all__ = ["written_header"]

#: a line writing a file: a shell redirection or tee, an output option, a copying or linking
#: command, a script's open for writing or write call, Tcl's file commands
_WRITES = re.compile(
    r">|\btee\b|(?<![\w-])-o\b|--output|\b(?:cp|mv|ln|install|rsync|dd|touch)\s"
    r"|\bsed\s+-i|\bopen\s*\(|\.write(?:_text|_bytes|lines)?\s*\(|\bcopy(?:file|2|tree)?\s*\("
    r"|\bfile\s+(?:copy|rename|link)\b|\bsymlink|\bopen\s+\S+\s+[wa]"
)
#: a variable's or a format field's value in a path (``$(G)``, ``${G}``, ``$G``, ``{g}``), a
#: brace list (``stim.{vh,log}``) or a command's output (`` `echo stim`.vh ``): round 88
_COMPUTED = re.compile(r"\$\([^)]*\)|\$\{[^}]*\}|\$[\w@<*^?]|\{[^}\s]*\}|`[^`\n]*`")
_SPLIT = re.compile(r"[\s\"'(),;=<>|&`\[\]]+")


def _names_word(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", text) is not None


def _computed_match(line: str, name: str) -> bool:
    """Whether a word of the writing ``line`` ends in a name computed in part whose literal
    parts match ``name`` (``st$(X)im.vh``, ``$(N).vh``; not a wholly computed ``$@``)."""
    for word in _SPLIT.split(_COMPUTED.sub("\0", line)):
        last = word.rsplit("/", 1)[-1]
        if "\0" not in last:
            continue
        pattern = last.replace("\0", "*")
        if pattern.strip("*.") and fnmatch.fnmatchcase(name, pattern):
            return True
    return False


def _macro_values(
    macro: str, texts: Mapping[Path, str], builds: list[tuple[Path, str]]
) -> set[str]:
    """The file names the repository's texts give ``macro``: ```define M "x"`` in a Verilog
    text, ``-DM=x`` or ``+define+M=x`` in a build text."""
    out: set[str] = set()
    verilog = re.compile(rf"`define\s+{re.escape(macro)}\s+[\"<]([^\">\n]+)[\">]")
    option = re.compile(rf"(?:-D\s*|\+define\+){re.escape(macro)}=([^\s+]+)")
    for text in texts.values():
        out.update(m.group(1).strip() for m in verilog.finditer(text))
    for _, text in builds:
        out.update(m.group(1).strip("\\\"'") for m in option.finditer(text))
    return {v for v in out if v}


def _writer(name: str, builds: list[tuple[Path, list[str]]]) -> str:
    """The first build text that may write a file called ``name`` (its last part): one
    naming it outside comment lines in any form the shell passes on (``st\\im.vh``,
    ``st"i"m.vh``: any command may write it, ``truncate`` too), writing a name computed
    in part that matches, or a target a pattern rule's ``%`` matches (``%.vh: ... > $@``,
    round 89 case 02); "" for none. ``builds``: (text, its code lines with Make's variables
    and text functions evaluated: ``$(addsuffix .vh,stim)`` is ``stim.vh``, round 92)."""
    base = name.rsplit("/", 1)[-1]
    for where, code in builds:
        plain = _shell_words("\n".join(code))
        if _names_word(plain, base) or re.search(_GLUED.format(re.escape(base)), plain):
            return where.name
        if any(_WRITES.search(ln) and _computed_match(ln, base) for ln in code):
            return where.name
        if any(fnmatch.fnmatchcase(base, t) for _, t in _targets(code)):
            return where.name
    return ""


#: a name glued to a one-letter option (``vvp -lstim.vh``: round 91 case 08)
_GLUED = r"(?<![\w.])-[A-Za-z]{}(?![\w.-])"

#: texts whose language comments with ``//`` (a filelist, Verilog, C, JavaScript); in a
#: shell's or Make's text ``//usr/bin/touch`` is a command (round 89 case 01)
_SLASH_COMMENTS = frozenset(
    ".f .vc .v .sv .vh .svh .c .h .cc .cpp .hpp .js .ts .json .jsonc .java .scala .go .rs".split()
)


def _code_lines(where: Path, text: str) -> list[str]:
    """``text``'s lines but its comment lines (``#``; ``//`` where the language says so);
    a Make define block's lines are its text, ``#`` ones too (round 90 case 17)."""
    marks = ("#", "//") if where.suffix.lower() in _SLASH_COMMENTS else ("#",)
    out, block = [], False
    for ln in text.splitlines():
        if re.match(r"\s*(?:export\s+|override\s+)*define\s", ln):
            block = True
        elif block and re.match(r"\s*endef\b", ln):
            block = False
        if block or not ln.lstrip().startswith(marks):
            out.append(ln)
    return out


def _shell_words(text: str) -> str:
    """``text`` with escapes of ordinary characters and quotes inside words removed."""
    text = re.sub(r"\\(?=[\w./-])", "", text)
    return re.sub(r"(?<=[\w./-])[\"']+(?=[\w./-])", "", text)


#: writes whose files no text names: an archive or a patch unpacked, a tree copied or
#: synchronized, a checkout, a program installing its files
_UNNAMED = re.compile(
    r"\b(?:tar|bsdtar|unzip|cpio|7za?|gunzip|bunzip2|unxz|zstd|patch|rsync|extractall"
    r"|unpack_archive|copytree|make\s+install)\b|\bcp\s+-\w*[rRa]"
    r"|\bgit\s+(?:checkout|restore|apply|am|archive|stash|reset|pull|clone|worktree|submodule)\b"
)
#: a program run by a computed name: a variable or a glob after an interpreter, ``.``,
#: ``./`` or ``do`` (``sh $$f``, ``sh scripts/ge?.sh``, round 89 case 03), a glob as the
#: command (``./ge?.sh``), ``xargs``, ``find -exec``, ``eval``, a folder's programs
#: (``run-parts``, case 13); any make, of any Makefile in any spelling (``$(MAKE) -C
#: gen``, ``make -sC gen``, case 12); Make's include by a glob or a variable
_COMPUTED_RUN = re.compile(
    r"(?:\b(?:sh|bash|zsh|dash|ksh|python[\d.]*|perl|tclsh|ruby|node|source|exec)\s+(?:-\S+\s+)*"
    r"|(?:^|[\s;&|(])\.\s+|\./|\bdo\s+)[\"']?(?:\$|[^\s;&|)\"']*[*?\[])"
    r"|(?:^|[;&|(`])\s*[@+-]*(?:[^\s;&|()=:'\"/]*/)+[^\s;&|()=:'\"]*[*?\[]"
    r"|\bxargs\b|-exec\b|\beval\b|\brun-parts\b|\bparallel\b"
    r"|\$[({]MAKE[)}]|\bg?make\b(?![.\w-])"
    r"|^\s*-?s?include\s[^\n]*[*?\[$]"
    # a program the environment names runs before each command (bash's BASH_ENV, make's
    # MAKEFILES, round 90 case 04), or the shell itself is chosen
    r"|\b(?:BASH_ENV|MAKEFILES|LD_PRELOAD|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|PERL5LIB"
    r"|RUBYOPT|RUBYLIB|NODE_OPTIONS|SHELLOPTS|BASHOPTS|PROMPT_COMMAND)\b"
    r"|^\s*(?:export\s+|override\s+)?SHELL\s*(?:[:?+!]?=|::=)[ \t]*(?=\S)"
    r"(?!(?:/usr)?/bin/(?:ba|da|z|k)?sh\b|(?:ba|da|z|k)?sh\b|/usr/bin/env\s+(?:ba|z)?sh\b)",
    re.M,
)
#: a write's target: a redirection's, tee's or an output option's file, a copy's last word
#: a word, a variable's or a function's value in it whole (``$(F)``, ``$(addsuffix .vh,s)``)
_WORD = r"((?:\$\([^)]*\)|\$\{[^}]*\}|[^\s;&|)])+)"
_TARGET = re.compile(
    r"(?:&>{1,2}|>{1,2}&?)\s*"
    + _WORD
    + r"|\btee\s+(?:-a\s+)?"
    + _WORD
    + r"|(?<![\w-])-[A-Za-z]*o\s*"  # sort -uo (round 92 case 02)
    + _WORD
    + r"|\bwrite_\w+(?:\s+-\S+)*\s+"  # yosys's write_verilog (case 04)
    + _WORD
    + r"|--output[= ]"
    + _WORD
    + r"|\b(?:cp|mv|ln|install)\s[^;&|]*?"
    + _WORD
    + r"\s*(?:$|[;&|)])"
)
#: a Make rule's line and its targets
_RULE = re.compile(r"^([^\t#=:][^=:]*?)\s*::?(?!=)")


def _unknown_write(where: Path, text: str, files: frozenset[str], kind: str = "") -> str:
    """A line of ``text`` writing files by names no text gives: an unnamed write
    (:data:`_UNNAMED`), a program run by a computed name, a write whose target's last part
    is wholly computed (``$${f%.in}``, ``$(OUT)``; ``$@`` read as its rule's targets), a
    program script's write (:func:`_opaque`), a command whose writes rtlopt does not read
    (:func:`._tb_x_commands.unread_command`; ``files``: the build texts' names), or ""."""
    code = _code_lines(where, text)
    opaque = (
        _opaque(where, text, code, kind)
        or unread_command(where, text, code, files, kind)
        or generated_include(where, code, files, kind)
    )
    if opaque:
        return opaque
    for line in code:
        if _UNNAMED.search(line) or _COMPUTED_RUN.search(line):
            return line.strip()
    for line, target in _targets(code):
        if not target.strip("*./$%{}()"):
            return line.strip()
    return ""


def _targets(code: list[str]) -> list[tuple[str, str]]:
    """The write targets of the lines ``code`` as (line, glob of the target's last part): a
    computed piece (``$(X)``, ``{a,b}``) and a pattern rule's ``%`` read as ``*``, ``$@``
    as its rule's targets."""
    out: list[tuple[str, str]] = []
    targets = ""
    for line in code:
        rule = _RULE.match(line)
        if rule:
            targets = rule.group(1)
        words = [next(g for g in m.groups() if g is not None) for m in _TARGET.finditer(line)]
        for word in [*words, *written_arguments(line)]:
            word = word.strip("\"'")
            if not word or word.startswith(("/dev/", "&")) or word.isdigit() or word == "-":
                continue  # a descriptor's copy (``2>&1``), a closing (``>&-``)
            if re.fullmatch(r"\$\(?@[DF]?\)?|\$\{@\}", word):
                word = targets  # the rule's targets, by their names
            # a function call's words are one target (``$(addsuffix .vh,stim)``, round 90 case 09)
            for one in re.findall(r"(?:\$\([^)]*\)|\$\{[^}]*\}|\S)+", word) or [""]:
                last = _COMPUTED.sub("*", one.rsplit("/", 1)[-1]).replace("%", "*")
                out.append((line, last))
    return out


#: a program script's language (by suffix or by its ``#!`` line)
_PROGRAM_SUFFIXES = frozenset(".py .pl .pm .rb .tcl .js .mjs .lua .php .r .awk".split())
_PROGRAM_SHEBANG = re.compile(r"#!.*\b(?:python|perl|ruby|tclsh|wish|node|lua|php|Rscript|awk)")
#: any way a program script may write or run something
_PROGRAM_WRITES = re.compile(
    r"\bopen\b|write|\bcopy|\bmove\b|rename|os\.replace|link|touch|\bsystem\b|subprocess"
    r"|popen|\bexec|spawn|shutil|\bsave|\bdump|\bfile\b|>|`"
)


def _opaque(where: Path, text: str, code: list[str], kind: str = "") -> str:
    """A line of a program script (Python, Perl, Tcl, ...) a testbench's build runs that may
    write a file, or "": its names are computed by code rtlopt does not run
    (``Path("stim").with_suffix(".vh").write_text(..)``, round 89 case 15), so any write
    feeds x; shell and Make texts are read by their targets instead."""
    program = kind == "program" or where.suffix.lower() in _PROGRAM_SUFFIXES
    if not program and not _PROGRAM_SHEBANG.match(text):
        return ""  # (a program by how a writer runs it: ``python3 gen.txt``, round 91 case 09)
    return next((ln.strip() for ln in code if _PROGRAM_WRITES.search(ln)), "")


def written_header(
    includes: list[tuple[Path, int, str]],
    texts: Mapping[Path, str],
    builds: list[tuple[Path, str]],
    compiling: list[tuple[Path, str]],
    unread: Sequence[Path] = (),
) -> tuple[Path, int, str] | None:
    """The first include of ``includes`` ((file, line, name); a macro's as ```M``) whose
    header a build may write, or whose name no text gives: (file, line, why), or None.
    ``compiling``: the build texts naming a file holding a root of the hierarchies (a
    testbench's top); the writers: :func:`_writers`."""
    writers = _writers(builds, compiling)
    files = frozenset(b.name for b, _ in builds)
    kinds = run_kinds(_shell_words(t) for _, t in writers)
    unknown = next(
        ((b, w) for b, t in writers if (w := _unknown_write(b, t, files, kinds.get(b.name, "")))),
        None,
    )
    named, every = "\n".join(_shell_words(t) for _, t in writers), writers is builds
    made = any(is_make(b) for b, _ in writers)  # make's built-in rules may run
    values = assignments("\n".join(t for _, t in writers))
    code = [(b, evaluated("\n".join(_code_lines(b, t)), values).split("\n")) for b, t in writers]
    simulated = _SIMULATOR_RUN.search(named) is not None
    writes = _simulation_writes(texts) if simulated and includes else []
    for p, line, name in includes:
        names = [name]
        if name.startswith("`"):
            names = sorted(_macro_values(name[1:], texts, builds))
            if not names:
                return (
                    p,
                    line,
                    f"includes a header by the macro {name} no text of the repository defines",
                )
        if unknown is not None:
            return (
                p,
                line,
                f'`include "{name}" may read a header the build writes by a name rtlopt cannot'
                f" read ({unknown[0].name}: {unknown[1][:80]!r})",
            )
        for n in names:
            writer = (
                _writer(n, code)
                or (simulated and _simulation_write(n, writes))
                or _unread_writer(n, unread, named, every)
                or (made and _implicit_source(n, [*builds, *texts.items()], unread))
            )
            if writer:
                return (
                    p,
                    line,
                    f'`include "{n}" may read a header the build writes ({writer} writes a'
                    " file of that name)",
                )
    return None


def _writers(
    builds: list[tuple[Path, str]], compiling: list[tuple[Path, str]]
) -> list[tuple[Path, str]]:
    """The build texts a testbench's build may run: those compiling it, every text naming one
    of those (``iverilog -c tb.f``'s Makefile) and every text one of those names (a script
    it runs), to any depth; every build text where one runs a program by a computed name
    (``for f in scripts/*.sh; do sh $$f``). Another flow's copies (an equivalence check
    copying every source into its folder) are read by no build of a testbench."""
    found = {b: t for b, t in compiling if not _prose(b, t)}
    grew = True
    while grew:
        grew = False
        named = "\n".join(_shell_words(t) for t in found.values())
        for b, t in builds:
            if b in found:
                continue
            if (
                _names_word(named, b.name)
                or _module_run(named, b)
                or _sibling(b, found)
                or (not _prose(b, t) and any(_names_word(t, f.name) for f in found))
            ):
                found[b] = t  # a document a writer names (``sh gen.md``) is run too
                grew = True
    if any(_COMPUTED_RUN.search(t) for t in found.values()):
        return builds
    return list(found.items())


#: a simulation the build runs: the Verilog program's own writes happen (round 91 case 04)
_SIMULATOR_RUN = re.compile(
    r"\b(?:vvp|simv|xrun|irun|xmsim|ncsim|vsim|qrun|verilator|iverilog)\b|obj_dir/V\w+"
)
#: a Verilog program's write of a file by its name: $fopen for writing (or a channel),
#: $dumpfile, $writememh/b
_VERILOG_WRITE = re.compile(
    r"\$(?:fopen|dumpfile|writemem[hb])\s*\(\s*((?:\"[^\"\n]*\"|[^,)\n])+?)\s*(?:,\s*([^)\n]*))?\)"
)


def _simulation_writes(texts: Mapping[Path, str]) -> list[tuple[str, str | None]]:
    """The files the Verilog texts' simulations may write: ("file (why)", the last part of
    the name written, or None for a name computed (``$fopen({"st", "im", ".vh"}, "w")``))."""
    out: list[tuple[str, str | None]] = []
    for p, text in texts.items():
        for m in _VERILOG_WRITE.finditer(text):
            target, mode = m.group(1).strip(), (m.group(2) or "").strip()
            if m.group(0).startswith("$fopen") and re.fullmatch(r'"r\+?b?"', mode):
                continue  # opened for reading
            literal = re.fullmatch(r'"([^"]*)"', target)
            base = literal.group(1).rsplit("/", 1)[-1] if literal else None
            out.append((f"{p.name} (its simulation writes {target[:40]})", base))
    return out


def _simulation_write(name: str, writes: list[tuple[str, str | None]]) -> str:
    """A write of :func:`_simulation_writes` that may make a file called ``name``'s last
    part (a literal name that is it, or a name computed), or ""."""
    base = name.rsplit("/", 1)[-1]
    return next((why for why, written in writes if written is None or written == base), "")


def _implicit_source(name: str, builds: Sequence[tuple[Path, str]], unread: Sequence[Path]) -> str:
    """A file make's built-in rules may make ``name``'s last part from (``stim.vh.sh`` by
    ``%: %.sh``, ``stim.vh.c``, ``stim.vh,v`` and ``s.stim.vh`` from version control: round
    90 case 01), or ""."""
    base = name.rsplit("/", 1)[-1]
    for f in [*(b for b, _ in builds), *unread]:
        if f.name.startswith((base + ".", base + ",")) or f.name == "s." + base:
            return f"{f.name} (make's built-in rules make {base} from it)"
    return ""


def _module_run(named: str, b: Path) -> bool:
    """Whether ``named`` runs ``b`` as a Python module: ``python3 -m gen`` runs ``gen.py``,
    ``-m tools`` ``tools/__main__.py`` (round 89 case 09)."""
    if b.suffix != ".py":
        return False
    module = b.parent.name if b.stem in ("__main__", "__init__") else b.stem
    run = re.compile(rf"-m\s*(?:[\w.]+\.)?{re.escape(module)}\b")
    return bool(module) and run.search(named) is not None


#: the files make reads in a folder, the first found first
_MAKEFILES = frozenset(("GNUmakefile", "makefile", "Makefile"))


def _sibling(b: Path, found: Mapping[Path, str]) -> bool:
    """Whether ``b`` is a make file of a folder whose make file is a writer (make reads
    ``GNUmakefile`` before ``Makefile``, which it may include by a glob: round 89 case 14),
    or a module of a writer script's language beside it (``import helper``: round 92 case
    13)."""
    if b.name in _MAKEFILES or b.suffix == ".mk":
        return any(
            f.parent == b.parent and (f.name in _MAKEFILES or f.suffix == ".mk") for f in found
        )
    return b.suffix in _MODULE_SUFFIXES and any(
        f.parent == b.parent and f.suffix == b.suffix for f in found
    )


#: the suffixes of a language's modules a script imports from its own folder
_MODULE_SUFFIXES = frozenset(".py .pm .pl .rb .tcl .js .mjs .lua".split())


def _unread_writer(name: str, unread: Sequence[Path], writers: str, every: bool) -> str:
    """A file too large to read as a build text that a writer may run (``writers`` names it,
    or ``every`` build text is a writer: round 89 case 11) or whose bytes hold ``name``'s
    last part, with quotes and escapes removed (a script padded past the reading limit
    may write it: round 88 case 08), or ""."""
    base = name.rsplit("/", 1)[-1].encode()
    for f in unread:
        if every or _names_word(writers, f.name):
            return f.name
        try:
            with open(f, "rb") as fh:
                tail = b""
                for chunk in iter(lambda: fh.read(1 << 22), b""):
                    chunk = re.sub(rb"[\"'\\]", b"", chunk)
                    if base in tail + chunk:
                        return f.name
                    tail = chunk[-len(base) :]
        except OSError:
            return f.name  # unreadable: it may hold anything
    return ""


def _prose(path: Path, text: str) -> bool:
    """Whether ``path`` is a document no build runs (a README naming the testbench and its
    header): :func:`._foreign_x_anytext.is_documentation`, but a ``.txt`` may be a filelist."""
    from rtlopt.evaluate._foreign_x_anytext import is_documentation

    return path.suffix.lower() != ".txt" and is_documentation(path, set(), text)
