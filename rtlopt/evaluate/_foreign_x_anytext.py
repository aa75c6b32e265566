"""Any text of the repository that may feed x into the target (round 74), for
:mod:`._foreign_x`: one class rule in place of lists of command forms.

Recognising each way a text outside the Verilog the x analysis reads may write x failed
(``force`` after a quote, under a Tcl alias or ``eval``, later in a value list, sent by a
Python run script, a net connected by position, a do-file over the scan limit, a DPI-C
function returning ``sv_x``, a PLI task's ``accX``, SystemC's ``SC_LOGIC_X``, a VHDL
testbench of a wrapper). So every text file of the repository (any name, any folder, hidden
ones too, any size) that is no documentation and no Verilog the x analysis reads counts as
one that feeds x or z into **every** input of the target when it holds an x-capable value in
the spelling of some HDL, simulator or binding (:func:`x_spellings`):

- a script, Makefile, shell, Tcl, YAML, a file of an unknown kind (comment lines left out):
  a word ``X``/``x``/``Z``/``z``/``U`` standing as a value (between blanks, quotes, braces,
  brackets, ``,;=``), a Verilog literal with x/z digits (``1'bx``, ``'bx``, ``'x``), a
  quoted std_logic value (``"01X"``), a radix value (``16#XX#``), a binding constant;
- Python: a string holding one of those (a simulator command ``"force ... X 0"``, ``"x"``)
  or a constant (``Logic.X``, ``Logic("X")`` by its string);
- C/C++ that uses a simulator interface (DPI, VPI, PLI, FLI, VHPI, SystemC): a string or
  character holding one, a write of that interface (``vpi_put_value``, ``acc_set_value``,
  ``tf_putp``, ``mti_SetSignalValue``...), a four-state type (``svLogic``, ``svLogicVecVal``,
  ``sc_logic``, ``sc_lv``: a value may be x whatever is written) or a constant (``sv_x``,
  ``vpiX``, ``accX``, ``SC_LOGIC_X``, ``Log_X``); C without such an interface (a Verilator
  harness, firmware) runs two-state or not at all;
- VHDL that names the target or a Verilog module holding it (a ``std_logic`` is ``'U'`` until
  written: no spelling is needed);
- Verilog outside what the x analysis reads (a ``.vt`` testbench, a hidden folder): an x/z
  literal, but where only instances of the text's units can carry it (every x literal inside
  a unit's body and none in a macro definition, no unit the build's bodies name or compile
  from another file: :func:`._tb_x_bodies.instance_read`); such a text reaches the target
  only through a body instantiating it, which :mod:`._tb_x` judges (a testbench the build
  does not elaborate feeds every input there).

Precisely mapped (only that input fed): a simulator write command (``force``, ``add_force``,
``set_value``, ``deposit``, ``change``, ``poke``) at the start of the statement holding the x,
whose path ends at ``<instance of the target>/<input>``. Anything else (an alias, ``eval``, a
testbench net, a path built at run time) is not understood and feeds every input.
Documentation (``.md``, ``.rst``... and a ``.txt`` no other text names) feeds nothing; a file
over the scan limit is searched byte by byte.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rtlopt.evaluate._doc_patterns import pattern_matched

__all__ = ["XText", "is_documentation", "named_exempt", "x_texts", "xprop_mode"]

_DOC_SUFFIXES = frozenset(
    ".md .markdown .rst .adoc .asciidoc .tex .html .htm .org .rtf .pdf .texi .man .1".split()
)
_PROSE_STEMS = frozenset(
    "readme license licence copying authors notice changelog changes contributing codeowners "
    "contributors news history".split()
)
_VERILOG = frozenset(".v .sv .vh .svh .vt .sva .svi .vi .vinc .vlog .vams .vo .vg .vp".split())
_PYTHON = frozenset({".py", ".pyi", ".pyw"})
_C = frozenset(".c .cc .cpp .cxx .c++ .h .hh .hpp .hxx .inl .ipp .tpp".split())
_VHDL = frozenset({".vhd", ".vhdl", ".vho", ".vht"})
#: Files of tools that never simulate (lint waivers, Verilator's two-state configuration,
#: timing and pin constraints, linker scripts, cell libraries): judged only where a text
#: that runs a simulator names them (a do-file named ``sim.waiver`` run by ``vsim -do``).
_TOOL_ONLY = frozenset(".waiver .vlt .sdc .xdc .pcf .lpf .ucf .lds .ld .lib .lef .def".split())
_SIMULATOR = re.compile(
    r"\b(?:vsim|vlog|vopt|qrun|xrun|irun|ncsim|xmsim|vcs|simv|xsim|xelab|iverilog|vvp"
    r"|verilator|vsimsa|riviera|modelsim|questa|cocotb)\b|-do\b|\bsource\b|-input\b",
    re.I,
)
#: A Python text that may hand a lone ``"x"`` to a simulator: it names one, a write command,
#: cocotb or a simulator interface.
_SIM_MENTION = re.compile(
    rf"{_SIMULATOR.pattern}|\b(?:force|add_force|set_value|deposit|poke|pyuvm|vpi\w*|dpi)\b",
    re.I,
)
#: A Python text that writes files or prints (a generator of a simulator's script).
_PY_WRITES = re.compile(
    r"""\bopen\s*\([^)\n]*,\s*(?:mode\s*=\s*)?["'][^"']*[wax+]|\.write(?:lines)?\s*\(|"""
    r"""\bprint\s*\(|\bsys\.stdout\b|\.write_text\s*\(|\bsubprocess\b|\bos\.system\b"""
)
#: Python packaging files: naming a README or a LICENSE there is no run of it.
_PACKAGING = frozenset({"setup.py", "setup.cfg", "pyproject.toml", "manifest.in"})
#: FuseSoC file types handed to a lint or an implementation tool alone, never a simulator.
_CORE_TOOL_TYPES = frozenset(
    "vlt waiver veriblelintwaiver veriblelintrules sdc xdc pcf lpf ucf pdc ldc".split()
)
#: Waveform dumps: stimulus only where a text of the repository replays one (``-vcdstim``).
_WAVES = frozenset({".vcd", ".evcd", ".fst", ".wlf", ".gtkw", ".sav", ".wcfg"})

