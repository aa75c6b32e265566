"""Inner names of the target that a text reads without writing a path to them, for the reach
rule (:mod:`._reach`, round 74). Each rule is fail-closed: where the text may name an inner
name, the target's change is left unchecked.

- **netlist names and patterns** in a constraint text (a file of a constraint suffix,
  ``.sdc`` ``.xdc`` ``.ucf`` ``.pcf`` ``.qsf`` ``.lpf`` ``.ldc`` ``.pdc`` ``.tcl`` ..., or any
  text that selects cells, pins or nets: ``get_cells``, ``get_pins``, ``-filter``): an inner
  name as a word part a synthesis tool's naming produces (``meta_reg``, ``cnt_reg[3]``,
  ``cnt[3]``, ``\\cnt``, ``cnt_q``), an instance of the target (or its module's name) joined
  to an inner name by a separator a flattening tool uses (``u_sync_meta_reg``, ``u_sync__meta``,
  ``u_sync|meta``), and any glob (``*meta*``, ``u_sync/*``) or ``-regexp``
  pattern that matches an inner name or one of its netlist forms (a bare ``*`` only where
  the command selects cells, pins or nets);
- **waveforms and golden files** (a VCD's text header: ``$scope`` ... ``$var``): a ``$var``
  named like an inner name, under any scope (the scopes above the target are the
  testbench's, any name);
- **a path joined at run time**: in a text that names the target's module or an instance of
  it as a separate word (``join [list "" tb dut cnt] /``; in a Verilog text, a string:
  ``peek("dut", "cnt")``), an inner name as a separate word (in a Verilog text, in a string);
  and a name-lookup API (``vpi_handle_by_name``, ``svGetScopeFromName``,
  ``acc_handle_by_name``, ``vhpi_handle_by_name``, ``mti_FindSignal``) called with a name
  that is no string literal, anywhere in a C/C++/Python text: it may build any path, every
  inner name among them;
- **files too large to be read whole**: searched by bytes for the inner names as word parts
  (an unreadable file may hold them).

Documentation (``.md``, ``.rst``, ``.adoc``) is left out; the target's own text is its own.
"""

from __future__ import annotations

import fnmatch
import functools
import re
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.harness._binary import is_binary

__all__ = [
    "joined_reach",
    "loose_reach",
    "netlist_reach",
    "unread_inner",
    "waveform_reach",
]

