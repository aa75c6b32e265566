"""Testbenches in another language that reach into the target by its inner names, for the
reach rule (:mod:`._reach`).

The proof compares the target's ports. A testbench of a simulator's API reads the target's
inner names too: a cocotb test asserts ``dut.cnt.value == 4`` (cocotb's ``dut`` is the
toplevel, the target itself, under any name), a Verilator harness reads
``top->rootp->tgt__DOT__cnt``, a VPI routine ``vpi_handle_by_name("tgt.cnt", 0)``. A candidate
that renames or drops ``cnt`` is proven at the ports while that test fails. Only files that are
such testbenches are read (Python importing cocotb, pyuvm or pyverilator in any form: ``import
os, cocotb``, after ``;``, ``__import__("cocotb")``, ``importlib.import_module``; Python naming
cocotb or pyuvm anywhere else, ``sys.modules["cocotb"]``, an import continued over lines;
Python using the cocotb handle API on a name, ``dut.cnt.value``, ``.setimmediatevalue(``,
``._id(``; a pytest test module below a ``conftest.py`` or pytest configuration naming cocotb,
whose ``dut`` a plugin hands in as a fixture; C or C++ including a Verilator, VPI or DPI
header, or calling ``vpi_handle_by_name``; a file that imports or includes one, and a helper
one of those imports or includes: :func:`testbenches`), and only
the forms that language reaches by:

- Python: an attribute ``.name`` off a handle (not off a port, ``dut.clk.value``; not off an
  imported module; not an attribute the file's own class assigns, ``self.count = 0``), a name
  looked up by string (``dut._id("cnt", ...)``, ``getattr(dut, "cnt")``, ``dut["cnt"]``);
- C/C++: a Verilator name ``..__DOT__name``, a member ``->name`` or ``.name`` (not off a port),
  a name looked up by string (``vpi_handle_by_name("cnt", scope)``, ``varFind("cnt")``);
- Python: a walk over a handle reaches every name (``for h in dut``, a comprehension over
  ``cocotb.top``, ``list(dut)``, ``dut._sub_handles``); a handle is a decorated test's first
  parameter, a name whose chain reads ``.value`` or ``._name``, ``cocotb.top``, or a name
  assigned from one of those (a walk over a port, ``for b in dut.data``, reads that port);
- either: a string path holding ``.name`` (``"tb.dut.cnt"``, ``".cnt"`` appended to a scope),
  and any string that is an inner name or a path naming one, whatever takes it
  (``operator.attrgetter("cnt")``, ``dut.__getattr__("cnt")``, ``_id(name="cnt")``).

``name`` is an inner name of the target (declared in it, not a port; an instance inside it
counts: ``dut.u_sub.x`` reads ``u_sub``). A path to an inner name in any other text (a
simulator script, a string a Verilog backdoor takes) is :mod:`._reach_text_paths`'s. Any such
file counts whatever toplevel it tests (a cocotb toplevel may be named anywhere, or computed):
fail closed. Where the target's inner names are not known, any name that is no port counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rtlopt.frontend.model import Design

__all__ = ["foreign_reach", "testbench_kind", "testbenches"]

#: A Python import of cocotb, pyuvm or pyverilator in any form: a statement of its own or
#: after ``;``, one module of a list (``import os, cocotb``), ``from cocotb... import``, or by
#: name (``__import__("cocotb")``, ``importlib.import_module("cocotb.triggers")``).
#: Python packages that drive a simulation or read its waveforms by signal path (a script
#: reading ``v["tb.u.cnt"]`` from a VCD reaches the target's inner names too: round 71).
_PY_PACKAGES = r"(?:cocotb\w*|pyuvm|pyverilator|vcdvcd|pyvcd|vcd|Verilog_VCD|pywellen|wavedrom)"
_PY_BENCH = re.compile(
    rf"(?:^|;)[ \t]*(?:import[ \t]+[^\n;#]*?(?<![\w.]){_PY_PACKAGES}\b"
    rf"|from[ \t]+{_PY_PACKAGES}\b[\w.]*[ \t]+import\b)"
    r"|\b(?:__import__|import_module)\s*\(\s*(?:name\s*=\s*)?[rbuf]?[\"']"
    rf"{_PY_PACKAGES}\b",
    re.M,
)
_C_BENCH = re.compile(
    r'^[ \t]*#[ \t]*include[ \t]*[<"](?:[^">\n]*/)?'
    r"(?:verilated\w*|V\w+|vpi_user|sv_vpi_user|svdpi|vhpi_user|acc_user|veriuser)"
    r'\.h(?:pp)?[">]|\bvpi_handle_by_name\b',
    re.M,
)
_PY_LEX = re.compile(
    r"(?P<c>#[^\n]*)|(?P<s>\"\"\"[\s\S]*?(?:\"\"\"|\Z)|'''[\s\S]*?(?:'''|\Z)"
    r"|\"(?:[^\"\\\n]|\\[\s\S])*\"?|'(?:[^'\\\n]|\\[\s\S])*'?)"
)
_C_LEX = re.compile(
    r"(?P<c>//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)|^[ \t]*#[ \t]*include\b[^\n]*)"
    r"|(?P<s>\"(?:[^\"\\\n]|\\[\s\S])*\"?|'(?:[^'\\\n]|\\[\s\S])*'?)",
    re.M,
)
_ATTRIBUTE = re.compile(r"(?:\.|->)\s*([A-Za-z_]\w*)")
_DOT_NAME = re.compile(r"(?<!\w)\w*?__(?:DOT|PVT)__\w*")
#: The Verilator objects whose members are the design's own names (``top->rootp->...``,
#: ``top->v->cnt`` of older versions, ``vlSymsp->TOP__tgt.cnt``).
_VERILATOR_SCOPE = re.compile(r"rootp|v|vlTOPp|TOP\w*")
_STRING_DOT = re.compile(r"\.\s*([A-Za-z_][\w$]*)(?![\w$])")
#: A name or a hierarchical path in a string (``cnt``, ``u_sub.x``, ``tb.dut.mem[3]``), and
#: its parts.
_PATH = re.compile(
    r"\s*\\?[A-Za-z_][\w$]*\s*(?:\[[^\]]*\]\s*)*(?:\.\s*\\?[A-Za-z_][\w$]*\s*(?:\[[^\]]*\]\s*)*)*"
)
_PART = re.compile(r"(?<![\w$\[])\\?[A-Za-z_][\w$]*(?![^\[\]]*\])")
#: Calls that look a handle up by the string that follows (after their first argument for
#: getattr and its kin; a C cast may stand before the string).
_LOOKUP = re.compile(
    r"(?:\b(?:_id|vpi_handle_by_name|varFind|handle_by_name)\s*\(\s*(?:\([^()]*\)\s*)?"
    r"|\b(?:getattr|setattr|hasattr|delattr)\s*\([^(),]*,\s*|\[\s*)$"
)
_C_SUFFIXES = frozenset(
    {".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp", ".tpp"}
)
_C_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^">\n]+)[">]', re.M)
_PY_IMPORT = re.compile(r"(?:^|;)[ \t]*(?:from[ \t]+([.\w]+)[ \t]+)?import[ \t]+([^\n#;]*)", re.M)
_SELF_ASSIGNED = re.compile(r"\b(?:self|cls)\s*\.\s*([A-Za-z_]\w*)\s*(?::[^=\n]*)?=(?!=)")
_CLASS_ASSIGNED = re.compile(r"^[ \t]+([A-Za-z_]\w*)\s*(?::[^=\n]*)?=(?!=)", re.M)
_IMPORT_LINE = re.compile(r"(?:^|;)[ \t]*(?:from[ \t]+\S+[ \t]+)?import[ \t]+([^\n#;]*)", re.M)
#: Attributes of a cocotb handle itself (read where the target's names are not known).
_HANDLE_API = frozenset(
    {"value", "setimmediatevalue", "get", "set", "integer", "binstr", "signed_integer",
     "is_resolvable", "buff", "n_bits", "start", "kill", "info", "debug", "warning", "error"}
)  # fmt: skip
_VERILOG_KEYWORDS = frozenset(
    """module endmodule input output inout wire reg logic bit integer real time genvar
    parameter localparam assign always always_ff always_comb always_latch initial begin end
    if else case casez casex endcase default for while repeat forever generate endgenerate
    function endfunction task endtask posedge negedge or and not xor signed unsigned fork
    join return automatic int byte shortint longint typedef struct packed enum unique
    priority""".split()
)


@dataclass(frozen=True)
class _Hit:
    at: int
    shown: str
    name: str


def testbench_kind(text: str) -> str:
    """``"cocotb"`` (Python importing cocotb, pyuvm, pyverilator or a waveform reader),
    ``"C/C++"`` (including a Verilator, VPI or DPI header, or calling ``vpi_handle_by_name``),
    or "" (no testbench of a simulator's API)."""
    if _PY_BENCH.search(text):
        return "cocotb"
    if _C_BENCH.search(text):
        return "C/C++"
    return ""


def testbenches(texts: list[tuple[Path, str]]) -> dict[Path, str]:
    """The testbenches among ``texts`` and their kind: those :func:`testbench_kind` names,
    the files that import or include one (``test_tgt.py`` importing a helper that imports
    cocotb), and the files those import or include (a helper ``peek.py`` or ``peek.h`` the
    testbench reads through), each followed on; by module or file name within a language."""
    own = {p: testbench_kind(t) or _python_bench(p, t) for p, t in texts}
    for p in _plugin_tests(texts):
        own[p] = own[p] or "cocotb"
    lang = {p: own[p] or _language(p) for p, _ in texts}
    by_name: dict[tuple[str, str], list[Path]] = {}
    for p, _ in texts:
        key = (
            p.parent.name if p.name == "__init__.py" else p.stem if lang[p] == "cocotb" else p.name
        )
        if lang[p]:
            by_name.setdefault((lang[p], key), []).append(p)
    uses: dict[Path, set[Path]] = {}
    used_by: dict[Path, set[Path]] = {}
    for p, t in texts:
        for q in {q for n in _used_names(t, lang[p]) for q in by_name.get((lang[p], n), ())}:
            if q != p:
                uses.setdefault(p, set()).add(q)
                used_by.setdefault(q, set()).add(p)
    found = {p: k for p, k in own.items() if k}
    for step in (used_by, uses):  # up to what runs them, then down to all they read
        left = list(found)
        while left:
            for q in step.get(left.pop(), ()):
                if q not in found:
                    found[q] = lang[q]
                    left.append(q)
    return found


#: A Python text naming cocotb or pyuvm anywhere (``sys.modules["cocotb"]``, an import
#: continued over lines, a plugin named by string).
_PY_MENTION = re.compile(r"(?<![\w.])(?:cocotb\w*|pyuvm|pyverilator)\b")
#: The cocotb handle API on a name: ``dut.cnt.value``, ``.setimmediatevalue(``, ``._id(``
#: (group 1: the chain's root, judged by :func:`_python_bench`).
_PY_HANDLE_API = re.compile(
    r"(?<![\w.])([A-Za-z_]\w*)\s*\.\s*[A-Za-z_]\w*\s*\.\s*value\b"
    r"|\.\s*(?:setimmediatevalue|_id)\s*\("
)
#: The files that configure pytest for the tests of their folder and below.
_PYTEST_CONFIGS = frozenset({"conftest.py", "pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"})


def _python_bench(path: Path, text: str) -> str:
    """``"cocotb"`` for a Python file that acts like a cocotb test without importing it: it
    names cocotb or pyuvm anywhere, or uses the handle API on a name (``X.cnt.value`` off a
    name that is no module it imports nor a class of its own, ``.setimmediatevalue(``,
    ``._id(``); else ""."""
    if path.suffix != ".py":
        return ""
    if _PY_MENTION.search(text):
        return "cocotb"
    own = _used_names(text, "cocotb") | set(re.findall(r"^[ \t]*class[ \t]+(\w+)", text, re.M))
    for m in _PY_HANDLE_API.finditer(text):
        if m.group(1) is None or m.group(1) not in own | {"self", "cls"}:
            return "cocotb"
    return ""


def _plugin_tests(texts: list[tuple[Path, str]]) -> list[Path]:
    """The pytest test modules (``test_*.py``, ``*_test.py``) at or below a folder whose
    pytest configuration (``conftest.py``, ``pytest.ini``, ``pyproject.toml``, ``setup.cfg``,
    ``tox.ini``) names cocotb or pyuvm (a plugin that hands a test ``dut`` as a fixture)."""
    folders = [
        p.parent.resolve() for p, t in texts if p.name in _PYTEST_CONFIGS and _PY_MENTION.search(t)
    ]
    if not folders:
        return []
    return [
        p
        for p, _ in texts
        if p.suffix == ".py"
        and (p.name.startswith("test_") or p.stem.endswith("_test"))
        and any(p.resolve().is_relative_to(f) for f in folders)
    ]


def _language(path: Path) -> str:
    """The kind of testbench a file of ``path``'s suffix would be ("" for another)."""
    if path.suffix == ".py":
        return "cocotb"
    return "C/C++" if path.suffix.lower() in _C_SUFFIXES else ""


def _used_names(text: str, lang: str) -> set[str]:
    """The module names a Python text imports (each part of a dotted name, each name taken
    from one) or the file names a C text includes."""
    if lang == "C/C++":
        return {Path(m.group(1)).name for m in _C_INCLUDE.finditer(text)}
    if lang != "cocotb":
        return set()
    out: set[str] = set()
    for m in _PY_IMPORT.finditer(text):
        names = m.group(2)
        if "(" in names and ")" not in names:  # a parenthesized list over several lines
            end = text.find(")", m.end())
            names = text[m.start(2) : end if end >= 0 else len(text)]
        out |= set(re.findall(r"[A-Za-z_]\w*", (m.group(1) or "") + " " + names))
    return out - {"import", "as"}


def foreign_reach(design: Design, texts: list[tuple[Path, str]], words: set[str] | None) -> str:
    """Why a testbench of ``texts`` in another language reaches into the target by an inner
    name (see the module's docstring), or "". ``words``: every identifier of the target's
    text (None: not known); slang's elaborated names are preferred where known."""
    from rtlopt.evaluate._reach_names import elaborated

    target = design.target.name
    # a parameter a parent may set is the interface's, like a port (the candidate keeps it):
    # a test's ``parameters["ID_ENABLE"]`` reads the same on both sides
    ports = {p.name for p in design.target.ports}
    ports |= {p.name for p in design.target.parameters if not p.local}
    elab = elaborated(design).inner
    inner: set[str] | None
    if elab is not None:
        inner = {n.lstrip("\\") for n in elab} - ports
    else:
        inner = None if words is None else words - ports - _VERILOG_KEYWORDS
    benches = testbenches(texts)
    for path, text in texts:
        kind = benches.get(path, "")
        if not kind:
            continue
        hit = _python_hit(text, ports, inner) if kind == "cocotb" else _c_hit(text, ports, inner)
        if hit is None:
            continue
        line = text.count("\n", 0, hit.at) + 1
        try:
            shown_path = path.resolve().relative_to(Path(design.root).resolve()).as_posix()
        except ValueError:
            shown_path = path.name
        what = (
            f"every name of {target}, its inner names among them"
            if hit.name == "*"
            else f"{hit.name}, an inner name of {target}"
            if hit.name
            else "a name that is no port"
        )
        return (
            f"{shown_path}:{line}: a {kind} testbench reaches into {target} by an inner name "
            f"({hit.shown}): it reads {what} (not a port), and the proof compares only the "
            f"ports of {target}, so what that test reads there is not checked; compare only "
            f"the ports of {target} in that test, or take the file out of the repository "
            "if it does not test this design"
        )
    return ""


def _lex(text: str, lexer: re.Pattern[str]) -> tuple[str, list[tuple[int, str]]]:
    """``text`` with comments and string literals blanked (newlines kept), and each
    literal's offset and content (quotes stripped)."""
    parts: list[str] = []
    strings: list[tuple[int, str]] = []
    last = 0
    for m in lexer.finditer(text):
        parts.append(text[last : m.start()])
        parts.append(re.sub(r"[^\n]", " ", m.group(0)))
        last = m.end()
        if m.group("s") is not None:
            q = m.group(0)
            width = 3 if q[:3] in ('"""', "'''") else 1
            strings.append((m.start(), q[width : len(q) - width if q.endswith(q[0]) else None]))
    parts.append(text[last:])
    return "".join(parts), strings


def _chain(code: str, dot: int) -> list[str]:
    """The names before the ``.``/``->`` at ``dot``, from its chain's root to the one just
    before it; the root is "" where a call or a select stands there."""
    out: list[str] = []
    i = dot
    while True:
        j = i
        while j > 0 and code[j - 1] in " \t\n":
            j -= 1
        m = re.search(r"[A-Za-z_]\w*$", code[max(0, j - 200) : j])
        if m is None:
            return ["", *reversed(out)]
        out.append(m.group(0))
        k = j - len(m.group(0))
        while k > 0 and code[k - 1] in " \t\n":
            k -= 1
        if k > 0 and code[k - 1] == ".":
            i = k - 1
        elif k > 1 and code[k - 2 : k] == "->":
            i = k - 2
        else:
            return out[::-1]


def _python_hit(text: str, ports: set[str], inner: set[str] | None) -> _Hit | None:
    code, strings = _lex(text, _PY_LEX)
    imported = {
        w.split(".")[0]
        for m in _IMPORT_LINE.finditer(code)
        for part in m.group(1).replace("(", " ").replace(")", " ").split(",")
        for w in part.split()[-1:]
    } - {"top"}
    classes = set(re.findall(r"^[ \t]*class[ \t]+([A-Za-z_]\w*)", code, re.M))
    # the attributes the file's own classes assign (``self.count = 0``, ``count: int = 0``)
    assigned = set(_SELF_ASSIGNED.findall(code)) | set(_CLASS_ASSIGNED.findall(code))
    hits: list[_Hit] = []
    for m in _ATTRIBUTE.finditer(code):
        name = m.group(1)
        if m.group(0).startswith("->") or not _reaches(name, ports, inner, api=True):
            continue
        chain = _chain(code, m.start())
        prev, root = chain[-1], chain[0]
        line_start = code.rfind("\n", 0, m.start()) + 1
        if re.match(r"[ \t]*(?:from|import)\b", code[line_start:]):
            continue
        if prev in ports or (not prev and _number_before(code, m.start())):
            continue
        # an imported module's or the file's own class's attribute (``cocotb.start_soon``,
        # ``State.IDLE``), but the toplevel's names (``cocotb.top.cnt``)
        if (root in imported or root in classes) and chain[1:2] != ["top"]:
            continue
        if prev in ("self", "cls") and name in assigned:
            continue
        shown = f"{prev}.{name}" if prev else f".{name}"
        hits.append(_Hit(m.start(), shown, name if inner is not None else ""))
    hits += _string_hits(code, strings, ports, inner)
    if inner is None or inner:
        hits += _iteration_hits(code, ports, imported | classes)
    hits += _lookup_hits(text, _handles(code, imported | classes, ports), ports, inner)
    return min(hits, key=lambda h: h.at) if hits else None


def _lookup_hits(
    text: str, handles: set[str], ports: set[str], inner: set[str] | None
) -> list[_Hit]:
    """Lookups by a name built at run time or spelt otherwise (:mod:`._reach_lookups`)."""
    from rtlopt.evaluate._reach_lookups import dynamic_lookups

    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return [
        _Hit(starts[min(line, len(starts)) - 1] + col, shown, name)
        for line, col, shown, name in dynamic_lookups(text, handles, inner)
        if not name or name not in ports
    ]


#: A loop or comprehension over a name or a chain (``for h in dut``, ``for h in cocotb.top``).
_FOR_IN = re.compile(
    r"\bfor\b[^\n:=]*?\bin\s+([A-Za-z_][\w.]*)(?=\s*(?:[:\])},]|\bif\b|\bfor\b|$))", re.M
)
#: A call that walks every name of a handle (``list(dut)``, ``sorted(dut)``, ``dir(dut)``).
_WALK_CALL = re.compile(
    r"\b(?:list|tuple|set|frozenset|sorted|reversed|iter|next|dict|enumerate|zip|map|filter|"
    r"dir|vars|len|any|all)\s*\(([^()]*)\)"
)
#: A cocotb handle's own API that walks its names (``dut._sub_handles``, ``dut._items()``).
_WALK_API = re.compile(
    r"\.\s*(_discover_all|_sub_handles|_keys|_items|_values|__iter__|__dict__|__dir__)\b"
)
#: A chain whose end is a cocotb handle's value or name (its root is a handle).
_HANDLE_USE = re.compile(
    r"(?<![\w.])([A-Za-z_]\w*)(?:\s*\.\s*[A-Za-z_]\w*)*\s*\.\s*"
    r"(?:value|_name|_path|_id|_handle|_log|setimmediatevalue)\b"
)
_ASSIGN_FROM = re.compile(
    r"(?<![\w.])((?:self\s*\.\s*|cls\s*\.\s*)?[A-Za-z_]\w*)\s*(?::[^=\n]*)?=(?!=)\s*([A-Za-z_][\w.]*)"
)


def _handles(code: str, imported: set[str], ports: set[str]) -> set[str]:
    """The names that hold a cocotb handle: the first parameter of a ``cocotb.test`` (any
    decorated test function), a name whose chain reads ``.value`` or a handle's own API
    (``dut.clk.value``: ``dut``), ``cocotb.top``, and any name assigned from one of those."""
    found = {m.group(1) for m in _HANDLE_USE.finditer(code)} - imported - {"self", "cls"}
    tests = r"@[ \t]*[\w.]*test\b[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*(?:async[ \t]+)?def"
    found |= set(re.findall(tests + r"[ \t]+\w+\s*\(\s*([A-Za-z_]\w*)", code))
    found.add("cocotb.top")
    grew = True
    while grew:
        grew = False
        for m in _ASSIGN_FROM.finditer(code):
            name, src = re.sub(r"\s+", "", m.group(1)), m.group(2)
            rest = _held(src, found)
            # a port's handle (``d = dut.data``): a walk over it reads that port only
            if name in found or rest is None or (rest and rest[0] in ports):
                continue
            found.add(name)
            grew = True
    return found


def _held(expr: str, handles: set[str]) -> list[str] | None:
    """The names after the handle ``expr`` starts with (``dut.u_sub``: ``["u_sub"]``), or
    None where it starts with none of ``handles`` (``self.dut`` counts as one name)."""
    expr = re.sub(r"\s+", "", expr)
    for h in sorted(handles, key=len, reverse=True):
        if expr == h or expr.startswith(h + "."):
            return [p for p in expr[len(h) :].split(".") if p]
    return None


def _iteration_hits(code: str, ports: set[str], imported: set[str]) -> list[_Hit]:
    """The places that walk every name of a handle (:func:`_handles`): a loop or a
    comprehension over it, a call that lists it, its own API for that; a chain into a port
    (``for b in dut.data``) walks that port only."""
    handles = _handles(code, imported, ports)

    def handle(expr: str) -> bool:
        rest = _held(expr, handles)
        return rest is not None and (not rest or rest[0] not in ports)

    hits: list[_Hit] = []
    for m in _FOR_IN.finditer(code):
        if handle(m.group(1)):
            hits.append(_Hit(m.start(), f"for ... in {m.group(1)}", "*"))
    for m in _WALK_CALL.finditer(code):
        first = m.group(1).split(",")[0].strip().lstrip("*")
        if first and re.fullmatch(r"[A-Za-z_][\w.\s]*", first) and handle(first):
            hits.append(_Hit(m.start(), " ".join(m.group(0).split())[:60], "*"))
    for m in _WALK_API.finditer(code):
        root = _chain(code, m.start())
        if root and root[0] and handle(".".join(root)):
            hits.append(_Hit(m.start(), f"{'.'.join(root)}.{m.group(1)}", "*"))
    return hits


def _c_hit(text: str, ports: set[str], inner: set[str] | None) -> _Hit | None:
    code, strings = _lex(text, _C_LEX)
    hits: list[_Hit] = []
    for m in _DOT_NAME.finditer(code):
        for part in re.split(r"__(?:DOT|PVT)__", m.group(0))[1:]:
            name = part.split("__BRA__")[0]
            if inner is None or name in inner:
                hits.append(_Hit(m.start(), m.group(0), name if inner is not None else ""))
                break
    if inner is not None:
        for m in _ATTRIBUTE.finditer(code):
            name = m.group(1)
            if name in inner:
                prev = _chain(code, m.start())[-1]
                if _VERILATOR_SCOPE.fullmatch(prev):
                    sep = "->" if m.group(0).startswith("->") else "."
                    hits.append(_Hit(m.start(), f"{prev}{sep}{name}", name))
    hits += _string_hits(code, strings, ports, inner)
    return min(hits, key=lambda h: h.at) if hits else None


def _string_hits(
    code: str, strings: list[tuple[int, str]], ports: set[str], inner: set[str] | None
) -> list[_Hit]:
    """The string literals that name an inner name of the target: a path holding ``.name``
    (where the names are not known, a whole dotted path whose last part is no port), or a
    name or path a lookup call or a subscript takes (``_id("u_sub.x")``: any part)."""
    hits: list[_Hit] = []
    for at, s in strings:
        shown = '"' + " ".join(s.split())[:60] + '"'
        looked_up = _LOOKUP.search(code[max(0, at - 200) : at]) is not None
        parts = [p.lstrip("\\") for p in _PART.findall(s)] if _PATH.fullmatch(s) else []
        if inner is not None:
            # a path, not prose: no white space in it; a lookup's first part counts too
            # any name or path naming one, whatever takes it (``attrgetter("cnt")``,
            # ``dut.__getattr__("cnt")``, ``_id(name="cnt")``): fail closed
            names = [] if re.search(r"\s", s.strip()) else _STRING_DOT.findall(s)
            names += parts
            found = [n for n in names if n in inner]
        else:
            last = parts[-1:] if looked_up or len(parts) > 1 else []
            found = [n for n in last if n not in ports]
        if found:
            hits.append(_Hit(at, shown, found[0] if inner is not None else ""))
    return hits


def _reaches(name: str, ports: set[str], inner: set[str] | None, *, api: bool) -> bool:
    """Whether ``name`` may be an inner name of the target: one of ``inner``, or, where
    those are not known, no port (nor, for an attribute, a handle's own API)."""
    if inner is not None:
        return name in inner
    if name in ports:
        return False
    return not api or not (name.startswith("_") or name in _HANDLE_API)


def _number_before(code: str, dot: int) -> bool:
    """Whether a number literal stands before the ``.`` at ``dot`` (``1.e5``, ``4.real``)."""
    return re.search(r"(?<![\w.])\d[\w]*$", code[max(0, dot - 40) : dot]) is not None