_D = r"\s\"'{}\[\](),;="
#: A value word (x, z, U; not W, a common parameter name) between blanks, quotes, braces,
#: brackets or ``,;=`` (not before ``(`` or ``[``: a name called or indexed, ``X[%i]``).
_WORD = rf"(?:(?<=[{_D}])|^)[xXzZU](?=[\s\"'{{}}\]),;]|$)"
_LITERAL = (
    r"(?<![\w'])\d*'[sS]?[bBoOhH][0-9a-fA-F_]*[xXzZ?][0-9a-fA-F_xXzZ?]*"
    r"|(?<![\w'])'[xXzZ](?!\w)"
    r"|\"[01xXzZuUwWlLhH\-_]*[xXzZuU][01xXzZuUwWlLhH\-_]*\""
    r"|(?<!\w)\d+#[0-9a-fA-F_xXzZ]*[xXzZ][0-9a-fA-F_xXzZ]*#"
)
_CONST = (
    r"\b(?:sv_[xz]|vpi[XZ]|vpi[XZ]Val|acc[XZ]|SC_LOGIC_[XZ]|Log_[XZ]|SC_LOGIC_\w*[XZ])\b"
    r"|\bLogic(?:Array)?\s*\.\s*[XZUW]\b"
)
_SCRIPT_X = re.compile(rf"{_WORD}|{_LITERAL}|{_CONST}", re.M)
_CODE_X = re.compile(_CONST)
_VERILOG_X = re.compile(r"(?<![\w'])\d*'[sS]?[bBoOhH]?[0-9a-fA-F_]*[xXzZ?][0-9a-fA-F_xXzZ?]*")
#: A C/C++ text that uses a simulator interface (else it runs two-state or not at all).
_C_INTERFACE = re.compile(
    r"svdpi|\bsv[A-Z]\w*|\bvpi_\w+|\bacc_\w+|\btf_\w+|veriuser|\bmti_\w+|\bvhpi_\w+"
    r"|systemc|\bsc_\w+|\bSC_[A-Z]+|\bDPI\b"
)
#: What a C/C++ text may write x with whatever value it spells: a write of an interface, a
#: four-state type.
_C_WRITE = re.compile(
    r"\b(?:vpi_put_value|acc_set_value|acc_set_\w+|tf_\w*put\w*|tf_propagatep|tf_\w*setp"
    r"|mti_(?:Set\w*|Force\w*|ScheduleDriver\w*|Command|Cmd)|vhpi_put_value"
    r"|vhpi_schedule_transaction|svPut\w*Logic\w*|svLogic\w*|s_vpi_vecval|t_vpi_vecval"
    r"|sc_logic|sc_lv|sc_signal_resolved|sc_signal_rv|sc_(?:in|out|inout)_(?:resolved|rv))\b"
)
#: A simulator write command at a statement's start (its path is the first plain word).
_COMMAND = re.compile(r"[ \t]*(?:force|add_force|set_value|deposit|change|poke|\$deposit)[ \t(]")
_OPTION_ARGS = frozenset({"-radix", "-cancel", "-repeat", "-r", "-after", "-time", "-delay"})
_FORMAT = re.compile(r"\{[A-Za-z_][\w.]*(?:![rsa])?(?::[^{}]*)?\}|\{:[^{}]*\}")
_CHUNK = 1 << 20
#: A simulator command that writes or runs at a line's start (in a file of any name).
_RUN_LINE = re.compile(
    r"^[ \t]*(?:force|add_force|set_value|deposit|poke|\$deposit|interp[ \t]+alias|eval"
    r"|vsim|xrun|vcs|run[ \t]+-all)[ \t]+\S",
    re.M,
)


