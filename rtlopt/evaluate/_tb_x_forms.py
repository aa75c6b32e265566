"""Verilog text forms that may write x into a design where the elaboration cannot follow the
write, for :mod:`._tb_x`. Every function reads a text whose comments and strings
:func:`lexed` blanked (line numbers kept), in every branch of its conditional directives.

- a write through a clocking block (``cb.s <= 1'bx``) or a virtual interface handle
  (``vif.s = v``), and, where the repository declares a virtual interface anywhere, any write
  through a dotted name inside a class (a handle's member may be one): :func:`handle_writes`;
- an imported DPI function returning a 4-state type or a DPI import with a 4-state ``output``
  or ``inout`` argument (only ``bit``, ``int``, ``byte``, ``shortint``, ``longint``,
  ``chandle``, ``void``, ``real``, ``shortreal``, ``string`` are not 4-state; a type name
  rtlopt does not know is): :func:`dpi_four_state`;
- a call of a system task or function that is not a standard one (PLI/VPI user tasks such as
  ``$xsel(s)`` may write any argument with any value, ``$deposit`` too):
  :func:`user_system_calls`;
- a literal with x, z or ``?`` bits: :func:`x_literals`, and the lines a conditional
  directive (```ifdef``/```ifndef``/```elsif``/```else``) governs: :func:`conditional_lines`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "conditional_lines",
    "dpi_four_state",
    "handle_writes",
    "lexed",
    "testbench",
    "units",
    "user_system_calls",
    "virtual_types",
    "x_literals",
]

_LEXED = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.S)
#: A design unit's start and end keyword (a text holding both is Verilog, whatever its name).
_UNIT = re.compile(
    r"^[ \t]*(?:\w+[ \t]+)?(?:module|macromodule|program|interface|package|class)\b"
    r"[^;]*?\b([A-Za-z_]\w*)\s*(?:[#(;:]|import\b|extends\b)",
    re.M,
)
_END = re.compile(r"\bend(?:module|program|interface|package|class)\b")
_WORD = re.compile(r"(?<![\w$`'])[A-Za-z_]\w*")
_XLIT = re.compile(
    r"(?<![\w$])(?:\d[\d_]*\s*)?'[sS]?[bBoOhHdD]\s*[0-9a-fA-F_]*[xXzZ?][0-9a-fA-F_xXzZ?]*"
    r"|'[xXzZ]\b"
)
_CLOCKING = re.compile(r"\bclocking\s+([A-Za-z_]\w*)")
_VIRTUAL = re.compile(
    r"\bvirtual\s+(?:interface\s+)?(?!function\b|task\b|class\b|protected\b|local\b|static\b"
    r"|pure\b|automatic\b)([A-Za-z_]\w*)(?:\s*\.\s*\w+)?(?:\s*#\s*\([^;]*?\))?\s+([A-Za-z_]\w*)"
)
_TYPEDEF_VIRTUAL = re.compile(r"\btypedef\s+virtual\s+(?:interface\s+)?\w+[^;]*?(\w+)\s*;")
#: A write through a dotted name: ``h.s =``, ``h[0].s <=`` (not ``==``, ``<=`` as a compare
#: is told apart by the statement start).
_DOTTED_WRITE = re.compile(
    r"(?:^|[;{)]|\bbegin\b|\belse\b|##\s*\w+|#\s*[\w.]+|@\s*\([^)]*\))\s*"
    r"([A-Za-z_]\w*)(?:\s*\[[^\]]*\])*\s*\.\s*[\w.\[\]\s]*?\s*(?:<=|=(?!=))",
    re.M,
)
_CLASS = re.compile(r"\bclass\b.*?\bendclass\b", re.S)
_DPI = re.compile(r'\bimport\s+"[^"\n]*"\s*(?:\w+\s*=\s*)?(.*?);', re.S)
_TWO_STATE = frozenset(
    {
        "bit",
        "int",
        "byte",
        "shortint",
        "longint",
        "chandle",
        "void",
        "real",
        "shortreal",
        "string",
        "realtime",
    }  # fmt: skip
)
#: A system task or function call (not an escaped name ``\\$_DFF_P_`` nor a unit named so:
#: a Yosys techmap file's ``module $_DLATCH_P_ (``).
_UNIT_HEAD = re.compile(r"\b(?:module|macromodule|primitive|interface|program)\s*$")
#: Arguments that are literals only (strings, numbers): nothing a task could write.
_LITERAL_ARGS = re.compile(
    r'(?:\s*(?:"(?:[^"\\\n]|\\.)*"|\d[\w\']*|\'[sS]?[bodhBODH][\w?]+)\s*,)*'
    r'\s*(?:"(?:[^"\\\n]|\\.)*"|\d[\w\']*|\'[sS]?[bodhBODH][\w?]+)\s*\)'
)
#: What stands before a call that is a statement (a task's), not an operand.
_STATEMENT_HEAD = re.compile(r"(?:[;{}]|\b(?:begin|end|else|initial|final|always\w*)|\))\s*$")
_SYSCALL = re.compile(r"(?<![\\\w$])(\$[A-Za-z_][\w$]*)\s*\(")
#: A conditional directive, anywhere on its line (as the preprocessor reads it).
_DIRECTIVE = re.compile(r"`(ifdef|ifndef|elsif|else|endif)\b")

#: Standard system tasks and functions (IEEE 1800, 1364) and the dump tasks of simulators:
#: none writes an argument otherwise than the elaboration reads (:mod:`rtlopt.frontend._sys_x`).
KNOWN = frozenset(
    "$" + n
    for n in (
        "display displayb displayo displayh write writeb writeo writeh strobe strobeb "
        "strobeo strobeh monitor monitorb monitoro monitorh monitoron monitoroff fdisplay "
        "fdisplayb fdisplayo fdisplayh fwrite fwriteb fwriteo fwriteh fstrobe fstrobeb "
        "fstrobeo fstrobeh fmonitor fmonitorb fmonitoro fmonitorh fopen fclose fflush feof "
        "ferror fgetc fgets fscanf sscanf fread fseek ftell rewind ungetc swrite swriteb "
        "swriteo swriteh sformat sformatf readmemb readmemh writememb writememh finish stop "
        "exit fatal error warning info time stime realtime timeformat printtimescale "
        "timeunit timeprecision random urandom urandom_range dist_uniform dist_normal "
        "dist_exponential dist_poisson dist_chi_square dist_t dist_erlang signed unsigned "
        "cast bits size clog2 ln log10 exp sqrt pow floor ceil sin cos tan asin acos atan "
        "atan2 hypot sinh cosh tanh asinh acosh atanh itor rtoi bitstoreal realtobits "
        "bitstoshortreal shortrealtobits isunknown onehot onehot0 countones countbits "
        "left right low high increment dimensions unpacked_dimensions typename "
        "test$plusargs value$plusargs dumpfile dumpvars dumpon dumpoff dumpall dumplimit "
        "dumpflush dumpports dumpportson dumpportsoff dumpportsall dumpportslimit "
        "dumpportsflush sampled rose fell stable changed past past_gclk rose_gclk "
        "fell_gclk stable_gclk changed_gclk future_gclk rising_gclk falling_gclk "
        "steady_gclk changing_gclk global_clock inferred_clock inferred_disable "
        "assertoff asserton assertkill assertcontrol assertpasson assertpassoff "
        "assertfailon assertfailoff assertnonvacuouson assertvacuousoff coverage_control "
        "coverage_get_max coverage_get coverage_merge coverage_save get_coverage "
        "set_coverage_db_name load_coverage_db system q_initialize q_add q_remove q_full "
        "q_exam async$and$array async$and$plane async$nand$array async$nand$plane "
        "async$or$array async$or$plane async$nor$array async$nor$plane sync$and$array "
        "sync$and$plane sync$nand$array sync$nand$plane sync$or$array sync$or$plane "
        "sync$nor$array sync$nor$plane static_assert root unit "
        # Icarus Verilog's own: files opened by name only
        "fopenr fopenw fopena"
    ).split()
)
#: Simulators' waveform and coverage tasks: they record, they do not write.
_DUMP_PREFIXES = ("$fsdb", "$vcdplus", "$shm_", "$recordvars", "$recordfile", "$vcdpluson")


def lexed(text: str) -> str:
    """``text`` with its comments and string literals blanked (newlines kept)."""
    return _LEXED.sub(_blank, text)


def _blank(m: re.Match[str]) -> str:
    """A comment as blanks, a string as its quotes around blanks (``import "DPI-C"``)."""
    s = m.group(0)
    if s.startswith('"'):
        return '"' + " " * (len(s) - 2) + '"'
    return re.sub(r"[^\n]", " ", s)


def units(code: str) -> list[str]:
    """The design units ``code`` (stripped) defines, by name, or [] when it holds no unit
    with its end keyword (no Verilog text)."""
    if not _END.search(code):
        return []
    return [m.group(1) for m in _UNIT.finditer(code)]


def words(code: str) -> set[str]:
    """The identifiers of ``code``."""
    return set(_WORD.findall(code))


_DEFINE = re.compile(r"`define[ \t]+(\w+)(.*(?:\\\n.*)*)")
_MACRO_USE = re.compile(r"`([A-Za-z_]\w*)")


def macros_naming(codes: Iterable[str], names: set[str]) -> set[str]:
    """The macros the texts define whose body names one of ``names`` (``DUT`` for
    ```define DUT mux``), at any depth of macros naming macros."""
    bodies: dict[str, set[str]] = {}
    for code in codes:
        for m in _DEFINE.finditer(code):
            got = bodies.setdefault(m.group(1), set())
            got |= words(m.group(2)) | {"`" + u for u in _MACRO_USE.findall(m.group(2))}
    found: set[str] = set()
    grew = True
    while grew:
        grew = False
        for n, ws in bodies.items():
            if n not in found and ws & (names | {"`" + f for f in found}):
                found.add(n)
                grew = True
    return found


def macro_uses(code: str) -> set[str]:
    """The macros ``code`` uses, each as ```NAME``."""
    return {"`" + n for n in _MACRO_USE.findall(code)}


def line_of(code: str, at: int) -> int:
    return code.count("\n", 0, at) + 1


def x_literals(code: str) -> list[int]:
    """Offsets of the literals of ``code`` with x, z or ``?`` bits that may be written: all
    but an operand of an equality (``s !== 1'bx``) and a case item (``4'b1??0:``)."""
    out = []
    for m in _XLIT.finditer(code):
        before = code[max(0, m.start() - 4) : m.start()].rstrip()
        after = code[m.end() : m.end() + 40].lstrip()
        if re.search(r"[=!]=[=?]?$", before) or re.match(r"[=!]=", after):
            continue
        if re.match(r":(?!:)", after) or re.match(r",[^;]*?:(?!:)", after[:40]):
            continue  # a case item (``1'bx, 1'bz: ...``)
        out.append(m.start())
    return out


#: A testbench's content: a simulation's end, a testbench unit, a procedural delay.
_BENCH = re.compile(
    r"\$finish\b|\$exit\b|\$stop\b|^[ \t]*(?:program|class|clocking)\b"
    r"|(?:^|[;)])\s*#\s*[\w.]+|\b(?:begin|initial|always|forever)\s*#\s*[\w(]",
    re.M,
)


def testbench(code: str) -> bool:
    """Whether ``code`` reads as a testbench's (:data:`_BENCH`), not the design's."""
    return _BENCH.search(code) is not None


def conditional_lines(code: str) -> set[int]:
    """The lines a conditional directive governs (every branch, nested ones too)."""
    out: set[int] = set()
    depth = 0
    start = 0
    for m in _DIRECTIVE.finditer(code):
        kind = m.group(1)
        if kind in ("ifdef", "ifndef"):
            if depth == 0:
                start = line_of(code, m.start())
            depth += 1
        elif kind == "endif" and depth:
            depth -= 1
            if depth == 0:
                out.update(range(start, line_of(code, m.start()) + 1))
    if depth:  # an unclosed conditional governs the rest
        out.update(range(start, code.count("\n") + 2))
    return out


def virtual_types(code: str) -> list[int]:
    """Offsets of the virtual interface declarations of ``code``."""
    return [m.start() for m in _VIRTUAL.finditer(code)] + [
        m.start() for m in _TYPEDEF_VIRTUAL.finditer(code)
    ]


def handle_writes(code: str, any_virtual: bool) -> list[int]:
    """Offsets of the writes of ``code`` through a clocking block or a virtual interface
    handle declared in it, and (``any_virtual``: the repository declares a virtual interface)
    of every write through a dotted name inside a class."""
    heads = {m.group(1) for m in _CLOCKING.finditer(code)}
    heads |= {m.group(2) for m in _VIRTUAL.finditer(code)}
    heads |= {m.group(1) for m in _TYPEDEF_VIRTUAL.finditer(code)}
    classes = [(m.start(), m.end()) for m in _CLASS.finditer(code)] if any_virtual else []
    out = []
    for m in _DOTTED_WRITE.finditer(code):
        at = m.start(1)
        if m.group(1) in ("this", "super") and code.count(".", at, m.end()) == 1:
            continue  # the object's own member (``this.n = 0``), no handle's
        if m.group(1) in heads or any(a <= at < b for a, b in classes):
            out.append(at)
    if re.search(r"\bdefault\s+clocking\b", code) and re.search(r"##", code):
        # a default clocking block's drives name no block: every clockvar drive counts
        out += [m.start() for m in re.finditer(r"\bclocking\b", code)]
    return out


def _four_state(decl: str) -> bool:
    """Whether a type and name ``decl`` (``logic [3:0] v``, ``int v``) may hold x."""
    toks = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[[^\]]*\]", " ", decl))
    toks = [t for t in toks if t not in ("input", "output", "inout", "ref", "const", "signed",
                                         "unsigned", "var")]  # fmt: skip
    if len(toks) < 2:  # an implicit type (``output v``): logic
        return True
    return toks[0] not in _TWO_STATE


