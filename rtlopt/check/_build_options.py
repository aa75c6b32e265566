"""Tool options in a changed build script, for the gate.

The gate judges the design under the rules it reads (``rtlopt.toml`` and the filelists it
names). A Makefile, a script or a CI file that hands a simulator ``-DINC=8'd2``, another
include or library folder, a filelist, a parameter override or another top changes what
every module elaborates to without a byte of Verilog changing: a changed line of such a file
that adds, drops or reorders one of those options is a finding naming the file and line.
So is a changed line of a build file that names other source files (``sim/probe.v``,
``tb/*.sv``: an unchanged file the build now compiles was never screened as a new one) and
a changed key of a FuseSoC or Bender description that sets defines, parameters, include
folders, files or the top (``vlogdefine:``, ``defines:``, ``files:``, ``toplevel:``).

The options above are the ones the gate can name; a tool has many more that change what a
module simulates to (``iverilog -gspecify`` applies specify path delays, ``-Tmax`` picks
other delays, ``vvp +plusarg`` what a testbench reads). So the gate fails closed on a tool's
line (a Verilog tool named literally or through a variable such as ``$(IVERILOG)``, or a
line assigning a flags variable): every word of it is a setting, and a changed word other
than a warning option (``-W...``) is a finding; in documentation only its ``-``/``+``
words count. So is a changed conditional of a build file (``ifeq``, ``if``, ``case``,
``else``, ``endif``...): which setting lines it selects is part of those settings
(:mod:`rtlopt.check._conditionals`).
"""

from __future__ import annotations

import difflib
import re

from rtlopt.check._conditionals import CONDITIONAL

__all__ = ["option_problems"]

#: Options that change elaboration wherever they stand (a define, an include or library
#: folder, a parameter override): ``-DNAME``, ``+define+``, ``-Idir``, ``+incdir+``,
#: ``+libext+``, ``-GNAME=``/``-PNAME=``, ``-pvalue+``; ``"-D"`` ending a string.
_PLAIN = re.compile(
    r"(?<![\w\-+$])(?:-D\s*[A-Za-z_][\w$]*(?:=\S*)?|\+define\+\S*|-I\s*[\w./$({~]\S*|"
    r"\+incdir\+\S*|\+libext\+\S*|-[GP]\s*[A-Za-z_][\w$.]*=\S*|-pvalue\+\S*|"
    # an option a string ends with, its value joined at run time ("-D" + name, ["-D", name])
    r"-[DIGP](?=[\"']))"
)
#: Options that change elaboration when a Verilog tool reads them (``rm -f`` is no
#: filelist): a filelist or command file, a library folder or file, the top module.
_TOOL_ONLY = re.compile(r"(?<![\w\-+$])(?:-[fFcvyls]\s+\S+|-y\S+|-v\S+)")
_TOOLS = re.compile(
    r"\b(?:iverilog|verilator|vcs|xrun|irun|xmvlog|xmelab|ncvlog|ncelab|ncverilog|vlog|vlogan|"
    r"vsim|qverilog|yosys|sv2v|slang|sby|verible\w*|cvc|vopt)\b"
)
#: Other tools that elaborate, simulate or build HDL.
_MORE_TOOLS = re.compile(
    r"\b(?:xvlog|xvhdl|xelab|xsim|vivado|quartus_\w+|ghdl|nvc|vcom|vlib|vmap|vsimsa|riviera|"
    r"dc_shell|genus|fusesoc|edalize|bender|cocotb\w*|eqy|symbiyosys|nextpnr\w*|vvp)\b"
)
#: A tool named through a variable (``$(IVERILOG) -o sim``, ``${VLOG}``, ``$SIM``).
_TOOL_VARIABLE = re.compile(
    r"\$[({]?\s*\w*(?:IVERILOG|VERILATOR|VLOG|VSIM|VCS|XRUN|YOSYS|VVP|SIMULATOR|SIM|HDL)\w*",
    re.I,
)
#: Words of a tool's line known not to change what it builds: warning options.
_HARMLESS = re.compile(r"-?-W[\w\-=,+]*")
#: An option as a quoted word or a YAML list item (an argument list spread over lines).
_QUOTED_OPTION = re.compile(r"[\"'][-+][A-Za-z][^\"'\s]*[\"']|^[ \t]*-[ \t]+[-+][A-Za-z]\S*")
#: Files whose indentation nests lines (a setting moved out of an ``if`` block).
_INDENTED = (".py", ".yml", ".yaml")
#: A word that is an option (``-gspecify``, ``+plusarg``), the only words read in prose.
_OPTION_WORD = re.compile(r"(?<![\w\-+$])[-+][A-Za-z]\S*")
#: A make or shell variable that holds a tool's flags (``IVFLAGS += -y lib``).
_FLAGS_VARIABLE = re.compile(
    r"^\s*(?:export\s+)?[A-Za-z_]*(?:FLAG|OPT|ARG|DEF|INC|LIB|SIM|VLOG|VERILOG)[A-Za-z_]*"
    r"\s*[:+?]?=",
    re.I,
)


