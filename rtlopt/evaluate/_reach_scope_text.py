"""A path naming the target's scope itself, and a VHDL external name into the target, in a
text of the repository: the second half of :mod:`._reach_text_paths` (which reads the texts
and words the finding).

A file that names the instance's scope can build any name inside it at run time: a Questa
do-file ``set top /tb/dut`` then ``examine $top/cnt``, a UVM backdoor
``$sformatf("%s.%s", p, "cnt")`` with ``p = "tb.dut"``, a waveform check
``scope + ".c" + "nt"``, C's adjacent literals ``"tb.dut.c" "nt"``, a golden-waveform compare
of every signal starting ``"tb.dut."``. No inner name is written whole, so the rule reads the
scope (fail closed):

- an anchor (the target's module name or an instance name of the target), a separator
  (``.``, ``/``, ``:``), then anything that is not a whole port name: a partial name (``c``
  of ``"tb.dut.c" "nt"``), a format (``%s``), a variable (``$v``, ``{v}``), a wildcard, the
  end of a string (``"tb.dut."``); a whole port name (``dut.clk``, ``/tb/dut/clk``) stays
  checked, and so does a file name (``ctr.v``, ``ctr.core``);
- the anchor standing as the end of a path of one separator or more (``"tb.dut"``,
  ``/tb/dut``, ``sim:/ctr``, ``.tb.dut``): the instance's scope; a bare word (``dut``, a
  Makefile's ``TOP=tb``) is not one;
- the module's name counts only at the top of a path (``/ctr``, ``sim:/ctr``, ``ctr.c``):
  after a separator it is a library's cell (``work.ctr``, VHDL's ``entity work.ctr``);
- a ``/`` path counts only from the root (``/tb/dut``, ``sim:/tb/dut``): a relative one
  (``rtl/ctr``, ``$(RTL)/ctr``, ``../ctr``) is a folder, and so is a path ending at a file
  (``/ip/ctr/rtl/ctr.sv``) or a web address (``https://host/ctr``);
- in a testbench of a simulator's API or a waveform reader of any package (any toplevel, its
  instance named anywhere), a string that is a whole dotted path of two parts or more not
  ending at a whole port name or a file's kind (``"tb.dut"``, ``"tb.dut."``, ``"tb.dut.c"``);
- in a Python or C/C++ text, only its strings (its code is read by :mod:`._reach_foreign`:
  ``dut._log`` is cocotb's own); in a Verilog text its strings and comments (as there); in a
  VHDL text all of it, names matched whatever their case, and ``:`` there ends a label
  (``dut:entity``), no path.

A VHDL-2008 external name ``<< signal .tb.u_counter.cnt : ... >>`` (any case; a ``signal``,
``variable`` or ``constant``) reaches the target where its last part is an inner name of the
target, or where it runs through an anchor and its last part is no port.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

__all__ = [
    "PROGRAMS",
    "Found",
    "bench_scopes",
    "external_names",
    "program_strings",
    "scope_paths",
    "waveform_reader",
]

#: Python and C/C++ texts: only their strings are read for a scope.
PROGRAMS = frozenset(
    {".py", ".pyi", ".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".ipp"}
)
#: One finding: offset in the text, the path as written, what it reaches.
Found = tuple[int, str, str]

_PY_STRINGS = re.compile(
    r"#[^\n]*|(?P<s>\"\"\"[\s\S]*?(?:\"\"\"|\Z)|'''[\s\S]*?(?:'''|\Z)"
    r"|\"(?:[^\"\\\n]|\\.)*\"?|'(?:[^'\\\n]|\\.)*'?)"
)
_C_STRINGS = re.compile(
    r"//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)|(?P<s>\"(?:[^\"\\\n]|\\.)*\"?|'(?:[^'\\\n]|\\.)*'?)"
)
#: More file kinds a bare ``ctr.kind`` is a file of (the scope rule's own: a whole path to an
#: inner name of that spelling, ``tb.dut.cfg``, stays a path).
_MORE_FILES = frozenset(
    """core ys sby xml cfg ini conf csv mk cmake sh bash zsh bat cmd ps1 pl rb js ts vlt svf
    spef sdf mif coe xci xpr qip qsf ucf pcf lpf cst tex rpt cov hjson lock bak orig tmp
    vg nl jou ltx dcp elf vmem ihex srec lds ld asm pyc whl patch diff""".split()
)
#: The rest of a path before or after the anchor.
_HEAD = re.compile(r"[\w$./:\[\]\\]+$")
_TAIL = re.compile(r"[\w$./:\[\]\\]*")
#: A path's top: a root separator, a tool's prefix (``sim:/``), or nothing.
_TOP = re.compile(r"(?:[\w$]*:)?[/.:]?\\?")
#: A ``/`` path from the root.
_ROOTED = re.compile(r"(?:[\w$]*:)?/")
#: A string that is a whole dotted path of two parts or more, perhaps ending at a separator
#: (``"tb.dut"``, ``"tb.dut."``, ``"tb.dut.c"``): its last part (group ``last``) or nothing.
_DOTTED = re.compile(
    r"(?:\\?[A-Za-z_][\w$]*(?:\[[^\]\s]{0,40}\])*\.)+"
    r"(?:\\?(?P<last>[A-Za-z_][\w$]*)(?:\[[^\]\s]{0,40}\])*)?"
)
#: Python packages a dotted string names a module of (``"cocotb.triggers"``): no path.
_PACKAGES = re.compile(r"(?:cocotb\w*|pyuvm|pyverilator|vcdvcd|pyvcd|vcd|os|sys|logging)\.")
#: A Python or C/C++ text importing or including a waveform reader of any package
#: (``pyDigitalWaveTools.vcd.parser``, ``fstapi.h``): it reads any toplevel's names.
_WAVE_READER = re.compile(
    r"^[ \t]*(?:from[ \t]+[\w.]*|import[ \t]+[\w., \t]*|#[ \t]*include[ \t]*[<\"][^>\"\n]*)"
    r"(?:vcd|fst|fsdb|wave(?!\b)|wellen|ghw|lxt)",  # not Python's own ``wave`` (audio)
    re.IGNORECASE | re.MULTILINE,
)
#: A call whose first argument is a file's name.
_OPENS = re.compile(
    r"\b(?:open|fopen|freopen|VCDVCD|Path|[io]?fstream|load\w*|read\w*|write\w*|dump\w*"
    r"|parse\w*)\s*\(\s*(?:\([^()]*\)\s*)?[rbuf]{0,2}$",
    re.IGNORECASE,
)
_EXTERNAL = re.compile(
    r"<<\s*(?:signal|variable|constant)\s+(?P<path>[^:<>;]+?)\s*:", re.IGNORECASE
)


def program_strings(text: str, suffix: str) -> list[tuple[int, str]]:
    """The string literals of a Python or C/C++ text (its comments left out), with offsets."""
    pattern = _PY_STRINGS if suffix in (".py", ".pyi") else _C_STRINGS
    return [(m.start(), m.group(0)) for m in pattern.finditer(text) if m.group("s")]


@functools.lru_cache(maxsize=64)
def _scope_pattern(anchors: frozenset[str], fold: bool) -> re.Pattern[str]:
    """An anchor (group ``anchor``; a separator before it: group ``pre``; a select may follow
    it), then a separator (``sep``) and what starts after it (``next``), once per design."""
    a = "|".join(re.escape(x) for x in sorted(anchors, key=len, reverse=True) if x)
    return re.compile(
        rf"(?:(?P<pre>[./:])|(?<![\w$]))\\?(?P<anchor>{a})(?:\[[^\]\n]{{0,40}}\])*(?![\w$])"
        rf"(?:(?P<sep>[./:])\\?(?P<next>[\w$]+|[%{{*\"'])?)?",
        re.IGNORECASE if fold else 0,
    )


def scope_paths(
    segments: list[tuple[int, str]],
    module: str,
    instances: frozenset[str],
    ports: frozenset[str],
    vhdl: bool,
    suffixes: frozenset[str],
    self_named: bool = False,
) -> list[Found]:
    """The paths of ``segments`` naming the target's scope (see the module's docstring).
    ``suffixes``: the file kinds a name then ``.kind`` is a file of; ``self_named``: the
    repository holds an instance named like the module (``ctr ctr(...)``: ``/tb/x/ctr`` is
    its scope)."""
    fold: Callable[[str], str] = str.lower if vhdl else str
    files = suffixes | _MORE_FILES
    insts = {fold(i) for i in instances}
    if not self_named:
        insts -= {fold(module)}  # a top elaborated as itself
    port_names = {fold(p) for p in ports}
    pattern = _scope_pattern(frozenset({*instances, module}), vhdl)
    out: list[Found] = []
    for start, seg in segments:
        for m in pattern.finditer(seg):
            nxt, sep = m.group("next"), m.group("sep")
            if nxt is not None and fold(nxt) in port_names:
                continue  # a whole port name
            after = seg[m.end() : m.end() + 1]
            if (
                m.group("pre") is None
                and sep == "."
                and nxt is not None
                and nxt.lower() in files
                and after not in (".", "[", "/")
            ):
                continue  # a file name (``ctr.v``; ``tb.dut.c`` is a path)
            head_m = _HEAD.search(seg, max(0, m.start("anchor") - 200), m.start("anchor"))
            head = head_m.group(0) if head_m is not None else ""
            first = head_m.start() if head_m is not None else m.start("anchor")
            tail = _TAIL.match(seg, m.end("anchor"))
            last = seg[first : tail.end() if tail is not None else m.end()]
            if not _scope(seg, first, head, last, m, fold(m.group("anchor")) in insts, vhdl, files):
                continue
            out.append((start + first, last, m.group("anchor")))
    return out


def _scope(
    seg: str,
    first: int,
    head: str,
    path: str,
    m: re.Match[str],
    instance: bool,
    vhdl: bool,
    suffixes: frozenset[str],
) -> bool:
    """Whether the match ``m`` (the path ``path`` starting ``head`` at ``first`` of ``seg``)
    names the target's scope."""
    if "://" in path:
        return False  # a web address
    if not instance and not _TOP.fullmatch(head):
        return False  # the module's name below the top of a path: a library's cell
    if "/" in head or m.group("sep") == "/":
        if not _ROOTED.match(head) or (first > 0 and seg[first - 1] in ")}~-+@"):
            return False  # a relative path: a folder
        leaf = path.rsplit("/", 1)[-1]
        if "." in leaf and leaf.rsplit(".", 1)[-1].lower() in suffixes:
            return False  # a file
    if m.group("pre") is not None:
        return True  # the end of a path: the instance's scope
    if m.group("next") is None or (vhdl and m.group("sep") == ":"):
        return False  # a bare word (a VHDL label)
    return True