@dataclass(frozen=True)
class XText:
    """A place of a text that may feed x: the path, its line, the inputs fed, what was
    found and whether it may be z."""

    path: Path
    line: int
    fed: tuple[str, ...]
    what: str
    z: bool


def is_documentation(path: Path, named: set[str], text: str = "") -> bool:
    """Whether ``path`` is prose no tool runs: a documentation suffix, a README/LICENSE-like
    name, a ``.txt`` (but ``CMakeLists.txt``) whose name ``named`` does not hold (the file
    names other texts mention), a waveform dump no text replays; none where a line naming a
    simulator names it (``vsim -do sim.md``) or, but for a documentation suffix, its ``text``
    holds a simulator command at a line's start (a do-file named ``cmds.txt``)."""
    suffix = path.suffix.lower()
    if "\0" + path.name in named or suffix not in _DOC_SUFFIXES and _RUN_LINE.search(text):
        return False
    if suffix in _DOC_SUFFIXES:
        return True
    if path.stem.lower() in _PROSE_STEMS and suffix in ("", ".txt", ".md", ".rst"):
        return True
    if suffix == ".txt":
        return path.name != "CMakeLists.txt" and path.name not in named
    if suffix in _TOOL_ONLY:
        return True
    return suffix in _WAVES and "\0vcdstim" not in named


def x_texts(
    texts: list[tuple[Path, str]],
    unread: list[Path],
    analysed: set[Path],
    inputs: list[str],
    anchors: set[str],
    holders: set[str],
    read_lines: dict[Path, set[int]] | None = None,
    instance_read: frozenset[Path] | set[Path] = frozenset(),
) -> list[XText]:
    """The places of ``texts`` (and of the ``unread`` files, by a byte search) that may feed
    x into ``inputs`` (see the module's docstring). ``analysed``: the resolved Verilog files
    the x analysis reads; ``anchors``: ``<instance>/<input>`` (lower case) where a write
    of that port writes that input alone (:func:`precise_inputs`; the target's own name for
    every input);
    ``holders``: the target's name and the modules holding it (for VHDL); ``read_lines``: per
    cocotb testbench, the lines of the writes :mod:`._foreign_x` reads (their values are
    judged there, by the input they write); ``instance_read``: the resolved Verilog texts
    whose x values only their units' instances carry, judged by the bodies instantiating the
    target (:func:`._tb_x.instance_read`), not here."""
    named = _named(texts)
    sim = _simulating_python(texts)
    out: list[XText] = []
    for path, text in texts:
        if is_documentation(path, named, text) or path.resolve() in analysed:
            continue
        if path.suffix.lower() in _VERILOG and path.resolve() in instance_read:
            continue
        lines = (read_lines or {}).get(path, set())
        found = next(_judged(path, text, inputs, anchors, holders, lines, path in sim), None)
        if found is not None:
            out.append(found)
    for path in unread:
        if not is_documentation(path, named) and path.resolve() not in analysed:
            hit = _byte_search(path)
            if hit is not None:
                out.append(XText(path, hit[0], tuple(inputs), hit[1], True))
    return out