def dpi_four_state(code: str) -> list[int]:
    """Offsets of the DPI imports of ``code`` whose function result or an ``output``/``inout``
    argument may hold x."""
    out = []
    for m in _DPI.finditer(code):
        body = m.group(1)
        head, _, args = body.partition("(")
        head = re.sub(r"\b(?:context|pure)\b", " ", head).strip()
        kind, _, rest = head.partition(" ")
        if kind == "function":
            ret = rest.strip()
            # the return type is everything before the name (``logic [1:0] f``)
            if _four_state(ret if " " in ret or "[" in ret else "logic " + ret):
                out.append(m.start())
                continue
        for arg in args.rsplit(")", 1)[0].split(","):
            if re.match(r"\s*(?:output|inout|ref)\b", arg) and _four_state(arg):
                out.append(m.start())
                break
    return out


def user_system_calls(code: str) -> list[tuple[int, str]]:
    """Offsets and names of the calls in ``code`` of a system task or function that is not a
    standard one (nor a simulator's dump task) with arguments: it may write them."""
    out = []
    for m in _SYSCALL.finditer(code):
        name = m.group(1)
        if name in KNOWN or name.startswith(_DUMP_PREFIXES):
            continue
        if _UNIT_HEAD.search(code[max(0, m.start() - 40) : m.start()]):
            continue
        rest = code[m.end() : m.end() + 200].lstrip()
        if rest.startswith(")"):
            continue  # no argument
        if _LITERAL_ARGS.match(rest) and _STATEMENT_HEAD.search(
            code[max(0, m.start() - 40) : m.start()]
        ):
            continue  # a task given literals only: nothing it could write (a function's
            # result may be x)
        out.append((m.start(), name))
    return out