#: Constraint files of the vendors (and Tcl scripts that hold constraints).
CONSTRAINTS = frozenset(
    """.sdc .xdc .ucf .pcf .qsf .lpf .ldc .pdc .fdc .cst .ccf .sgdc .tcl .qip .scf .ncf .pin
    .io .awc .ctstch .upf .cpf""".split()
)
#: A text that selects cells, pins or nets by name (a constraint, whatever its suffix).
_SELECTS = re.compile(
    r"\b(?:get_cells|get_pins|get_nets|get_registers|get_keepers|get_nodes|get_fanouts"
    r"|all_fanout|all_fanin|get_flat_cells|get_flat_pins|get_flat_nets|find_cells"
    r"|set_instance_assignment|set_dont_touch|set_false_path|set_multicycle_path"
    r"|set_max_delay|set_min_delay|set_disable_timing)\b"
)
#: What a synthesis tool appends to a register's or a net's name (Vivado, Design Compiler,
#: Genus, Quartus, Yosys, Synplify), and whatever follows it in the word: ``cnt_reg``,
#: ``cnt_reg[3]``, ``cnt_reg_3``, ``cnt_reg__0``, ``cnt_reg_rep__1``, ``cnt_q_reg``, ``cnt~q``.
_NETLIST_SUFFIX = (
    r"(?:(?:_reg|_rep|_replica)\w*|(?:_q|_r|_ff|_inst|_lopt|_fret|_bret|_CE|_Z)(?:_\d\w*)?"
    r"|_\d\w*|~\w+)?"
)
#: A word holding a glob's ``*`` or ``?`` (``*meta_reg*``, ``u_sync/*/D``).
_PATTERN_TOKEN = re.compile(r"[^\s{}\[\"';]*[*?][^\s{}\"';]*")
#: A line that selects design objects by name (a pattern there may match an inner name).
_OBJECTS = re.compile(
    r"\b(?:get_cells|get_pins|get_nets|get_registers|get_keepers|get_nodes|get_fanouts"
    r"|get_flat_\w+|find_cells|all_fanout|all_fanin|set_instance_assignment)\b|-hier|-filter"
    r"|\bNAME\s*=~|^\s*(?:INST|NET|TIMEGRP|PIN)\b|\s-to\s",
    re.IGNORECASE,
)
#: A command that selects cells, pins or nets (a bare ``*`` there selects the target's too).
_CELLS = re.compile(r"\bget_(?:cells|pins|nets|registers|keepers|nodes)\b|-hier")
#: Prose no tool reads, and lint waivers (a rename changes no build's result).
_DOCUMENTATION = frozenset(
    {".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".waiver", ".waivers", ".vbl"}
)
#: A Verilator configuration's lint and coverage lines.
_LINT = re.compile(
    r"(?m)^[ \t]*(?:lint_off|lint_on|coverage_off|coverage_on)\b(?:[^\n]*\\\n)*[^\n]*"
)
#: A Tcl line that prints a message (a banner, a log line): no name a tool looks up.
_PRINTS = re.compile(r"(?m)^[ \t]*(?:puts|echo|message|post_message|print|log)\b[^\n]*")
_VERILOG = frozenset(
    {".v", ".sv", ".vh", ".svh", ".vt", ".sva", ".svi", ".vi", ".vinc", ".inc", ".vlog", ".vams"}
)
_VERILOG_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
#: A string that is the format of a task that prints: text, never a name looked up (held-out
#: trial 52: ``$display("Bus timer with timeout %d", TIMEOUT)`` in the target's file).
_PRINTED = re.compile(
    r"\$(?:display|write|strobe|monitor|fdisplay|fwrite|fstrobe|fmonitor|info|warning|error"
    r"|fatal)[bho]?\s*\(\s*(?:[\w$.\[\]]+\s*,\s*)?(?=\")"
)
_VERILOG_COMMENT = re.compile(r"//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)")
_LOOKUP = re.compile(
    r"\b(?:vpi_handle_by_name|svGetScopeFromName|acc_handle_by_name|acc_handle_object"
    r"|vhpi_handle_by_name|mti_FindSignal|mti_FindRegion|mti_FindVar)\s*\(\s*(?P<arg>[^\s,)]*)"
)
#: A Tcl command that builds a word from pieces, a name lookup, a walk from ``$root``.
_BUILDS = re.compile(
    r"\[\s*(?:join|format|string\s+map|concat)\s|\$root\b|\b(?:vpi_handle_by_name"
    r"|svGetScopeFromName|acc_handle_by_name|vhpi_handle_by_name|mti_Find\w+)\s*\("
)
_PROGRAMS = frozenset(
    {".py", ".pyi", ".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".ipp"}
)
#: What names top-level ports only: ``get_ports`` and its argument, a pin assignment line
#: (``set_io``, ``set_location_assignment``, ``IO_LOC``, ``LOCATE COMP``, a ``.ucf`` ``LOC``).
_PORTS_ONLY = re.compile(
    r"\bget_ports\s+(?:\{[^}\n]*\}|-\S+\s+)*(?:\{[^}\n]*\}|[^\s\]]+)"
    r"|^[ \t]*(?:set_io|set_location_assignment|set_io_standard|IO_LOC|IO_PORT"
    r"|LOCATE\s+COMP|IOBUF\s+PORT|NET\s+\S+\s+LOC\b|ldc_set_location|ldc_set_port)\b[^\n]*",
    re.IGNORECASE | re.MULTILINE,
)
#: A name then ``.<one of these>`` is a file's name (``ctr.v``), no scope.
_FILE_KINDS = "v|sv|vh|svh|vhd|vhdl|f|c|cc|cpp|h|py|core|vcd|tcl|do|xdc|sdc|json|yml|yaml|txt"
_VCD_VAR = re.compile(r"\$var\s+\S+\s+\S+\s+\S+\s+\\?([^\s\[]+)")


def _kept(design: Design, texts: list[tuple[Path, str]]) -> list[tuple[Path, str]]:
    """``texts`` but documentation, with the target module's own text blanked."""
    t = design.target
    target = t.file.resolve()
    out = []
    for f, x in texts:
        if f.suffix.lower() in _DOCUMENTATION:
            continue
        if f.suffix.lower() == ".vlt":  # a lint rule's message names nothing a build reads
            x = _LINT.sub(" ", x)
        if f.resolve() == target:
            x = x[: t.start] + re.sub(r"[^\n]", " ", x[t.start : t.end]) + x[t.end :]
        out.append((f, x))
    return out


@functools.lru_cache(maxsize=64)
def _part_pattern(names: frozenset[str]) -> re.Pattern[str]:
    """An inner name as a word part a netlist may hold: no letter or digit before it (a
    ``/``, ``.``, ``|``, ``\\`` or a quote may be), a netlist suffix or a select after it."""
    n = "|".join(re.escape(x) for x in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9_$])\\?(?P<name>{n}){_NETLIST_SUFFIX}(?![A-Za-z0-9_$])")


def _forms(names: frozenset[str], anchors: frozenset[str]) -> list[str]:
    """The names a netlist gives an inner name, bare and under an anchor."""
    bare = [
        f
        for n in sorted(names)
        for f in (n, f"{n}_reg", f"{n}_reg[0]", f"{n}[0]", f"{n}_q", f"{n}_reg_0", f"\\{n}")
    ]
    return bare + [f"{a}{s}{f}" for a in sorted(anchors) for s in _JOINERS for f in bare]


#: What a flattening tool puts between an instance's name and an inner name (Yosys ``.``,
#: Design Compiler's ungroup and change_names ``_``, Vivado ``/``, Quartus ``|`` and ``:``).
_JOINERS = ("/", ".", "_", "__", "|", ":", "$")


@functools.lru_cache(maxsize=64)
def _joined_pattern(names: frozenset[str], anchors: frozenset[str]) -> re.Pattern[str]:
    """An instance of the target (or its module's name) joined to an inner name by a
    hierarchy separator into one netlist word (``u_sync_meta_reg``, ``u_sync__meta``,
    ``u_sync|meta~q``), under any flattened prefix, a netlist suffix or none after it; an
    instance of an array keeps its index (``u_sync[0]_meta_reg``, ``u_sync_0__meta_reg``)."""
    n = "|".join(re.escape(x) for x in sorted(names, key=len, reverse=True))
    a = "|".join(re.escape(x) for x in sorted(anchors, key=len, reverse=True))
    return re.compile(
        rf"(?<![A-Za-z0-9$])\\?(?:{a})(?:\\?\[\d+\]|_\d+_)*(?:__|[/._|:$])\\?(?P<name>{n})"
        rf"{_NETLIST_SUFFIX}"
        r"(?![A-Za-z0-9_$])"
    )


def _pattern_hits(token: str, forms: list[str], regexp: bool) -> bool:
    """Whether the glob (or regular expression) ``token`` matches one of ``forms``."""
    if regexp:
        try:
            rx = re.compile(token)
        except re.error:
            return True  # not read: fail closed
        return any(rx.search(f) for f in forms)
    # a pin of the cells (``u/*/D``): the cells' pattern
    globs = {token.replace("\\", ""), token.replace("\\", "").rsplit("/", 1)[0]}
    rxs = [re.compile(fnmatch.translate(g)) for g in globs if g]
    return any(rx.match(f) or rx.match(f.split("/")[-1]) for rx in rxs for f in forms)


def constraint_text(path: Path, text: str) -> bool:
    """Whether ``text`` is a constraint text: a constraint suffix, or it selects by name."""
    return path.suffix.lower() in CONSTRAINTS or _SELECTS.search(text) is not None


def netlist_reach(
    design: Design, texts: list[tuple[Path, str]], instances: set[str], names: set[str]
) -> str:
    """Why a constraint text names an inner name by a netlist name or a pattern, or ""."""
    wanted, anchors = frozenset(names), frozenset({*instances, design.target.name})
    part, forms = _part_pattern(wanted), _forms(wanted, anchors)
    for path, text in _kept(design, texts):
        if path.suffix.lower() in _VERILOG or not constraint_text(path, text):
            continue
        # Tcl comments at a command start, and what only names ports (a pin assignment)
        code = _PORTS_ONLY.sub(" ", re.sub(r"(?m)^\s*#[^\n]*", "", text))
        code = _PRINTS.sub(" ", code)
        hit = part.search(code) or _joined_pattern(wanted, anchors).search(code)
        if hit is not None:
            where = (path, code, hit.start())
            return _message(design, where, hit.group(0), hit.group("name"), _NETLIST)
        for line in code.splitlines():
            if not _OBJECTS.search(line):
                continue  # a pattern of modules, files or messages (a synthesis script's)
            regexp = "-regexp" in line
            tokens = line.split() if regexp else _PATTERN_TOKEN.findall(line)
            for token in tokens:
                token = token.strip("{}[]\"'")
                if not token or token.startswith("-"):
                    continue
                if not regexp and not re.search(r"[A-Za-z0-9_]", token):
                    if not re.search(
                        r"\bget_(?:cells|pins|nets|registers|keepers|nodes)\b|-hier", line
                    ):
                        continue  # a bare * of ports or clocks
                if (regexp or "*" in token or "?" in token) and _pattern_hits(token, forms, regexp):
                    at = code.find(line)
                    return _message(design, (path, code, at), token, "an inner name", _PATTERN)
    return ""


def anchored_reach(
    design: Design, texts: list[tuple[Path, str]], instances: set[str], names: set[str]
) -> str:
    """Why any text but documentation selects an inner name by a pattern anchored to the
    target's module name or an instance of it (``ctr/w:*nt``): :mod:`._reach_anchored`."""
    from rtlopt.evaluate._reach_anchored import anchored_pattern

    forms = [f for f in _forms(frozenset(names), frozenset()) if not f.startswith("\\")]

    def found(path: Path, code: str, at: int, token: str) -> str:
        return _message(design, (path, code, at), token, "an inner name", _ANCHORED)

    anchors = {*instances, design.target.name}
    kept = [(p, x) for p, x in _kept(design, texts) if p.name != "rtlopt.toml"]  # rtlopt's own
    return anchored_pattern(kept, anchors, forms, _VERILOG, found)


def waveform_reach(design: Design, texts: list[tuple[Path, str]], names: set[str]) -> str:
    """Why a waveform's text header (a VCD: ``$scope`` then ``$var``) declares a variable
    named like an inner name of the target, under any scope, or ""."""
    for path, text in texts:
        if "$var" not in text or "$scope" not in text:
            continue
        for m in _VCD_VAR.finditer(text):
            # a reference written with its scope (``dut.cnt``): its last part
            if re.split(r"[./:|]", m.group(1))[-1].lstrip("\\") in names:
                return (
                    f"{_where(design, path)}:{text.count(chr(10), 0, m.start()) + 1}: a "
                    f"waveform declares {m.group(1)}, an inner name of {design.target.name} "
                    f"({' '.join(m.group(0).split())}): a comparison against it (a golden "
                    "waveform) reads a name that is not a port, so it is not checked; keep "
                    "only ports in the waveform, or take the file out of the repository"
                )
    return ""


def joined_reach(
    design: Design, texts: list[tuple[Path, str]], instances: set[str], names: set[str]
) -> str:
    """Why a text may join a path to an inner name at run time (see the module's
    docstring), or ""."""
    anchors = {*instances, design.target.name}
    a = "|".join(re.escape(x) for x in sorted(anchors, key=len, reverse=True))
    anchor = re.compile(rf"(?<![\w$])(?:{a})(?![\w$])(?!\.(?:{_FILE_KINDS})\b)")
    inner = _word_pattern(frozenset(names))
    for path, text in _kept(design, texts):
        suffix = path.suffix.lower()
        if suffix in _PROGRAMS:
            for m in _LOOKUP.finditer(text):
                if not m.group("arg").startswith(('"', "'", 'L"', 'u8"')):
                    where = (path, text, m.start())
                    return _message(design, where, m.group(0), "any inner name", _LOOKED_UP)
        if suffix in _VERILOG:
            body = _VERILOG_COMMENT.sub(lambda c: " " * len(c.group(0)), text)
            printed = {m.end() for m in _PRINTED.finditer(body)}
            segments = [
                (s.start(), s.group(0))
                for s in _VERILOG_STRING.finditer(body)
                if s.start() not in printed
            ]
        else:
            segments = [(0, text)]
        # a text that builds names (Tcl join/format, a lookup, a $root walk) needs no anchor
        builds = _BUILDS.search(text) is not None and suffix not in _VERILOG
        if not builds and not any(anchor.search(s) for _, s in segments):
            continue
        for start, seg in segments:
            hit = inner.search(seg)
            if hit is not None:
                where = (path, text, start + hit.start())
                return _message(design, where, hit.group(0), hit.group(0), _JOINED)
    return ""


@functools.lru_cache(maxsize=64)
def _word_pattern(names: frozenset[str]) -> re.Pattern[str]:
    n = "|".join(re.escape(x) for x in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w$])(?:{n})(?![\w$])")