def named_exempt(texts: list[tuple[Path, str]]) -> set[str]:
    """``"\\0"`` and the name of each exempt file (documentation, tool-only) a text that is
    not exempt names or a path pattern of it may name: judged like any text."""
    return {n for n in _named(texts) if n.startswith("\0")}


def _named(texts: list[tuple[Path, str]]) -> set[str]:
    """The ``.txt`` file names the texts that are no ``.txt`` mention, ``"\\0"`` and the name
    of an exempt file (documentation, tool-only) any text that is not exempt itself names (its
    file name as a word or a path's end: ``DO := stim.sdc`` then ``vsim -do $(DO)``), but a
    Python packaging file naming a README or a LICENSE, and ``"\\0vcdstim"`` where one
    replays a waveform."""
    names = {p.name for p, _ in texts if p.suffix.lower() == ".txt"}
    tools = {p.name for p, _ in texts if is_documentation(p, set())}
    pattern = (
        re.compile(
            r"(?<![\w.$-])(?:"
            + "|".join(re.escape(n) for n in sorted(tools, key=len, reverse=True))
            + r")(?![\w$-]|\.\w)"
        )
        if tools
        else None
    )
    out: set[str] = set()
    # a documentation file a path pattern of another text may name (scenarios/$(SCEN).txt)
    plain = [(p, t) for p, t in texts if p.name not in tools]
    docs = [p for p, _ in texts if p.name in tools]
    out |= {"\0" + p.name for p in pattern_matched(plain, docs)}
    for p, t in texts:
        if p.suffix.lower() in _DOC_SUFFIXES:
            continue
        if re.search(r"vcdstim|vcd2wlf|-vcdread|\$dumpports|evcd", t, re.I):
            out.add("\0vcdstim")
        if p.suffix.lower() != ".txt":
            out |= {n for n in names if n in t}
        if pattern is None or p.name in tools:
            continue
        packaging = p.name.lower() in _PACKAGING
        core = p.suffix.lower() == ".core"
        for m in pattern.finditer(t):
            n = m.group(0)
            if packaging and Path(n).stem.lower() in _PROSE_STEMS:
                continue
            if not (core and _core_tool_type(t, m.start())):
                out.add("\0" + n)
    return out