#: A source file or a glob of them (``rtl/*.sv``, ``$(SRC)/probe.v``, ``tb.f``).
_SOURCE = re.compile(
    r"(?<![\w.])[\w./${}()*~\-]*\.(?:s?v|vh|svh|sva|vl|vlib|inc|vlt|f|fl)(?![\w.])"
)
#: A variable that holds source files (``SRCS += probe.v``, ``VERILOG_SOURCES = ...``).
_SOURCES_VARIABLE = re.compile(
    r"^\s*(?:export\s+)?[A-Za-z_]*(?:SRC|SOURCE|FILE|RTL|TB|VERILOG|DESIGN)[A-Za-z_]*"
    r"\s*[:+?]?=",
    re.I,
)
#: Files that describe a build (their every line may hand a tool a file).
_BUILD_FILE = re.compile(
    r"(?:^|/)(?:[Mm]akefile[^/]*|GNUmakefile|CMakeLists\.txt|Justfile|SConstruct|[^/]*\."
    r"(?:mk|make|sh|bash|tcl|do|cmake|core|ya?ml|py|cmd|ys|sby|eqy|json))$"
)
#: A setting of defines, include folders, parameters, sources or the top in any syntax: a
#: keyword argument or assignment (``defines={"X": 1}``, ``self.parameters = ...``), a key
#: (``"generics": {...}``, ``incdirs:``), wherever it stands on the line.
_SETTING = re.compile(
    r"(?<![\w$:/])[\"']?(?:defines?|define_macros|macros|includes?|include_dirs?|incdirs?|"
    r"include_paths?|parameters|params|generics?|vlogdefine|vlogparam|plusargs|build_args|"
    r"compile_args|extra_args|sim_args|elab_args|hdl_toplevel|toplevel|top_module|"
    r"verilog_sources|vhdl_sources|sources)[\"']?\s*(?:\+=|=(?!=)|:(?!:))",
    re.I,
)
#: Keys of FuseSoC, Bender, edalize or CI descriptions that set what elaborates.
_KEYS = re.compile(
    r"^\s*-?\s*[\"']?(?:vlogdefine|vlogparam|generic|defines?|parameters|include_dirs?|"
    r"incdirs?|include_directories|files|sources|toplevel|top_module|top)[\"']?\s*:",
    re.I,
)


def _logical(text: str) -> list[tuple[int, str]]:
    """``(first line, text)`` of each logical line (``\\``-continued lines joined)."""
    out: list[tuple[int, str]] = []
    cur: list[str] = []
    first = 1
    for i, line in enumerate(text.split("\n"), 1):
        if not cur:
            first = i
        cur.append(line.rstrip("\\"))
        if not line.rstrip().endswith("\\"):
            out.append((first, " ".join(cur)))
            cur = []
    if cur:
        out.append((first, " ".join(cur)))
    return out


