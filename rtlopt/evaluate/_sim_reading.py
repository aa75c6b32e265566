"""The simulators' readings of a change: ``SYNTHESIS`` undefined, and each tool's own macro.

rtlopt reads, simulates and proves every design with ``SYNTHESIS`` defined (the synthesized
view), and leaves that macro and the tools' identity macros out of the configurations it
enumerates (``evaluate/_configs.py``). Every simulator reads the same text without
``SYNTHESIS``: an ```ifndef SYNTHESIS`` branch, the ```else`` of an ```ifdef SYNTHESIS``, a
header only such a branch includes, and a macro a header defines otherwise there.

What a simulator reads beyond the proven reading is safe when it cannot change a value the
design computes: assertions, reports, and signals of its own that only they read (an
*inert* stretch). :func:`simulator_change` compares a candidate module with the reference
module in each simulator reading: when neither holds anything but inert stretches there
beyond the proven reading, or the candidate reads exactly as the reference there, the proof
covers it; otherwise the change is unchecked, and the reason names the macro, file and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.evaluate._configs import SIMULATOR_MACROS, SYNTHESIS_MACROS
from rtlopt.evaluate._sim_forms import unread_form
from rtlopt.evaluate._sim_walk import Bodies, Reading, definitions, resolver, walk
from rtlopt.frontend.model import Design

__all__ = [
    "SIMULATOR_MACROS",
    "inert",
    "readings",
    "module_simulator_change",
    "simulator_change",
]

_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_OPERATOR = re.compile(
    r"<<<=|>>>=|<<=|>>=|===|!==|==\?|!=\?|==|!=|<=|>=|\|->|\|=>|->>|->|\+=|-=|\*=|/=|%=|&=|"
    r"\|=|\^=|\+\+|--|::|[=()\[\]{};]|\$[A-Za-z_][\w$]*|`[A-Za-z_][\w$]*|[A-Za-z_][\w$]*|\S"
)
_NAME = re.compile(r"[A-Za-z_][\w$]*")
_LOOP_VARIABLE = re.compile(
    r"\bfor\s*\(\s*(?:genvar|int|integer|byte|shortint|longint|int\s+unsigned)\s+([A-Za-z_][\w$]*)"
)
_ASSIGNING = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "<<<=", ">>>="}
_DECLARING = {
    "reg",
    "wire",
    "logic",
    "bit",
    "byte",
    "int",
    "integer",
    "shortint",
    "longint",
    "real",
    "realtime",
    "time",
    "string",
    "genvar",
    "event",
}
#: Keywords a ``(`` may follow without naming a call or an instance.
_KEYWORDS = {
    "if",
    "else",
    "while",
    "for",
    "foreach",
    "repeat",
    "case",
    "casez",
    "casex",
    "assert",
    "assume",
    "cover",
    "restrict",
    "property",
    "sequence",
    "iff",
    "not",
    "and",
    "or",
    "posedge",
    "negedge",
    "edge",
    "wait",
    "always",
    "always_ff",
    "always_comb",
    "always_latch",
    "initial",
    "final",
    "disable",
    "default",
    "unique",
    "priority",
    "signed",
    "unsigned",
    "return",
    "begin",
    "end",
    "throughout",
    "within",
    "intersect",
    "first_match",
    "strong",
    "weak",
    "s_eventually",
    "eventually",
    "nexttime",
    "until",
    "s_until",
    "implies",
    "accept_on",
    "reject_on",
    *_DECLARING,
}
#: System tasks and functions that only report or read.
_REPORTS = re.compile(
    r"\$(?:[f]?(?:display|write|strobe|monitor)[bho]?|error|warning|info|fatal|time|stime|realtime|isunknown|onehot0?|countones|countbits|bits|clog2|signed|"
    r"unsigned|past|rose|fell|stable|changed|sampled|test\$plusargs|sformatf|psprintf|size|"
    r"high|low|left|right|increment|dimensions|dump(?:file|vars|on|off|all|limit|flush)|"
    r"fflush|fclose|assert(?:off|on|kill|control)|typename|timeformat|printtimescale)$"
)


def inert(text: str, bodies: Bodies, declared: set[str], depth: int = 0) -> str:
    """What in ``text`` (comments blanked, one reading's active text) may change a value
    the design computes ("" when nothing does): an assignment to anything but a variable
    ``declared`` in the same reading-only code, a continuous assignment or force, an
    instance or a call of anything but a reporting system task, an increment, an event
    trigger, a macro whose body (``bodies``) does one of those or is unknown, or a form
    :func:`unread_form` names (fail closed)."""
    code = _STRING.sub('""', text)
    unread = unread_form(code)  # escaped and hierarchical names, task enables, gates
    if unread:
        return unread
    toks = _OPERATOR.findall(code)
    declared = declared | set(_LOOP_VARIABLE.findall(code))  # a loop's own variable
    depth_paren = 0
    for i, tok in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if tok in ("(", "[", "{"):
            depth_paren += 1
        elif tok in (")", "]", "}"):
            depth_paren = max(0, depth_paren - 1)
        if tok in ("++", "--"):
            if (toks[i - 1] if i else "") in declared or nxt in declared:
                continue
            return f"{tok!r}"
        if tok in ("force", "release", "deassign", "defparam", "->", "->>"):
            return f"{tok!r}"  # (an assign's target is checked at its =)
        if tok == "disable" and nxt != "iff":
            return "'disable' of a block"
        if tok in _ASSIGNING or (tok == "<=" and depth_paren == 0):
            target = _target(toks, i)
            if target not in declared:
                return f"an assignment to {target or 'an expression'}"
        if tok.startswith("$") and not _REPORTS.match(tok):
            return f"the system task {tok}"
        if tok.startswith("`"):
            name = tok[1:]
            if name in ("__FILE__", "__LINE__"):
                continue
            found = bodies.get(name)
            if found is None:
                return f"the macro `{name}, whose definition is not known"
            if depth > 8:
                return f"the macro `{name} (nested too deep)"
            for body in found:
                why = inert(_active(body, bodies), bodies, declared, depth + 1)
                if why:
                    return f"`{name}: {why}"
        elif (
            re.fullmatch(r"[A-Za-z_][\w$]*", tok)
            and tok not in _KEYWORDS
            and (nxt == "(" or nxt == "#" or (nxt == "[" and _after_ranges(toks, i + 1) == "("))
            and not (i and toks[i - 1] in (".", "`", "::"))
        ):
            return f"a call or instance of {tok}"
    return ""


def declarations(text: str) -> set[str]:
    """The names ``text`` declares (``logic [7:0] x;``, ``pkg::state_t s;``: the first of a
    list)."""
    toks = _OPERATOR.findall(_STRING.sub('""', text))
    out: set[str] = set()
    for i, tok in enumerate(toks):
        if not _NAME.fullmatch(tok) or tok in _KEYWORDS:
            continue
        prev = toks[i - 1] if i else ""
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        typed = (
            _NAME.fullmatch(prev)
            and prev not in _KEYWORDS
            and nxt in (";", ",", "=", "[")
            and (i < 2 or toks[i - 2] not in (".", "`"))
        )
        if typed or prev in _DECLARING or (prev == "]" and _declared_after_range(toks, i)):
            out.add(tok)
    return out


def _after_ranges(toks: list[str], i: int) -> str:
    """The token after the bracketed ranges from ``toks[i]`` (an instance array's name
    ``u [3:0] (`` is followed by its ports)."""
    depth = 0
    while i < len(toks):
        depth += {"[": 1, "]": -1}.get(toks[i], 0)
        i += 1
        if depth == 0 and (i >= len(toks) or toks[i] != "["):
            return toks[i] if i < len(toks) else ""
    return ""


def _declared_after_range(toks: list[str], i: int) -> bool:
    """Whether the ``]`` before ``toks[i]`` closes a packed range after a declaring keyword."""
    depth, j = 0, i - 1
    while j >= 0:
        if toks[j] == "]":
            depth += 1
        elif toks[j] == "[":
            depth -= 1
            if depth == 0:
                k = j - 1
                while k >= 0 and toks[k] in ("signed", "unsigned"):
                    k -= 1
                if k >= 0 and toks[k] == "]":
                    return _declared_after_range(toks, k + 1)
                return k >= 0 and toks[k] in _DECLARING
        j -= 1
    return False


def _target(toks: list[str], i: int) -> str:
    """The variable an assignment operator at ``toks[i]`` writes: the root of a name with
    indices and members (``v[i].f``: ``v``; a hierarchical ``top.u.x``: ``top``, which no
    reading-only code declares), "" for a concatenation or anything else."""
    j = i - 1
    while j >= 0:
        if toks[j] == "]":
            depth = 0
            while j >= 0:
                depth += {"]": 1, "[": -1}.get(toks[j], 0)
                j -= 1
                if depth == 0:
                    break
        elif _NAME.fullmatch(toks[j]) and j > 0 and toks[j - 1] == ".":
            j -= 2
        else:
            break
    if j >= 0 and _NAME.fullmatch(toks[j]) and (j == 0 or toks[j - 1] not in (".", "::")):
        return toks[j]
    return ""


def _active(body: str, bodies: Bodies) -> str:
    """The text of a macro body that its own conditionals keep (no macro known defined:
    the readings' states are not tracked inside a body)."""
    body = body.replace("``", "").replace('`"', '"')  # token pasting, macro strings
    try:
        return "\n".join(e.text for e in walk(body, [Reading(set())]) if e.kind == "text")
    except ValueError:
        return body


def readings(base: frozenset[str], tested: Iterable[str]) -> list[tuple[str, frozenset[str]]]:
    """The simulators' readings of a design read with ``base`` (label, defined macros):
    ``SYNTHESIS`` undefined, alone and with each simulator macro of ``tested``."""
    plain = base - SYNTHESIS_MACROS
    out = [("with SYNTHESIS undefined (every simulator's reading)", plain)]
    for k in sorted(set(tested) & SIMULATOR_MACROS):
        out.append((f"with {k} defined and SYNTHESIS undefined ({k}'s reading)", plain | {k}))
    return out


@dataclass
class _Side:
    """One module text's simulator reading: what makes it differ from the proven reading
    (the first non-inert one, with its place) and its tokens there."""

    why: str
    tokens: list[str]


_TOKEN = re.compile(r"[A-Za-z_][\w$]*|\\\S+|\d[\w']*|'[sS]?[bBoOdDhH]\s*[\w?]+|\"[^\"\n]*\"|\S")
_USE = re.compile(r"`([A-Za-z_][\w$]*)")


def _side(
    code: str,
    base: Reading,
    sim: Reading,
    label: str,
    include_dirs: Sequence[Path],
    file: str,
) -> _Side:
    """Reads ``code`` (a module, comments blanked) in the proven and a simulator reading."""
    s = Reading(set(base.defined), {k: set(v) for k, v in base.bodies.items()}, dict(base.where))
    t = Reading(set(sim.defined), {k: set(v) for k, v in sim.bodies.items()}, dict(sim.where))
    why = ""
    tokens: list[str] = []
    s_tokens: list[str] = []
    marks: list[str] = []
    events = list(walk(code, [s, t], file=file, resolve=resolver(include_dirs)))
    # the variables of a reading's own code: declared in stretches that reading alone takes,
    # never in the other's, and named nowhere both read (``reg c = 8'h5a`` under `ifndef
    # SYNTHESIS with ``reg c`` in its `else declares the shared c)
    names: dict[tuple[bool, ...], set[str]] = {(True, False): set(), (False, True): set()}
    shared: set[str] = set()
    for e in events:
        if e.kind == "text" and e.taken in names:
            names[e.taken] |= declarations(e.text)
        elif e.kind == "text":
            shared |= set(re.findall(r"[A-Za-z_][\w$]*", e.text))
    own: dict[tuple[bool, ...], set[str]] = {
        (True, False): names[(True, False)] - names[(False, True)] - shared,
        (False, True): names[(False, True)] - names[(True, False)] - shared,
    }
    differ = _differing(s, t)
    for e in events:
        where = _where(e.file, file, e.line)
        if e.kind == "include":
            if e.taken[1]:
                tokens += ["`include", e.text or e.name]
            if e.taken[0] != e.taken[1] and not e.text and not why:
                why = f"{where} includes {e.name}, which rtlopt does not find"
            continue
        if e.kind == "define":
            if e.taken[1]:
                tokens += ["`define", e.name, *_TOKEN.findall(e.text)]
            continue
        before = (list(s_tokens), list(tokens))
        if e.taken[0]:
            s_tokens += _TOKEN.findall(e.text)
        if e.taken[1]:
            tokens += _TOKEN.findall(e.text)
            marks += [f"`{m}@simulator" for m in _USE.findall(e.text) if m in differ]
        if why:
            continue
        if e.taken == (True, True):
            for m in _USE.finditer(e.text):
                name = m.group(1)
                if name not in differ:
                    continue
                where = _where(e.file, file, e.line + e.text.count("\n", 0, m.start()))
                # a macro the proven reading drops altogether (an assertion macro's empty
                # body) may stand for inert code; one with a value there reads another value
                # (and one that stands where a statement must follow, in the place of it)
                ahead = before[1] + _TOKEN.findall(e.text[: m.start()])
                problem = (
                    (
                        inert(
                            f"`{name}{_arguments(e.text, m.end())}",
                            _only(t),
                            set(own[(False, True)]),
                        )
                        or _placed(ahead, "")
                    )
                    if _empty(name, _only(s))
                    else "another value there"
                )
                if problem:
                    why = (
                        f"{where} uses macro `{name}, which {_defined_at(name, t)} defines "
                        f"otherwise {label} ({problem})"
                    )
                    break
        else:
            reading = t if e.taken[1] else s
            problem = inert(e.text, _only(reading), set(own[e.taken])) or _placed(
                before[1] if e.taken[1] else before[0], e.text
            )
            if problem:
                kind = "reads" if e.taken[1] else "leaves out"
                why = f"{where}: a simulator {kind} code there {label} ({problem})"
    return _Side(why, tokens + marks)


_ENDS = {
    ";",
    "begin",
    "end",
    "endcase",
    "endgenerate",
    "generate",
    "endfunction",
    "endtask",
    "endproperty",
    "endsequence",
    "endclocking",
    "join",
    "join_any",
    "join_none",
}
_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"), ("begin", "end"), ("fork", "join"))


def _placed(prior: list[str], text: str) -> str:
    """Why a stretch one reading alone takes (``text``; "" for a macro's expansion) may
    change the statements around it rather than add to them, or "": it must start where a
    statement or item may (after ``prior``, the last tokens that reading read before it),
    and be whole (its brackets and blocks balanced, ending a statement)."""
    prev = prior[-1] if prior else ""
    label = len(prior) >= 3 and prior[-2] == ":" and prior[-3] == "begin"
    if prior and prev not in _ENDS and not label and not _after_macro(prior):
        return f"it follows {prev!r}, in the place of a statement there"
    if not text:
        return ""
    toks = _OPERATOR.findall(_STRING.sub('""', text))
    for a, b in _PAIRS:
        if toks.count(a) != toks.count(b) + (toks.count("join_any") + toks.count("join_none")) * (
            a == "fork"
        ):
            return f"its {a} and {b} do not balance"
    if toks.count("case") + toks.count("casez") + toks.count("casex") != toks.count("endcase"):
        return "its case and endcase do not balance"
    last = toks[-1] if toks else ";"
    if last not in _ENDS and not last.startswith(("end", "`")) and not _ends_in_use(toks):
        return f"it ends with {last!r}, not a whole statement"
    return ""


def _ends_in_use(toks: list[str]) -> bool:
    """Whether ``toks`` (of :data:`_OPERATOR`) end with a macro's use with arguments."""
    j, depth = len(toks) - 1, 0
    while j >= 0:
        depth += {")": 1, "(": -1}.get(toks[j], 0)
        j -= 1
        if depth == 0:
            break
    return j >= 0 and toks[j].startswith("`")


def _after_macro(prior: list[str]) -> bool:
    """Whether ``prior`` ends with a macro's use (```M`` or ```M(...)``), which stands for
    whole items (an assertion macro's)."""
    j = len(prior) - 1
    if prior[j] == ")":
        depth = 0
        while j >= 0:
            depth += {")": 1, "(": -1}.get(prior[j], 0)
            j -= 1
            if depth == 0:
                break
    return j >= 1 and prior[j - 1] == "`" and bool(_NAME.fullmatch(prior[j]))


def _differing(s: Reading, t: Reading) -> set[str]:
    """The macros whose bodies differ between the readings, or use one that does."""
    out = {n for n in set(s.bodies) | set(t.bodies) if s.bodies.get(n) != t.bodies.get(n)}
    grew = True
    while grew:
        grew = False
        for n, bodies in (*s.bodies.items(), *t.bodies.items()):
            if n not in out and any(set(_USE.findall(b)) & out for b in bodies):
                out.add(n)
                grew = True
    return out


def _empty(name: str, bodies: Bodies, depth: int = 0) -> bool:
    """Whether macro ``name`` expands to nothing with ``bodies`` (macros that expand to
    nothing aside)."""
    found = bodies.get(name)
    if found is None or depth > 8:
        return False
    for body in found:
        text = _active(body, bodies)
        rest, at = [], 0
        for m in _USE.finditer(text):
            if not _empty(m.group(1), bodies, depth + 1):
                return False
            rest.append(text[at : m.start()])
            at = m.end() + len(_arguments(text, m.end()))
        rest.append(text[at:])
        if "".join(rest).strip():
            return False
    return True


def _copy(r: Reading, start: frozenset[str]) -> Reading:
    return Reading(set(start | r.defined), {k: set(v) for k, v in r.bodies.items()}, r.where)


def _only(r: Reading) -> Bodies:
    return {k: frozenset(v) for k, v in r.bodies.items()}


def _defined_at(name: str, r: Reading) -> str:
    f, line = r.where.get(name, ("", 0))
    return f"{Path(f).name} line {line}" if f else "the design"


def _arguments(text: str, at: int) -> str:
    """The parenthesised arguments of a macro use at ``at`` in ``text`` ("" when none)."""
    rest = text[at:]
    if not rest.lstrip(" \t").startswith("("):
        return ""
    start = at + len(rest) - len(rest.lstrip(" \t"))
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start : i + 1]
    return text[start:]


def _where(file: str, module_file: str, line: int) -> str:
    if not file or file == module_file:
        return f"line {line} of the module"
    return f"{Path(file).name} line {line}"


def simulator_change(
    reference: str,
    candidate: str,
    *,
    defined: frozenset[str],
    files: Sequence[Path],
    include_dirs: Sequence[Path],
    module_file: Path | None = None,
    predefined: tuple[tuple[str, str], ...] = (),
) -> str:
    """Why ``candidate`` (the target module's text, comments blanked) may read otherwise
    than ``reference`` in a simulator's reading that rtlopt does not prove, or "".

    ``defined``: the macros the proven reading defines where the module starts (with
    ``SYNTHESIS``); ``files``: the design's files in the order a unit reads them (their
    macros, and those of the headers they include, read in each reading)."""
    from rtlopt.evaluate._configs import tested_macros

    texts = reference + "\n" + candidate
    tested = tested_macros(texts)
    uses = set(_USE.findall(texts))
    if not tested & ({"SYNTHESIS"} | SIMULATOR_MACROS) and not uses and "`include" not in texts:
        return ""
    base = frozenset(defined | {"SYNTHESIS"})
    proven = definitions(files, include_dirs, base, predefined)
    where = str(module_file or "")
    for label, reading in readings(base, tested | proven.tested):
        sim = definitions(files, include_dirs, reading, predefined)
        # the state where the module starts: what the files leave defined in each reading
        s = _copy(proven, base)
        t = _copy(sim, reading)
        try:
            ref = _side(reference, s, t, label, include_dirs, where)
            cand = _side(candidate, s, t, label, include_dirs, where)
        except ValueError as exc:
            return f"the module's conditionals do not nest ({exc})"
        if not ref.why and not cand.why:
            continue  # beyond the proven reading, both hold only assertions and reports
        if ref.tokens == cand.tokens:
            continue  # the candidate reads exactly as the reference there
        why = cand.why or ref.why
        return (
            f"{why}; there the candidate reads otherwise than the reference, and rtlopt "
            "proves only the reading with SYNTHESIS defined: keep what simulators read beyond "
            "it as the repository has it"
        )
    return ""


def module_simulator_change(
    design: Design, reference: str, candidate: str, defined: Iterable[str]
) -> str:
    """:func:`simulator_change` of a candidate's text (its target module) against the
    repository's module ``reference``, in ``design``'s unit (its prelude, then its sources)."""
    from rtlopt.verilog import blank_comments, module_spans

    name = design.target.name

    def module(text: str) -> str:
        code = blank_comments(text, strings=False)
        span = next((m for m in module_spans(code) if m.name == name), None)
        return code if span is None else code[span.start : span.end]

    files = list(dict.fromkeys([*design.prelude, *design.sources.files]))
    return simulator_change(
        module(reference),
        module(candidate),
        defined=frozenset(defined) | frozenset(design.defines),
        files=files,
        include_dirs=design.include_dirs,
        module_file=design.target.file,
        predefined=tuple(sorted(design.defines.items())),
    )
