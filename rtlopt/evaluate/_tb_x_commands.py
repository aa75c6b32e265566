"""The commands a testbench's build runs, read against the ones rtlopt understands, for
:mod:`._tb_x_written` (round 90 cases 02, 03).

A header the build writes is found by its name or by the targets of the writes rtlopt reads
(redirections, ``tee``, ``-o``, ``cp``, ...). A command whose writes it cannot read (``dd
of=$(F)``, ``python3 -c 'open("STIM.VH".lower(), "w")'``, a compiled helper, a command in a
variable no text sets) may write any name, so the x analysis fails closed on it. Read are a
Make text's recipe lines and ``$(shell ...)`` bodies, and every line of a shell script. The
commands understood (:data:`_UNDERSTOOD`): simulators and other EDA tools, shell built-ins and
text utilities that write only through a redirection, file commands whose arguments are all
targets (:data:`_ALL_TARGETS`, read by :func:`._tb_x_written._targets`), an interpreter
running a named script (a writer itself, read in turn), make (every build text becomes a
writer); a wrapper (``env``, ``nice``, ``timeout 5``) is read through.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from pathlib import Path

from rtlopt.evaluate.make_values import assignments

__all__ = [
    "generated_include",
    "is_make",
    "is_shell",
    "run_kinds",
    "unread_command",
    "written_arguments",
]

#: commands whose writes rtlopt reads (through a redirection, an output option, their
#: arguments) or that write nothing; shell keywords
_UNDERSTOOD = frozenset(
    """
    iverilog iverilog-vpi vvp verilator verilator_bin yosys yosys-abc yosys-config sby eqy
    vcs simv xrun irun xmverilog ncverilog vsim vlog vlib vmap vopt qrun gtkwave sv2v
    verible-verilog-lint verible-verilog-format slang surelog svlint fusesoc edalize
    echo printf cat grep egrep fgrep zgrep zcat head tail sort wc cut tr paste comm diff cmp
    fold fmt nl od hexdump expand unexpand rev tac column true false : test [ [[ exit return
    cd pushd popd pwd set unset export readonly local declare typeset shift read wait sleep
    type hash which basename dirname realpath readlink date ulimit umask getopts let
    expr seq yes mkdir rmdir rm ls stat du df chmod touch truncate tee cp mv ln install
    python python2 python3 perl ruby tclsh node sh bash zsh dash ksh source . make gmake
    if then else elif fi for in do done while until case esac select function { } ! break
    continue
    """.split()
)
#: a simulation a simulator compiled (Verilator's model, VCS's simv, an Icarus image):
#: its writes are its Verilog program's, read by :func:`._tb_x_written._simulation_write`
_SIMULATION = re.compile(r"(?:^|/)obj_dir/V\w+$|(?:^|/)simv$|\.vvp$")
#: commands running the next word: read through (with their options and a number)
_WRAPPERS = frozenset("env time nice nohup timeout stdbuf exec command builtin xvfb-run".split())
#: file commands whose every argument may be a target
_ALL_TARGETS = frozenset("touch truncate tee cp mv ln install mkdir".split())
#: interpreters running code given inline (a target rtlopt does not read)
_INLINE = re.compile(r"^(?:python[\d.]*|perl|ruby|node|tclsh)$")
_INLINE_OPTION = re.compile(r"^-[A-Za-z]*[ceE]$")
_SHELLS = frozenset("sh bash zsh dash ksh".split())
_MAKEFILES = frozenset(("GNUmakefile", "makefile", "Makefile"))
_SHEBANG_SHELL = re.compile(r"#!\s*\S*(?:/|\benv\s+)(?:ba|z|da|k)?sh\b")
#: a simple command's boundary: a list or pipe operator, a subshell, a command substitution
_SPLIT = re.compile(r"&&|\|\||[;|&(){}`]|\$\(shell\b|\$\(|\bthen\b|\bdo\b|\belse\b")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*\+?=")
#: a variable's value by its name (``$(CC)``, ``${CC}``), read as ``$CC``; a function call
#: or a command's output (``$(addsuffix ..)``, ``$$(cmd)``) is split off as a command
_NAMED_VARIABLE = re.compile(r"\$\(([A-Za-z_]\w*)\)|\$\{([A-Za-z_]\w*)(?:\[[^]}]*\])?\}")
#: shell keywords before a command, and those opening a list of words that are no command;
#: Make's text functions (``$(lastword ..)``; not ``call``, ``eval``, ``value``, ``file``)
_BEFORE = frozenset("if elif while until ! then do else { } time".split())
_NO_COMMAND = frozenset(
    """for case select function in subst patsubst strip findstring filter filter-out sort
    word wordlist words firstword lastword dir notdir suffix basename addsuffix addprefix
    join wildcard realpath abspath or and intcmp foreach origin flavor error warning info""".split()
)


def is_make(where: Path) -> bool:
    return where.name in _MAKEFILES or where.suffix in (".mk", ".make")


def is_shell(where: Path, text: str) -> bool:
    return where.suffix in (".sh", ".bash", ".zsh", ".ksh") or bool(_SHEBANG_SHELL.match(text))


def _command_lines(where: Path, code: list[str], shell: bool) -> Iterable[str]:
    """The lines of ``code`` holding commands: a Make text's recipe lines (and the text
    after a rule's ``;``) and ``$(shell ...)`` bodies; every line of a shell script."""
    code = re.sub(r"\\\n", " ", "\n".join(code)).split("\n")  # continued lines joined
    if shell:
        yield from code
        return
    for line in code:
        if line.startswith("\t"):
            yield line
        elif "$(shell" in line:
            yield line[line.index("$(shell") :]
        elif re.match(r"^[^\t=#]*[^:=]:[^=][^;]*;", line):
            yield line.split(";", 1)[1]


def unread_command(
    where: Path, text: str, code: list[str], files: frozenset[str], kind: str = ""
) -> str:
    """The first command line of a Make text or a shell script (``code``: its lines but
    comments; ``kind``: how a writer runs it, whatever its name: "shell" for ``sh gen.txt``,
    round 91 case 02, "make" for a Make include) running a command whose writes rtlopt
    cannot read, or "". ``files``: the names of the repository's build texts (a script run
    by its path is one of them)."""
    shell = kind == "shell" or is_shell(where, text)
    if kind != "make" and not is_make(where) and not shell:
        return ""
    for line in _command_lines(where, code, shell):
        # `sh -c "..."`: the quoted code is read as commands; a redirection is no command
        # (its target is read by the targets' rule)
        flat = re.sub(r"\b(?:ba|z|da|k)?sh\s+(?:-\w+\s+)*-c\s+", ";", line)
        flat = _REDIRECTION.sub(" ", _named(flat, text).replace('"', " ").replace("'", " "))
        recipe = line.startswith("\t")
        for k, part in enumerate(_SPLIT.split(flat)):
            words = part.split()
            if recipe and k == 0 and words:  # a recipe's @, - and + prefixes
                words[0] = words[0].lstrip("@+-") or "true"
            if not _understood(words, text, files):
                return line.strip()
    return ""


#: a redirection and its target (``2>&1``, ``> $(F)``, ``<in``, ``&>log``)
_REDIRECTION = re.compile(r"\d*(?:&>>?|[<>]{1,2}&?-?)\s*[^\s;&|()<>]*")
#: sed's commands and flags that write a file or run one (``w``, ``W``, ``e``, ``s///w``)
_SED_WRITES = re.compile(
    r"(?:^|[\s;/{}=,\\])[weW](?![a-zA-Z])|/[gpIiMm\d]*[weW]|(?:^|\s)-[a-zA-Z]*i|--i"
)


def _understood(words: list[str], text: str, files: frozenset[str], depth: int = 0) -> bool:
    """Whether the simple command ``words`` is one rtlopt reads the writes of."""
    while words and _ASSIGNMENT.match(words[0]):
        words = words[1:]
    while words and words[0] in _BEFORE:
        words = words[1:]
    if not words or words[0] in _NO_COMMAND:
        return True
    word = words[0]
    if word.startswith(("-", "+")) or word.isdigit():
        return True  # an option or a number: a fragment of the command before it
    if word in _WRAPPERS:
        rest = words[1:]
        while rest and (rest[0].startswith("-") or rest[0].replace(".", "").isdigit()):
            rest = rest[1:]
        return _understood(rest, text, files, depth)
    variable = re.fullmatch(r"\$+(?:\(([\w.-]+)\)|\{([\w.-]+)\}|([A-Za-z_]\w*))", word)
    if variable:
        value = _value(next(g for g in variable.groups() if g), text)
        return (
            depth < 3
            and value is not None
            and _understood([*value.split()[:1], *words[1:]], text, files, depth + 1)
        )
    if re.search(r"[$*?\[]", word) and word not in ("[", "[["):
        return False  # a command computed in part
    name = word.rsplit("/", 1)[-1]
    if _SIMULATION.search(word):
        return True  # a compiled simulation: its writes are the Verilog program's own
    if "/" in word and name not in _UNDERSTOOD:
        return name in files  # a script of the repository: a writer, read in turn
    options = list(itertools.takewhile(lambda w: w.startswith("-"), words[1:]))
    if name in _SHELLS and any(_INLINE_OPTION.match(w) for w in options):
        return True  # `sh -c`: its code was split into commands already
    if _INLINE.match(name) or name in _SHELLS or name in ("source", "."):
        return _runs_a_script(words[1 + len(options) :], options, files)
    if name == "sed":
        return not _SED_WRITES.search(" ".join(words[1:]))
    return name in _UNDERSTOOD


def _runs_a_script(rest: list[str], options: list[str], files: frozenset[str]) -> bool:
    """Whether an interpreter with ``options`` runs a script of the repository (``rest``:
    the words after its options; ``-m gen`` runs ``gen.py``), which is a writer, read in
    turn; code given inline (``-c``, ``-e``, any option before it: round 91 case 01), on
    standard input (``| python3``, ``python3 -``) or from a file of no build text is not."""
    if any(_INLINE_OPTION.match(w) for w in options) or "-" in options or not rest:
        return False
    if any(re.match(r"-[a-zA-Z]*i", w) for w in options):
        return False  # perl's or ruby's -i writes the files it reads (round 92 case 08)
    script = rest[0].rsplit("/", 1)[-1]
    if options and options[-1] == "-m":
        return script + ".py" in files or "__main__.py" in files
    return script in files


def _value(name: str, text: str) -> str | None:
    """The value ``text`` assigns the variable ``name`` (Make or shell), or None: none, or
    two (Make uses the last; round 92 case 12): :func:`.make_values.assignments`."""
    value = assignments(text).get(name)
    return None if value is None else value.strip("\"'")


def written_arguments(line: str) -> list[str]:
    """The arguments of the file commands of ``line`` whose every argument may be a target
    (``touch $(F)``, ``truncate -s 0 $(F)``, ``dd of=$(F)``: :data:`_ALL_TARGETS`)."""
    out = [m.group(1) for m in re.finditer(r"\bof=([^\s;&|)]+)", line)]
    for part in _SPLIT.split(_named(line)):
        words = part.split()
        if words and words[0].lstrip("@+-").rsplit("/", 1)[-1] in _ALL_TARGETS:
            out += [w for w in words[1:] if not w.startswith("-") and not w.isdigit()]
    return out


def _named(line: str, text: str = "") -> str:
    """``line`` with each variable read by its name (``$(CC)``, ``${CC}`` as ``$CC``), one
    with a default (``$${VVP:-vvp}``) as its default where ``text`` assigns it nothing."""

    def default(m: re.Match[str]) -> str:
        return "$" + m.group(1) if _value(m.group(1), text) is not None else m.group(2)

    line = _DEFAULT.sub(default, line)
    return _NAMED_VARIABLE.sub(lambda m: "$" + (m.group(1) or m.group(2)), line)


_DEFAULT = re.compile(r"\$+\{([A-Za-z_]\w*):?[-=]([\w./-]+)\}")


#: a script a shell runs: after a shell, ``source`` or ``.``, or as a command by its path
_SHELL_RUN = re.compile(
    r"(?:\b(?:ba|z|da|k)?sh|\bsource|(?<![\w.-])\.)\s+(?:-\S+\s+)*[\"']?(?:[^\s;&|)\"']*/)?"
    r"([^\s;&|)\"'/]+)"
    r"|(?:^|[;&|(`]|\$\(shell)[\s@+-]*\.{0,2}/(?:[^\s;&|)\"']*/)?([^\s;&|)\"'/]+)",
    re.M,
)


#: a script an interpreter runs, whatever its name (``python3 tools/gen.txt``: round 91 case 09)
_PROGRAM_RUN = re.compile(
    r"\b(?:python[\d.]*|perl|ruby|node|tclsh|wish|php|lua|Rscript|awk\s+-f|vvp)\s+"
    r"(?:-\S+\s+)*[\"']?(?:[^\s;&|)\"']*/)?([^\s;&|)\"'/]+)"
)
#: a file Make reads as Make code, whatever its name (``include tools/rules.in``: case 20)
_MAKE_INCLUDE = re.compile(r"^\s*-?s?include\s+(.*)$", re.M)


def run_kinds(texts: Iterable[str]) -> dict[str, str]:
    """How the ``texts`` run other texts, by name: "shell" (after a shell, ``source``,
    ``.``, or by its path as a command: :data:`_SHELL_RUN`), "program" (after another
    interpreter), "make" (a Make include)."""
    out: dict[str, str] = {}
    for t in texts:
        out.update((m.group(1) or m.group(2), "shell") for m in _SHELL_RUN.finditer(t))
        out.update((m.group(1), "program") for m in _PROGRAM_RUN.finditer(t))
        for m in _MAKE_INCLUDE.finditer(t):
            out.update((w.rsplit("/", 1)[-1], "make") for w in m.group(1).split())
    return out


def generated_include(where: Path, code: list[str], files: frozenset[str], kind: str = "") -> str:
    """A Make include of a file that is no build text of the repository (``-include
    gen.mk``, which a rule makes and make then reads: round 92 case 14), or ""."""
    if kind != "make" and not is_make(where):
        return ""
    for line in code:
        m = _MAKE_INCLUDE.match(line)
        if m and any(w.rsplit("/", 1)[-1] not in files for w in m.group(1).split()):
            return line.strip()
    return ""