def bench_scopes(
    text: str, strings: list[tuple[int, str]], ports: frozenset[str], suffixes: frozenset[str]
) -> list[Found]:
    """The strings of a testbench of a simulator's API or a waveform reader (which reads any
    toplevel, named anywhere: its instance names are not known) that are a scope path: a whole
    dotted path of two parts or more not ending at a whole port name (``"tb.dut"``,
    ``"tb.dut."``, ``"tb.dut.c"``); not a file name (``"dump.vcd"``, what ``fopen("out.x",
    ...)`` opens), not a package's module (``"cocotb.triggers"``)."""
    out: list[Found] = []
    for at, literal in strings:
        width = 3 if literal[:3] in ('"""', "'''") else 1
        body = literal[width:-width] if len(literal) >= 2 * width else literal[width:]
        m = _DOTTED.fullmatch(body)
        if m is None or _PACKAGES.match(body):
            continue
        last = m.group("last")
        file = body.count(".") == 1 and (
            (last is not None and last.lower() in suffixes | _MORE_FILES)
            or _OPENS.search(text, max(0, at - 80), at) is not None
        )
        if file or (last is not None and last in ports):
            continue  # a file (``"dump.vcd"``; ``"tb.dut.c"`` is a path), a port
        out.append((at, literal, body.rstrip(".").rsplit(".", 1)[-1]))
    return out


def waveform_reader(text: str) -> bool:
    """Whether a Python or C/C++ ``text`` imports or includes a waveform reader (its strings
    are read as :func:`bench_scopes`)."""
    return _WAVE_READER.search(text) is not None


def external_names(
    text: str, anchors: frozenset[str], ports: frozenset[str], names: frozenset[str]
) -> list[Found]:
    """The VHDL external names of ``text`` reaching into the target (see the module's
    docstring); ``names``: the target's inner names. Case-insensitive."""
    low_anchors = {a.lower() for a in anchors}
    low_ports = {p.lower() for p in ports}
    low_names = {n.lower() for n in names}
    out: list[Found] = []
    for m in _EXTERNAL.finditer(text):
        parts = [re.sub(r"\(.*", "", p).strip().lstrip("^@").lower() for p in m["path"].split(".")]
        parts = [p for p in parts if p]
        if not parts:
            continue
        leaf = parts[-1]
        if leaf in low_names or (
            leaf not in low_ports and any(p in low_anchors for p in parts[:-1])
        ):
            out.append((m.start("path"), m.group("path").strip(), leaf))
    return out