def _options(line: str, build_file: bool = False, prose: bool = False) -> list[str]:
    """The elaboration options of one logical line, in order (``build_file``: the line is
    of a file that describes a build, whose every line may hand a tool a source file;
    ``prose``: of documentation, where a word followed by ``=`` or ``:`` sets nothing)."""
    found = [(m.start(), " ".join(m.group(0).split())) for m in _PLAIN.finditer(line)]
    if not prose:
        found += [(m.start(), " ".join(line[m.start() :].split())) for m in _SETTING.finditer(line)]
    tool = bool(_TOOLS.search(line) or _FLAGS_VARIABLE.match(line))
    if tool:
        found += [(m.start(), " ".join(m.group(0).split())) for m in _TOOL_ONLY.finditer(line)]
    if _tool_line(line):
        found += _tool_words(line, prose)
    if build_file and not prose and CONDITIONAL.match(line):
        found += [(m.start(), m.group(0)) for m in re.finditer(r"\S+", line)]
    if build_file and not prose:  # a tool's argument list over lines: ["iverilog",\n"-g..."]
        found += [(m.start(), m.group(0)) for m in _QUOTED_OPTION.finditer(line)]
    if build_file or tool or _SOURCES_VARIABLE.match(line):
        found += [(m.start(), m.group(0)) for m in _SOURCE.finditer(line)]
    if build_file and (m := _KEYS.match(line)):
        found.append((m.start(), " ".join(line.split())))
    return [o for _, o in sorted(found)]


def _tool_line(line: str) -> bool:
    """Whether a line runs a Verilog tool (by name, not a file ``sim.vvp``; or through a
    variable) or assigns a flags variable."""
    named = (m for r in (_TOOLS, _MORE_TOOLS) for m in r.finditer(line))
    if any(line[m.start() - 1 : m.start()] not in (".", "-") for m in named):
        return True
    return bool(_FLAGS_VARIABLE.match(line) or _TOOL_VARIABLE.search(line))


def _tool_words(line: str, prose: bool) -> list[tuple[int, str]]:
    """Every word of a tool's line but a warning option (in prose: its option words)."""
    words = _OPTION_WORD.finditer(line) if prose else re.finditer(r"\S+", line)
    return [(m.start(), m.group(0)) for m in words if not _HARMLESS.fullmatch(m.group(0))]


def _nested(rel: str, line: str, build_file: bool, prose: bool) -> list[str]:
    """:func:`_options` of a line, each with the line's indentation where it nests lines."""
    found = _options(line, build_file, prose)
    if not rel.endswith(_INDENTED):
        return found
    indent = len(line) - len(line.lstrip())
    return [f"{indent}:{o}" for o in found]


def option_problems(rel: str, old: str | None, new: str) -> list[tuple[int, str]]:
    """``(line, finding)`` for each changed stretch of ``new`` (``old``: the file at the base,
    None when added) whose elaboration options differ from the stretch it replaces."""
    from rtlopt.check._config_words import DOCUMENTATION

    build = bool(_BUILD_FILE.search(rel))
    prose = bool(DOCUMENTATION.search(rel))
    from rtlopt.check._code_view import code_view

    # a build file's comments as its language reads them (a ``#`` in a string is code)
    view = (lambda t: code_view(rel, t)) if build else (lambda t: t)
    before, after = _logical(view(old or "")), _logical(view(new))
    if old is None:
        before = []
    matcher = difflib.SequenceMatcher(
        None, [t for _, t in before], [t for _, t in after], autojunk=False
    )
    out: list[tuple[int, str]] = []
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        was = [o for _, t in before[a0:a1] for o in _nested(rel, t, build, prose)]
        now = [o for _, t in after[b0:b1] for o in _nested(rel, t, build, prose)]
        if was == now:
            continue
        added = [o for o in now if o not in was] or now
        shown = ", ".join(added[:3]) or "(options removed)"
        line = next(
            (ln for ln, t in after[b0:b1] if _options(t, build, prose)),
            after[b0][0] if b0 < b1 else 1,
        )
        if b0 == b1 and b0 > 0:
            line = after[b0 - 1][0]
        out.append(
            (
                line,
                f"the build options or sources change ({shown}), which the gate does not "
                f"judge in {rel}: put defines, include folders, parameters and sources in "
                "rtlopt.toml ([project] defines, include_dirs) or in a filelist it names, where "
                "the gate judges them, or review this change in a commit of its own",
            )
        )
    return out