def _core_tool_type(text: str, at: int) -> bool:
    """Whether the FuseSoC fileset listing the name at ``at`` of a ``.core`` ``text`` types
    it for a lint or implementation tool alone (``file_type: vlt``, inline or the fileset's
    own, before the next fileset); an untyped entry or another type does not."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    line = text[start : end if end >= 0 else len(text)]
    inline = re.search(r"file_type\s*:\s*(\w+)", line)
    if inline is not None:
        return inline.group(1).lower() in _CORE_TOOL_TYPES
    rest = text[end:] if end >= 0 else ""
    block = re.split(r"\n {0,2}[\w-]+\s*:", rest, maxsplit=1)[0]
    found = re.search(r"\n\s*file_type\s*:\s*(\w+)", block)
    return found is not None and found.group(1).lower() in _CORE_TOOL_TYPES


def _judged(
    path: Path,
    text: str,
    inputs: list[str],
    anchors: set[str],
    holders: set[str],
    read_lines: set[int],
    sim: bool = True,
) -> Iterator[XText]:
    """The places of one text that feed x, by its language (first found first)."""
    suffix = path.suffix.lower()
    z = True
    if suffix in _VERILOG:
        from rtlopt.verilog import blank_comments

        for m in _VERILOG_X.finditer(blank_comments(text)):
            yield _at(path, text, m.start(), inputs, f"Verilog literal {m.group(0)}", z)
        return
    if suffix in _VHDL:
        code = re.sub(r"--[^\n]*", lambda m: " " * len(m.group(0)), text)
        for name in sorted(holders):
            use = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", code, re.I)
            if use is not None:
                why = f"VHDL naming {name}: its std_logic signals are U until written"
                yield _at(path, text, use.start(), inputs, why, z)
        return
    if suffix in _PYTHON or suffix in _C:
        yield from _code(path, text, inputs, anchors, suffix in _C, read_lines, sim)
        return
    code = re.sub(r"^[ \t]*#[^\n]*", lambda m: " " * len(m.group(0)), text, flags=re.M)
    for m in _SCRIPT_X.finditer(code):
        if not _a_name(code, m):
            yield _mapped(path, text, code, m, inputs, anchors)


#: What stands before a name that is set or declared (Tcl, shell, Make): ``set x 3``.
_NAMING = re.compile(
    r"(?:^|[\s;{\[])(?:set|variable|global|upvar|foreach|proc|unset|incr|append|lappend"
    r"|export|local|declare|readonly|let|for|lassign|dict\s+set|array\s+set)\s+$"
)


def _a_name(code: str, m: re.Match[str]) -> bool:
    """Whether the value word ``m`` is a name: a variable read (``$(X)``, ``${x}``), set
    (``set x 3``, ``X ?= 4``, ``x=1``) or declared; a literal or a constant is none."""
    if len(m.group(0)) != 1:
        return False
    before = code[max(0, m.start() - 2) : m.start()]
    if before.endswith("$") or before in ("$(", "${"):
        return True
    if re.match(r"[ \t]*[?:+!]?=(?!=)", code[m.end() :]):
        return True
    line_start = code.rfind("\n", 0, m.start()) + 1
    return bool(_NAMING.search(code[max(line_start, m.start() - 40) : m.start()]))


def _code(
    path: Path,
    text: str,
    inputs: list[str],
    anchors: set[str],
    c: bool,
    read_lines: set[int],
    sim: bool,
) -> Iterator[XText]:
    """Python or C/C++: constants in the code, values in its strings (C only where it uses a
    simulator interface, which may write anything where it writes or holds a 4-state type)."""
    from rtlopt.evaluate._reach_foreign import _C_LEX, _PY_LEX, _lex

    code, strings = _lex(text, _C_LEX if c else _PY_LEX)
    if c and not _C_INTERFACE.search(code):
        return
    hits: list[XText] = []
    for m in _CODE_X.finditer(code):
        hits.append(_at(path, text, m.start(), inputs, m.group(0), True))
    if c:
        for m in _C_WRITE.finditer(code):
            hits.append(_at(path, text, m.start(), inputs, f"{m.group(0)} (any value)", True))
    # a lone "x" (or "01X") in Python that neither names a simulator nor a write command
    # nor is imported by one that does is no value of one (a coordinate, a parser's token)
    lone = c or sim
    for at, content in strings:
        if text.count("\n", 0, at) + 1 in read_lines:
            continue  # the value of a write read by its input (``dut.s.value = "x"``)
        content = _FORMAT.sub(" ", content)
        if not lone and re.fullmatch(r"\s*[xXzZU]\s*", content):
            continue
        if not c and _compared(text, at, len(content)):
            continue  # a value compared with (``== "X"``, ``assertEqual(t, "X")``) is read
        if lone and re.fullmatch(_STD_LOGIC, content.strip()):
            hits.append(_at(path, text, at, inputs, f'"{content.strip()}"', True))
            continue
        for m in _SCRIPT_X.finditer(content):
            if _a_name(content, m):
                continue
            hit = _mapped(path, content, content, m, inputs, anchors)
            hits.append(XText(path, text.count("\n", 0, at) + 1, hit.fed, hit.what, hit.z))
            break
    if hits:
        yield min(hits, key=lambda h: h.line)


_STD_LOGIC = r"[01xXzZuUwWlLhH\-_]*[xXzZuU][01xXzZuUwWlLhH\-_]*"
_COMPARED_BEFORE = re.compile(r"(?:[=!]=|\bself\.assert\w*\([^\n]*)\s*[rbuf]?$")


def _compared(text: str, at: int, size: int) -> bool:
    """Whether the Python string literal at ``at`` (``size`` characters of content) is an
    operand of ``==``/``!=`` or an argument of a unittest assertion (``self.assertEqual``; a
    file defining its own ``assert...`` aside): a value read, not one written."""
    line_start = text.rfind("\n", 0, at) + 1
    quote_at = at - 1 if at > 0 and text[at - 1] in "\"'" else at
    before = text[line_start:quote_at]
    if _COMPARED_BEFORE.search(before):
        return "def assert" not in text or "self.assert" not in before
    end = text.find("\n", at)
    after = text[quote_at + size + 2 : end if end >= 0 else len(text)]
    return re.match(r"\s*[=!]=(?!=)", after) is not None


def _simulating_python(texts: list[tuple[Path, str]]) -> set[Path]:
    """The Python texts that name a simulator, a write command, cocotb or an interface
    (:data:`_SIM_MENTION`), that write files or print (:data:`_PY_WRITES`: a generator of a
    simulator's script), and those such a text imports (by module name, followed on)."""
    py = {p: t for p, t in texts if p.suffix.lower() in _PYTHON}
    found = {p for p, t in py.items() if _SIM_MENTION.search(t) or _PY_WRITES.search(t)}
    left = list(found)
    while left:
        names = set(re.findall(r"(?:^|\s)(?:from|import)\s+([\w.]+)", py[left.pop()], re.M))
        parts = {n for dotted in names for n in dotted.split(".") if n}
        for p in py:
            if p not in found and (p.stem in parts or p.parent.name in parts):
                found.add(p)
                left.append(p)
    return found


def _at(path: Path, text: str, at: int, inputs: list[str], what: str, z: bool) -> XText:
    return XText(path, text.count("\n", 0, at) + 1, tuple(inputs), what, z)


def _mapped(
    path: Path, text: str, code: str, m: re.Match[str], inputs: list[str], anchors: set[str]
) -> XText:
    """The x value ``m`` of a script: the one input a write command names exactly
    (``force -freeze /tb/dut/s 0 0, X 5ns``), else every input."""
    start = max(code.rfind(c, 0, m.start()) for c in "\n;\"'[{") + 1
    line_end = code.find("\n", m.end())
    statement = code[start : line_end if line_end >= 0 else len(code)]
    z = bool(re.search(r"[zZ?]", m.group(0))) or bool(_CODE_X.fullmatch(m.group(0)))
    what = " ".join(statement.split())[:60] or m.group(0)
    fed = _command_input(statement, inputs, anchors) if _COMMAND.match(statement) else None
    line = text.count("\n", 0, m.start()) + 1
    return XText(path, line, (fed,) if fed else tuple(inputs), what, z)


def _command_input(statement: str, inputs: list[str], anchors: set[str]) -> str | None:
    """The input a write command's path names exactly (``<anchor>/<input>``), or None."""
    words = [w for w in re.split(r"[\s,]+", statement.strip()) if w][1:]
    skip = False
    for w in words:
        if skip:
            skip = False
            continue
        if w.startswith("-") and len(w) > 1 and not w[1:].isdigit():
            skip = w.lower() in _OPTION_ARGS
            continue
        if re.search(r"[$\[\]*?{}()\\]", w):
            return None  # a path built at run time, a select, a pattern
        parts = [p for p in re.split(r"[/.:]+", w) if p]
        if len(parts) < 2 or f"{parts[-2]}/{parts[-1]}".lower() not in anchors:
            return None
        return next((i for i in inputs if i.lower() == parts[-1].lower()), None)
    return None


#: The start of a declaration up to a name it declares (``reg a, sel``, ``wire [3:0] sel``).
_DECLARATION = re.compile(
    r"\b(?:input|output|inout|reg|wire|logic|bit|var|tri\w*|integer)\b"
    r"(?:\s+(?:signed|unsigned))?\s*(?:\[[^\]]*\]\s*)*(?:[A-Za-z_]\w*\s*(?:=[^,;]*)?,\s*)*$"
)


def precise_inputs(module: str, instance: str, at: int, inputs: list[str]) -> set[str]:
    """The inputs of the target's instance ``instance`` (its name at offset ``at`` of the
    ``module`` code, comments blanked) a write of which writes that input alone: connected
    by name to a plain net that the module only declares, writes (``sel = 0``) and connects
    there; a net read elsewhere (another connection, an ``assign``, a condition) may carry the
    x into any input, and so does any other connection."""
    m = re.compile(rf"(?<![\w$]){re.escape(instance)}\s*(?:\[[^\]]*\]\s*)?\(").search(module, at)
    if m is None:
        return set()
    depth, end = 1, m.end()
    while end < len(module) and depth:
        depth += {"(": 1, ")": -1}.get(module[end], 0)
        end += 1
    out: set[str] = set()
    for c in re.finditer(r"\.\s*([A-Za-z_]\w*)\s*\(\s*([A-Za-z_]\w*)\s*\)", module[m.end() : end]):
        port, net = c.group(1), c.group(2)
        if port not in inputs:
            continue
        ours = m.end() + c.start(2)
        read = False
        for u in re.finditer(rf"(?<![\w$.]){re.escape(net)}(?![\w$])", module):
            after = module[u.end() : u.end() + 80]
            if u.start() == ours or re.match(r"\s*(?:\[[^\]]*\]\s*)?(?:<=|=)(?!=)", after):
                continue
            if _DECLARATION.search(module[max(0, u.start() - 120) : u.start()]) and re.match(
                r"\s*[,;=)\[]", after
            ):
                continue
            read = True
            break
        if not read:
            out.add(port)
    return out


def _byte_search(path: Path) -> tuple[int, str] | None:
    """The line and value of the first x spelling of a file too large to read whole (chunk
    by chunk, overlapping), or None; a binary file (a NUL byte in its first 8 kB) or one
    that cannot be read feeds nothing / everything."""
    try:
        with path.open("rb") as f:
            head = f.read(8192)
            if b"\0" in head:
                return None
            f.seek(0)
            lines, tail = 0, b""
            while chunk := f.read(_CHUNK):
                data = tail + chunk
                text = data.decode(errors="replace")
                code = re.sub(r"^[ \t]*#[^\n]*", lambda m: " " * len(m.group(0)), text, flags=re.M)
                m = _SCRIPT_X.search(code)
                if m is not None:
                    return lines + text.count("\n", 0, m.start()) + 1, m.group(0)
                cut = data.rfind(b"\n")
                cut = cut + 1 if cut >= 0 else len(data)
                lines += data.count(b"\n", 0, cut)
                tail = data[cut:][-4096:]
    except OSError:
        return 1, "a file that cannot be read"
    return None


#: A simulator's x-propagation mode (VCS ``-xprop=tmerge``, Xcelium ``-xprop F``, Questa
#: ``+xprop``/``-xprop``, a VCS Xprop configuration's ``merge = xmerge``).
_XPROP = (re.compile(r"[-+]xprop\b", re.I), re.compile(r"\b[tvx]merge\b", re.I))


def xprop_mode(texts: list[tuple[Path, str]], unread: list[Path]) -> str:
    """``path:line`` and the option of the first x-propagation mode a text of the repository
    (no documentation) names, or ""; files too large to read whole are searched by bytes."""
    named = _named(texts)
    for xprop in _XPROP:
        for path, text in texts:
            m = xprop.search(text)
            if m is not None and not is_documentation(path, named, text):
                return f"{path}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
    for path in unread:
        if is_documentation(path, named):
            continue
        try:
            with path.open("rb") as f:
                lines = 0
                while chunk := f.read(_CHUNK):
                    hit = _XPROP[0].search(chunk.decode(errors="replace"))
                    if hit is not None:
                        return f"{path}:{lines + 1}: {hit.group(0)}"
                    lines += chunk.count(b"\n")
        except OSError:
            return f"{path}:1: a file that cannot be read"
    return ""