def unread_inner(design: Design, files: list[Path], names: set[str]) -> str:
    """Why a text file too large to be read whole holds an inner name of the target as a word
    part (a byte search; a file that cannot be opened may), or "". A binary file (a NUL byte
    in its first 8 kB) is left out."""
    if not names:
        return ""
    part = _part_pattern(frozenset(names))
    pattern = re.compile(part.pattern.encode())
    for f in files:
        try:
            with f.open("rb") as fh:
                head = fh.read(8192)
                if is_binary(head):
                    continue
                found, tail = pattern.search(head) is not None, head[-256:]
                while not found:
                    block = fh.read(1 << 22)
                    if not block:
                        break
                    found = pattern.search(tail + block) is not None
                    tail = block[-256:]
        except OSError:
            found = True
        if found:
            return (
                f"{_where(design, f)}: a file too large or unreadable to be read here holds an "
                f"inner name of {design.target.name}: what it reads there is not a port, so it "
                "is not checked; take the file out of the repository if it does not belong "
                "to this design"
            )
    return ""


def _where(design: Design, path: Path) -> str:
    try:
        return path.resolve().relative_to(Path(design.root).resolve()).as_posix()
    except ValueError:
        return path.name


#: What each rule found (the reason worded).
_NETLIST = "a constraint names it by a synthesized netlist name (a register's cell, a net)"
_PATTERN = "a constraint selects cells by a name pattern that matches it or its netlist name"
_ANCHORED = (
    "a tool selects objects by a name pattern under the target (its module or an instance "
    "path) that matches it or its netlist name"
)
_LOOKED_UP = "a name lookup takes a name built at run time, which may be any of the target's"
_JOINED = (
    "the text names the target or an instance of it, or builds names (a join, a format, a "
    "lookup), and holds it as a separate word a path may be joined from at run time"
)


