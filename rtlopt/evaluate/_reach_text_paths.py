"""A hierarchical path to an inner name of the target in any text of the repository, for the
reach rule (:mod:`._reach`).

Every tool names a signal inside the design by a path: a Questa do-file ``force -freeze
sim:/ctr/cnt`` or ``examine /ctr/cnt``, an xsim script ``add_wave {{/ctr/cnt}}``, a UVM
backdoor ``uvm_hdl_read("tb.dut.cnt", v)``, a SignalSpy ``$init_signal_spy("/tb/dut/cnt",
...)``, a waveform check reading ``"tb.dut.cnt"`` from a VCD, a GTKWave save file listing
``tb.dut.cnt[3:0]``. A candidate that renames or drops ``cnt`` is proven at the ports while
what reads that path breaks. Recognising the tools has failed (a new reader, a new script
language each time), so the rule reads the paths, whatever file holds them (fail closed):

- a path whose separator is ``.``, ``/`` or ``:`` (no white space around it), whose part
  before an inner name of the target (declared in it, not a port; an instance inside it
  counts) is the target's module name or the name of an instance of the target in the
  repository (``dut`` of ``ctr dut(...)``; a select may follow it, ``dut[0].cnt``), in any
  text file of the repository, strings and comments included;
- in a Verilog text (a source of the design, or a file of a Verilog suffix), only its
  strings and comments: its code is judged by the hierarchical-name rule of :mod:`._reach`
  (a read of a port, a ``defparam`` of its own parameters, another module's instance of that
  name);
- in a waveform viewer's save file (``.gtkw``, ``.sav``, ``.wcfg``, ``.rc``, ``.wave``), a
  path ending at an inner name under any scope (``tb.dut.cnt[3:0]`` where the repository holds
  no ``tb``);
- not the target module's own text (its names are its own), not documentation (``.md``,
  ``.rst``, ``.adoc``: prose no tool reads; a path written there is left out), and not a
  file name (``ctr.v``, ``ctr.sv``: a module name, then a suffix of a file kind).

Where the target's inner names are not known, every identifier of its text that is no port
counts (a superset).

A text naming the target's scope itself (a prefix a script or string builds the inner names
from at run time: ``set top /tb/dut`` then ``examine $top/cnt``, ``$sformatf("%s.%s", p,
"cnt")`` with ``p = "tb.dut"``, ``"tb.dut.c" "nt"``, a walk of every signal starting
``"tb.dut."``), and a VHDL external name into the target (any case), leave the change
unchecked too: :mod:`._reach_scope_text`, read after the paths to inner names (round 73).
VHDL texts are read whatever the case of a name, and a VHDL label of an instance of the
target (``u_counter: entity work.ctr``) is an anchor. The patterns are compiled once per
design.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from rtlopt.evaluate._reach_foreign import testbenches
from rtlopt.evaluate._reach_scope_text import (
    PROGRAMS,
    bench_scopes,
    external_names,
    program_strings,
    scope_paths,
    waveform_reader,
)
from rtlopt.frontend.model import Design

__all__ = ["text_path_reach"]

#: Prose no tool reads: a path written there is left out.
_DOCUMENTATION = frozenset({".md", ".markdown", ".rst", ".adoc", ".asciidoc"})
#: Files whose code the hierarchical-name rule of :mod:`._reach` judges (strings and comments
#: are read here).
_VERILOG = frozenset(
    {".v", ".sv", ".vh", ".svh", ".vt", ".sva", ".svi", ".vi", ".vinc", ".inc", ".vlog", ".vams"}
)
#: VHDL texts: names matched whatever their case.
_VHDL = frozenset({".vhd", ".vhdl"})
#: Waveform viewers' save files: every line a signal path, whatever the scope above the
#: target is named there (a testbench the repository does not hold): any anchor counts.
_VIEWS = frozenset({".gtkw", ".sav", ".wcfg", ".rc", ".wave"})
#: A name then one of these is a file name (``ctr.v``), not a path into ``ctr``.
_FILE_SUFFIXES = frozenset(
    """v sv vh svh vt sva svi vi vinc inc vlog vams vhd vhdl f vc lst log json yaml yml toml
    txt md py c cc cpp h hpp o a so vcd fst ghw lxt vpd wlf fsdb gtkw do tcl xdc sdc lib lef
    def gds db blif edif edf bit bin hex mem dat out sim vvp exe tar gz zip pdf png svg
    html""".split()
)
#: Comments and string literals of a Verilog text (read here); the code between is not.
_VERILOG_NON_CODE = re.compile(r'//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)|"(?:[^"\\\n]|\\.)*"?')
#: The rest of a path before a match (``tb.dut`` of ``tb.dut.cnt``).
_TOKEN = re.compile(r"[\w$./:\[\]\\]+$")
_WORD = re.compile(r"(?<![\w$`])[A-Za-z_][\w$]*")
_KEYWORDS = frozenset(
    """module endmodule input output inout wire reg logic bit integer real time genvar
    parameter localparam assign always always_ff always_comb always_latch initial begin end
    if else case casez casex endcase default for while repeat forever generate endgenerate
    function endfunction task endtask posedge negedge or and not xor signed unsigned""".split()
)


def text_path_reach(
    design: Design,
    texts: list[tuple[Path, str]],
    instances: set[str],
    inner: set[str] | None,
) -> str:
    """Why a text of ``texts`` names an inner name of the target by a hierarchical path, or
    names the target's scope itself (see the module's docstring), or "". ``instances``: the
    names of the target's instances in the repository; ``inner``: the target's names (ports
    among them or not; None: not known)."""
    t = design.target
    ports = {p.name for p in t.ports}
    names = _names(design, inner) - ports
    if not names:
        return ""
    kept = [(f, x) for f, x in texts if f.suffix.lower() not in _DOCUMENTATION]
    labels = _vhdl_label(t.name)
    instances = instances | {
        m.group(1) for f, x in kept if f.suffix.lower() in _VHDL for m in labels.finditer(x)
    }
    return _inner_paths(design, kept, instances, names) or _scope_paths(
        design, kept, instances, names
    )


def _inner_paths(
    design: Design, texts: list[tuple[Path, str]], instances: set[str], names: set[str]
) -> str:
    """The first path to an inner name of the target (``names``) in ``texts``, worded."""
    t = design.target
    anchors = frozenset({*instances, t.name})
    wanted = frozenset(names)
    target = t.file.resolve()
    for file, text in texts:
        suffix = file.suffix.lower()
        vhdl = suffix in _VHDL
        if suffix in _VIEWS:
            pattern = _path_pattern(frozenset(), wanted, False)
        else:
            pattern = _path_pattern(anchors, wanted, vhdl)
        if not pattern.search(text):
            continue  # none in the whole text: none in its strings and comments
        own = file.resolve() == target
        found = {n.lower() for n in names} if vhdl else names
        for at, shown, name in _found(pattern, text, suffix in _VERILOG, found, vhdl):
            if own and t.start <= at < t.end:
                continue
            return _message(design, file, text, at, shown, name)
    return ""


def _scope_paths(
    design: Design, texts: list[tuple[Path, str]], instances: set[str], names: set[str]
) -> str:
    """The first path naming the target's scope, or VHDL external name into it, in
    ``texts`` (:mod:`._reach_scope_text`), worded."""
    t = design.target
    ports = frozenset(p.name for p in t.ports)
    anchors = frozenset({*instances, t.name})
    target = t.file.resolve()
    benches = testbenches(texts)  # a simulator's API or a waveform reader: any toplevel
    self_named = _self_named(texts, t.name)
    for file, text in texts:
        suffix = file.suffix.lower()
        low = text.lower()
        if suffix in _VIEWS:
            continue  # a viewer's list is read for inner names
        bench = file in benches or (suffix in PROGRAMS and waveform_reader(text))
        if not bench and not any(a.lower() in low for a in anchors):
            continue  # no anchor in it
        found = _scope_found(file, text, t.name, instances, ports, names, (bench, self_named))
        own = file.resolve() == target
        for at, shown, what, kind in sorted(found):
            if own and t.start <= at < t.end:
                continue
            return _scope_message(design, file, text, at, shown, what, kind)
    return ""


def _scope_found(
    file: Path,
    text: str,
    module: str,
    instances: set[str],
    ports: frozenset[str],
    names: set[str],
    kinds: tuple[bool, bool],
) -> list[tuple[int, str, str, str]]:
    """The scope paths and VHDL external names of one text: offset, the path as written,
    what it reaches, the kind (``scope``, ``external``, ``bench``). ``bench``: a testbench of
    a simulator's API or a waveform reader (:func:`._reach_foreign.testbenches`), then
    whether an instance is named like the module (:func:`_self_named`)."""
    bench, self_named = kinds
    suffix = file.suffix.lower()
    vhdl = suffix in _VHDL
    anchors = frozenset({*instances, module})
    if suffix in _VERILOG:
        segments = [(m.start(), m.group(0)) for m in _VERILOG_NON_CODE.finditer(text)]
    elif suffix in PROGRAMS:
        segments = program_strings(text, suffix)
    else:
        segments = [(0, text)]
    found = [
        (at, shown, what, "scope")
        for at, shown, what in scope_paths(
            segments, module, frozenset(instances), ports, vhdl, _FILE_SUFFIXES, self_named
        )
    ]
    if vhdl:
        found += [(*f, "external") for f in external_names(text, anchors, ports, frozenset(names))]
    if bench and suffix in PROGRAMS:
        found += [(*f, "bench") for f in bench_scopes(text, segments, ports, _FILE_SUFFIXES)]
    return found


def _self_named(texts: list[tuple[Path, str]], module: str) -> bool:
    """Whether a Verilog text of ``texts`` instantiates ``module`` under its own name
    (``ctr ctr(...)``, ``ctr #(8) ctr [1:0] (...)``)."""
    m = re.escape(module)
    pattern = re.compile(rf"(?<![\w$.]){m}\s+(?:#\s*\([^;]*?\)\s*)?{m}\s*(?:\[[^\]]*\]\s*)?\(")
    return any(f.suffix.lower() in _VERILOG and module in x and pattern.search(x) for f, x in texts)


def _names(design: Design, inner: set[str] | None) -> set[str]:
    """The target's inner names (``inner`` stripped of escapes), or every identifier of its
    text that is no keyword where those are not known."""
    if inner is not None:
        return {n.lstrip("\\") for n in inner}
    from rtlopt.verilog import blank_comments

    t = design.target
    own = t.file.read_text(errors="replace")[t.start : t.end]
    return set(_WORD.findall(blank_comments(own))) - _KEYWORDS - {t.name}


@functools.lru_cache(maxsize=64)
def _vhdl_label(module: str) -> re.Pattern[str]:
    """A VHDL instance of ``module``: its label (group 1), ``u: entity work.ctr``, ``u: ctr``,
    ``u: component ctr``; any case."""
    return re.compile(
        rf"^[ \t]*([A-Za-z]\w*)[ \t]*:[ \t]*(?:entity[ \t]+\w+\.|component[ \t]+)?"
        rf"{re.escape(module)}\b",
        re.IGNORECASE | re.MULTILINE,
    )


#: A register's name in a synthesized netlist (``cnt_reg``, ``cnt_reg_3_``, ``cnt_reg__0``).
_REG = r"(?:_reg(?:_\d+_?|__\d+|_rep\w*)?)?"
#: A scope held by a variable or filled in by a format (round 73): a Tcl or shell ``$top``,
#: ``${top}``, make's ``$(TOP)``, a Python format's ``{scope}`` or ``{}``, a ``%s``
#: (``$sformatf("%s.cnt", p)``): whatever it holds, ``<it>.cnt`` names an inner name.
_BUILT_ANCHOR = r"\$\{?[A-Za-z_]\w*\}?|\{[A-Za-z_]?\w*\}|%s"
#: After a name: a file's suffix (``.v``, ``.sv``) ending the word.
_SUFFIX_ALT = "|".join(sorted(_FILE_SUFFIXES))
_FILE_AFTER = re.compile(rf"\.(?:{_SUFFIX_ALT})(?![\w$])", re.IGNORECASE)


@functools.lru_cache(maxsize=64)
def _path_pattern(anchors: frozenset[str], names: frozenset[str], fold: bool) -> re.Pattern[str]:
    """A path: an anchor (whole word; a select may follow it), a separator, an inner name
    (group ``name``), then no more of the word than a synthesized netlist's suffix
    (``dut/cnt_reg[3]``, ``dut.cnt_reg_0_``: a gate-level simulation's names); compiled
    once per design (any case where ``fold``: a VHDL text)."""
    a = "|".join(re.escape(x) for x in sorted(anchors, key=len, reverse=True) if x)
    # none given: any name; else a scope a variable or a format holds is any anchor too
    a = f"{a}|{_BUILT_ANCHOR}" if a else r"[A-Za-z_][\w$]*"
    n = "|".join(re.escape(x) for x in sorted(names, key=len, reverse=True))
    return re.compile(
        rf"(?<![\w$])\\?(?:{a})(?:\[[^\]\n]{{0,40}}\])*[./:]\\?(?P<name>{n}){_REG}(?![\w$])",
        re.IGNORECASE if fold else 0,
    )


def _found(
    path: re.Pattern[str], text: str, verilog: bool, names: set[str], fold: bool
) -> list[tuple[int, str, str]]:
    """The paths of ``text`` (of a Verilog text, in its strings and comments only): offset,
    the path as written, the inner name."""
    segments: list[tuple[int, str]]
    if verilog:
        segments = [(m.start(), m.group(0)) for m in _VERILOG_NON_CODE.finditer(text)]
    else:
        segments = [(0, text)]
    out: list[tuple[int, str, str]] = []
    for start, seg in segments:
        for m in path.finditer(seg):
            name = m.group("name")
            sep = seg[m.start("name") - 1 - (seg[m.start("name") - 1] == "\\")]
            rest = seg[m.end() : m.end() + 1]
            # a file name (``ctr.v``): a suffix of a file kind that ends the word there
            if sep == "." and name.lower() in _FILE_SUFFIXES and rest not in (".", "[", "/"):
                continue
            # a built scope before a file's name (``${RTL}/ctr.v``): a file's path
            if seg[m.start()] in "${%" and _FILE_AFTER.match(seg, m.end()):
                continue
            word = seg[m.start("name") : m.end()]
            if word != name and (word.lower() if fold else word) in names:
                continue  # a name of its own (``cnt_reg`` declared in the target)
            if (name.lower() if fold else name) in names:
                whole = _TOKEN.search(seg, max(0, m.start() - 200), m.start())
                first = whole.start() if whole is not None else m.start()
                out.append((start + m.start(), seg[first : m.end()], name))
    return out


def _message(design: Design, file: Path, text: str, at: int, shown: str, name: str) -> str:
    target = design.target.name
    line = text.count("\n", 0, at) + 1
    try:
        where = file.resolve().relative_to(Path(design.root).resolve()).as_posix()
    except ValueError:
        where = file.name
    return (
        f"{where}:{line}: a hierarchical path names {name}, an inner name of {target} "
        f"({shown}): what reads or writes that path (a simulator script, a string path, a "
        f"waveform reader) is not a port of {target}, and the proof compares only the ports, "
        f"so it is not checked; reach {target} by its ports only there, or take the file "
        "out of the repository if it does not belong to this design"
    )


def _scope_message(
    design: Design, file: Path, text: str, at: int, shown: str, what: str, kind: str
) -> str:
    target = design.target.name
    line = text.count("\n", 0, at) + 1
    try:
        where = file.resolve().relative_to(Path(design.root).resolve()).as_posix()
    except ValueError:
        where = file.name
    builds = (
        "a script or string builds the names inside it from there (a variable, a format, "
        "pieces joined, a walk of every name under it)"
    )
    if kind == "external":
        reads = f"a VHDL external name reaches {what} inside {target} ({shown})"
    elif kind == "bench":
        reads = (
            f"a path names a scope ({shown}) in a testbench of a simulator's API or a "
            f"waveform reader, which reads any toplevel, {target} among them: {builds}"
        )
    else:
        reads = (
            f"a path names the scope of {what}, the target {target} or an instance of it "
            f"({shown}): {builds}"
        )
    return (
        f"{where}:{line}: {reads}; what it reaches is not a port of {target}, and the proof "
        f"compares only the ports, so it is not checked; name only whole ports of {target} "
        "there, or take the file out of the repository if it does not belong to this design"
    )