def _message(design: Design, where: tuple[Path, str, int], shown: str, name: str, why: str) -> str:
    path, text, at = where
    target = design.target.name
    line = text.count("\n", 0, max(at, 0)) + 1
    return (
        f"{_where(design, path)}:{line}: {name} of {target} may be read there "
        f"({' '.join(shown.split())[:80]}): {why}; what it reaches is not a port of {target}, "
        "and the proof compares only the ports, so it is not checked; name only ports of "
        f"{target} there, or take the file out of the repository if it does not belong to "
        "this design"
    )


def loose_reach(
    design: Design,
    texts: list[tuple[Path, str]],
    unread: list[Path],
    instances: set[str],
    inner: set[str] | None,
) -> str:
    """The rules of the module's docstring, in order, or "". ``inner``: the target's names
    (None: not known). The names are those its elaborated scopes declare (every identifier
    of its text but keywords where not known), its ports, parameters and own name left out
    (a waveform's variables: its parameters counted, a simulator dumps them)."""
    from rtlopt.evaluate._reach_names import elaborated
    from rtlopt.verilog import blank_comments

    t = design.target
    declared = elaborated(design).inner
    if declared is None:
        text = t.file.read_text(errors="replace")[t.start : t.end]
        declared = frozenset(_IDENTIFIER.findall(blank_comments(text)))
        if inner is not None:
            declared &= {n.lstrip("\\") for n in inner}
    own = blank_comments(t.file.read_text(errors="replace")[t.start : t.end])
    # a genvar names no signal (a loop's index)
    subroutines = set(_SUBROUTINE.findall(own))  # called, never read as a signal
    genvars = {g for m in _GENVAR.finditer(own) for g in re.findall(r"[A-Za-z_][\w$]*", m.group(1))}
    params = {p.name for p in t.parameters}
    signals = {n.lstrip("\\") for n in declared} - _KEYWORDS - {p.name for p in t.ports} - {t.name}
    signals -= genvars | subroutines
    names = signals - params
    if not signals:
        return ""
    return (
        (netlist_reach(design, texts, instances, names) if names else "")
        or (anchored_reach(design, texts, instances, names) if names else "")
        or waveform_reach(design, texts, signals)
        or (joined_reach(design, texts, instances, names) if names else "")
        or unread_inner(design, unread, signals)
    )


_SUBROUTINE = re.compile(r"\b(?:function|task)\b[^;(]*?([A-Za-z_][\w$]*)\s*[(;]")
_GENVAR = re.compile(r"\bgenvar\s+([^;)=]+)")
_IDENTIFIER = re.compile(r"(?<![\w$`])[A-Za-z_][\w$]*")
_KEYWORDS = frozenset(
    """module endmodule input output inout wire reg logic bit integer real time genvar
    parameter localparam assign always always_ff always_comb always_latch initial begin end
    if else case casez casex endcase default for while repeat forever generate endgenerate
    function endfunction task endtask posedge negedge or and not xor signed unsigned""".split()
)
