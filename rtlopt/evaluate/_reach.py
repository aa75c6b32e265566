"""The rest of the repository reaching into the target where the proof does not look.

The proof compares the target's ports. Two things outside the target change what it does in
the repository without passing through them:

- a hierarchical name into an instance of the target (``initial u.c = 8'h5a;`` in a top, a
  memory preload ``tb.dut.u_ram.mem[i] = ...``, a ``force``): a candidate that keeps the name
  but no longer uses what it holds is "proven" while every simulation of the repository reads
  another design;
- an instance or a ``defparam`` of the target that a simulator reads but the synthesis reading
  does not (```ifndef SYNTHESIS defparam u.K = 200;``): the configurations the repository uses
  are read with ``SYNTHESIS`` defined, so that parameterization is never checked; a
  ``defparam`` in a file another build reads otherwise counts where its path reaches the
  target (:mod:`._defparam_paths`: through an instance of it, or on a module that holds one).

:func:`repository_reach` finds either in any file of the repository and says why the target's
changes are unchecked (fail closed; the same for every candidate, so it is read once per
design).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from rtlopt.evaluate._defparam_paths import defparam_reach
from rtlopt.evaluate._repo_texts import other_texts, repository_texts
from rtlopt.frontend.model import Design
from rtlopt.verilog_instances import BUILT_INSTANCE, instances_of

__all__ = ["repository_reach"]

_REACH: dict[tuple[int, Path | None], tuple[object, str]] = {}


def repository_reach(design: Design, own: Path | None = None) -> str:
    """Why the target's changes are unchecked because another file of the repository reaches
    into it (see the module's docstring), or "". ``own`` is rtlopt's scratch folder, never
    read as a file of the repository."""
    key = (id(design), own.resolve() if own is not None else None)
    hit = _REACH.get(key)
    if hit is None or hit[0] is not design:
        if len(_REACH) > 8:
            _REACH.clear()
        hit = _REACH[key] = (design, _reach(design, own))
    return hit[1]


def _reach(design: Design, own: Path | None) -> str:
    from rtlopt.verilog import blank_comments

    name = design.target.name
    word = re.compile(rf"\b{re.escape(name)}\b")
    raw = repository_texts(design)
    code_of: dict[Path, str] = {}

    def code(path: Path, text: str) -> str:  # comments blanked, once per file
        if path not in code_of:
            code_of[path] = blank_comments(text)
        return code_of[path]

    instances = {i for p, t in raw if word.search(t) for i in _instance_names(code(p, t), name)}
    # every other text of the repository that names the target or one of its instances (a
    # Makefile may compile any file); one that cannot be read whole and may name them fails
    # closed
    others, unread = other_texts(design, own)
    named = [(p, t) for p, t in others if word.search(t)]
    instances |= {i for p, t in named for i in _instance_names(code(p, t), name)}
    wanted = _hierarchical(instances - {BUILT_INSTANCE})
    more = [(p, t) for p, t in others if word.search(t) or (wanted and wanted.search(t))]
    raw, extra = [*raw, *more], {p for p, _ in more}
    why = _unread_mention(unread, name, instances - {BUILT_INSTANCE}) or _unreadable_forms(
        raw, name, word, instances, code
    )
    if why:
        return why
    instances.discard(BUILT_INSTANCE)
    return _hierarchical_reach(design, raw, others, extra, instances, word, code)


def _unreadable_forms(
    raw: list[tuple[Path, str]],
    name: str,
    word: re.Pattern[str],
    instances: set[str],
    code: Callable[[Path, str], str],
) -> str:
    """Why an instance or a name of the target in ``raw`` cannot be read here (a value
    without parentheses, a name a macro builds, a macro writing a defparam), or ""."""
    for path, text in raw:
        bare = word.search(text) and [i for i in instances_of(code(path, text), name) if i.bare]
        if bare:
            line = text.count("\n", 0, bare[0].start) + 1
            return (
                f"{path.name}:{line}: an instance of {name} with a parameter value written "
                f"without parentheses ({name} #value {bare[0].names[0]}): simulators read the "
                "value, while the synthesis and parameter readings see none, so that "
                "parameterization is not checked"
            )
    for path, text in raw:
        why = _built_names(path, text, name) or (
            f"{path.name}: an instance of {name} whose name a macro builds"
            if BUILT_INSTANCE in instances
            and word.search(text)
            and BUILT_INSTANCE in _instance_names(code(path, text), name)
            else ""
        )
        if why:
            return why + ": the names it is reached by cannot be read here"
        dp = "defparam" in text and _DEFPARAM_MACRO.search(code(path, text))
        if dp:
            line = text.count("\n", 0, dp.start()) + 1
            return (
                f"{path.name}:{line}: a macro writes a defparam: the parameters it overrides "
                "cannot be read here"
            )
    return ""


def _hierarchical_reach(
    design: Design,
    raw: list[tuple[Path, str]],
    others: list[tuple[Path, str]],
    extra: set[Path],
    instances: set[str],
    word: re.Pattern[str],
    code: Callable[[Path, str], str],
) -> str:
    """Why a text of ``raw`` reaches into an instance of the target (a hierarchical name
    that is not a read of a port, a macro naming the target, a bind, a simulator-only
    instance), or ""."""
    from rtlopt.verilog import PREPROCESSOR_DIRECTIVES, alternation

    name = design.target.name
    target = design.target.file.resolve()
    ports = {p.name for p in design.target.ports}
    params = {p.name for p in design.target.parameters if not p.local}
    inner = _inner_names(design) - ports
    hier = _hierarchical(instances)
    macros = _macro_definitions([t for _, t in [*raw, *others]])
    # a name a macro builds (`P.c) ending in one of the target's own names
    built = re.compile(
        rf"`(?!(?:{alternation(PREPROCESSOR_DIRECTIVES)})\b)[A-Za-z_][\w$]*"
        r"\s*(?:\([^()\n]*\))?\s*\.\s*([A-Za-z_][\w$]*)"
    )
    for path, text in raw:
        rest = ""
        if (hier is not None and hier.search(text)) or "`" in text:
            rest = code(path, text)
            if path.resolve() == target:
                rest = _outside_target(rest, name)
        found = [
            m
            for m in (hier.finditer(rest) if hier is not None and rest else ())
            if not (_defparam(rest, m.start()) and _own_parameter(rest, m, params))
            and (m.group(1) not in ports or not _read_only(rest, m.start(), m.end(), macros))
            # in a file that is no source (a Makefile naming ``u.c``), a name of the target
            and (path not in extra or _may_be_verilog(rest, m, inner | ports))
        ]
        found += [m for m in built.finditer(rest) if m.group(1) in inner]
        if found:
            m = min(found, key=lambda x: x.start())
            line = rest.count("\n", 0, m.start()) + 1
            return (
                f"{path.name}:{line}: the repository reaches into an instance of {name} "
                f"by a hierarchical name ({' '.join(m.group(0).split())}): what it reads or "
                "writes there is not the value of a port, so the proof does not cover it"
            )
        macro = re.search(rf"^[ \t]*`define\b[^\n]*\b{re.escape(name)}\b", rest, re.M)
        if macro is not None:
            line = rest.count("\n", 0, macro.start()) + 1
            return (
                f"{path.name}:{line}: a macro names {name}: the instances it writes and the "
                "names they are reached by cannot be read here"
            )
        bound = "bind" in text and _bind_into(code(path, text), name, instances)
        if bound:
            line = text.count("\n", 0, bound.start()) + 1
            return (
                f"{path.name}:{line}: a bind directive places a module inside {name} "
                f"({' '.join(bound.group(0).split())}): what it connects to the target's own "
                "names is not the value of a port, so the proof does not cover it"
            )
        if word.search(text) or "defparam" in text:
            why = _simulator_only(path, code(path, text), name, design, instances)
            if why:
                return why
    return ""


def _may_be_verilog(code: str, m: re.Match[str], names: set[str]) -> bool:
    """Whether the hierarchical name ``m`` in a file that is no source may be Verilog a
    simulator reads: it ends at a name of the target (an instance of the target holds no
    other) and no word follows it as in a list of file names (``SRC = u.c top.v``, which
    Verilog never writes: a name followed by another name)."""
    if m.group(1) not in names and not m.group(1).startswith("\\"):
        return False
    after = re.match(r"[ \t]+([A-Za-z_][\w$]*)", code[m.end() :])
    return after is None or after.group(1) in _OPERATOR_WORDS


#: Words a hierarchical name may be followed by in Verilog (an event list, a set membership).
_OPERATOR_WORDS = frozenset({"or", "and", "iff", "inside", "dist", "matches", "with", "throughout"})


def _bind_into(code: str, name: str, instances: set[str]) -> re.Match[str] | None:
    """The first ``bind`` directive of ``code`` whose target is the module ``name`` or a path
    through one of its ``instances`` (the bound module reads and may drive the target's own
    names), or None."""
    for m in re.finditer(r"(?<![\w$`])bind\s+([^\s(;]+)", code):
        parts = {p.split("[")[0].lstrip("\\") for p in m.group(1).split(".")}
        if name in parts or parts & instances:
            return m
    return None


def _unread_mention(files: list[Path], name: str, instances: set[str]) -> str:
    """Why one of ``files`` (too large or unreadable to be read whole) may reach into the
    target: it names the target or one of its instances by a hierarchical name (a byte
    search; a file that cannot be opened may), or ""."""
    inst = b"|".join(re.escape(w.encode()) for w in sorted(instances)) or b"(?!)"
    pattern = re.compile(
        rb"(?<![\w$])(?:" + re.escape(name.encode()) + rb"(?![\w$])|(?:" + inst + rb")"
        rb"(?![\w$])\s*(?:\[[^\]\n]*\]\s*)*\.\s*[A-Za-z_\\])"
    )
    for f in files:
        try:
            with f.open("rb") as fh:
                found = any(pattern.search(chunk) for chunk in _chunks(fh))
        except OSError:
            found = True
        if found:
            return (
                f"{f.name}: a file too large or unreadable to be read here names {name} or "
                "an instance of it: how it reaches into the target cannot be read here"
            )
    return ""


def _chunks(fh: BinaryIO, size: int = 1 << 22) -> Iterator[bytes]:
    """The bytes of ``fh`` in overlapping chunks (a word across a boundary is found)."""
    tail = b""
    while True:
        block = fh.read(size)
        if not block:
            return
        yield tail + block
        tail = block[-256:]


def _hierarchical(instances: set[str]) -> re.Pattern[str] | None:
    """A hierarchical name into one of ``instances`` (group 1: the name after it)."""
    if not instances:
        return None
    names = "|".join(re.escape(i) for i in sorted(instances))
    return re.compile(
        rf"(?<![\w$])\\?(?:{names})(?![\w$])"
        r"\s*(?:\[[^\]\n]*\]\s*)*\.\s*([A-Za-z_][\w$]*|\\\S+)"
    )


def _built_names(path: Path, text: str, name: str) -> str:
    """Why a macro of ``text`` may build the target's name by pasting tokens (``p``_core``:
    a fragment next to the paste is part of ``name``), or ""."""
    if "``" not in text:
        return ""
    for m in re.finditer(
        r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)(\([^)\n]*\))?([^\n]*``[^\n]*)", text, re.M
    ):
        line = text.count("\n", 0, m.start()) + 1
        why = f"{path.name}:{line}: a macro pastes tokens into a name that may be {name}"
        formals = {f.split("=")[0].strip() for f in (m.group(2) or "()")[1:-1].split(",")}
        for frag in _PASTED.finditer(m.group(3)):
            if any(f in name for f in frag.groups() if f and f not in formals):
                return why
        # its uses: an argument that is part of the name
        for use in re.finditer(rf"`{re.escape(m.group(1))}\s*\(([^()]*)\)", text):
            if any(a.strip() and a.strip() in name for a in use.group(1).split(",")):
                return why
    return ""


def _read_only(code: str, start: int, end: int, macros: _Macros, depth: int = 0) -> bool:
    """Whether the hierarchical name at ``code[start:end]`` (ending at a port) stands where it
    can only be read: an operand on an assignment's right side, an index, a condition
    (``if``, ``while``, ``case``, ``wait``, an event or delay control), an argument of a report
    task or of an assertion, an argument of a macro (``macros``: the repository's
    definitions) that its every definition only reads. Anything else may write it (an
    assignment's left side, a concatenation there, ``++``/``--``, a task's ``output``
    argument, ``$sscanf``'s destination, a port connection, a macro defined nowhere here): a
    port written from outside is state, not a value the ports carry (fail closed)."""
    if _WRITTEN_AFTER.match(code, end):
        return False
    before = code[max(0, start - 4000) : start]
    if re.search(r"(?:\+\+|--)\s*$", before):
        return False
    base = start - len(before)
    level = 0
    i = len(before) - 1
    while i >= 0:
        c = before[i]
        if c in ")]}":
            level += 1
        elif c in "([{" and level:
            level -= 1
        elif c == "[":
            return True  # an index or a range
        elif c in "({":
            if _WRITTEN_AFTER.match(code, _closing(code, base + i)):
                return False  # ``{u.y, b} = ...``, ``(u.y)++``
            word = re.search(r"(`?\$?[\w$]+|[@#])\s*$", before[:i]) if c == "(" else None
            if word is None or word.group(1) in _GROUPING:
                i -= 1  # a parenthesized operand or a concatenation: judged by what holds it
                continue
            if word.group(1).startswith("`"):
                arg = _argument_index(before, i)
                return _macro_reads(word.group(1)[1:], arg, macros, depth)
            return word.group(1) in _READING_CALLS
        elif c == ";" and not level:
            return False  # a statement's start: no assignment before it
        elif c == "=" and not level:
            op = re.search(r"[=!<>?]*$", before[: i + 1])
            assert op is not None
            if op.group(0) in ("=", "<=", "<<=", ">>=", "<<<=", ">>>="):
                return True  # an assignment's right side (or a comparison's, ``<=``)
            i = op.start()  # a comparison (``==``, ``>=``): an operand
            continue
        i -= 1
    return False


#: ``(formals, body)`` of each definition of each function-like macro of the repository.
_Macros = dict[str, list[tuple[list[str], str]]]
#: After a name or a closing bracket: what writes it (or a path on below it).
_WRITTEN_AFTER = re.compile(
    r"\s*(?:\[[^\]\n]*\]\s*)*(?:\.|\+\+|--|<=|=(?!=)|[-+*/%&|^]=|<<<?=|>>>?=)"
)
_MACRO_DEFINITION = re.compile(
    r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)\(([^)\n]*)\)((?:[^\n]*\\\n)*[^\n]*)", re.M
)


def _macro_definitions(texts: list[str]) -> _Macros:
    out: _Macros = {}
    for t in texts:
        if "`define" not in t:
            continue
        for m in _MACRO_DEFINITION.finditer(t):
            formals = [f.split("=")[0].strip() for f in m.group(2).split(",")]
            out.setdefault(m.group(1), []).append((formals, m.group(3).replace("\\\n", " \n")))
    return out


def _macro_reads(name: str, arg: int, macros: _Macros, depth: int) -> bool:
    """Whether every definition of macro ``name`` only reads its argument ``arg`` (a macro
    defined nowhere the rule reads, or nested too deep: may write)."""
    defs = macros.get(name)
    if not defs or depth > 4:
        return False
    for formals, body in defs:
        if arg >= len(formals) or "``" in body:
            return False
        for use in re.finditer(rf"(?<![\w$`]){re.escape(formals[arg])}(?![\w$])", body):
            if not _read_only(body, use.start(), use.end(), macros, depth + 1):
                return False
    return True


def _closing(code: str, at: int) -> int:
    """Just past the bracket that closes the one at ``at`` (or the end)."""
    level = 0
    for k in range(at, min(len(code), at + 8000)):
        if code[k] in "([{":
            level += 1
        elif code[k] in ")]}":
            level -= 1
            if level == 0:
                return k + 1
    return len(code)


def _argument_index(before: str, open_at: int) -> int:
    """Which argument (from 0) of the call whose ``(`` is at ``open_at`` ends ``before``."""
    level, count = 0, 0
    for c in before[open_at + 1 :]:
        if c in "([{":
            level += 1
        elif c in ")]}":
            level -= 1
        elif c == "," and level == 0:
            count += 1
    return count


#: Words before ``(`` whose parentheses hold an operand, a condition or values only read.
_READING_CALLS = frozenset(
    {
        "if", "while", "case", "casez", "casex", "wait", "repeat", "@", "#", "iff",
        "assert", "assume", "cover", "property", "sequence", "expect", "restrict",
        "$display", "$displayb", "$displayh", "$displayo", "$write", "$writeb", "$writeh",
        "$writeo", "$strobe", "$strobeb", "$strobeh", "$strobeo", "$monitor", "$fdisplay",
        "$fwrite", "$fstrobe", "$fmonitor", "$error", "$warning", "$info", "$fatal",
        "$sformatf", "$psprintf", "$signed", "$unsigned", "$bits", "$clog2", "$countones",
        "$onehot", "$onehot0", "$isunknown", "$past", "$rose", "$fell", "$stable",
        "$changed", "$size", "$high", "$low", "$left", "$right", "$time", "$realtime",
    }
)  # fmt: skip
#: Words before ``(`` that make it a parenthesized operand (an operator keyword).
_GROUPING = frozenset({"or", "and", "not", "inside", "dist", "return"})


def _inner_names(design: Design) -> set[str]:
    """Every identifier of the target module's own text (its registers, nets, instances)."""
    from rtlopt.verilog import blank_comments

    t = design.target
    text = blank_comments(t.file.read_text(errors="replace")[t.start : t.end])
    return set(re.findall(r"(?<![\w$`])[A-Za-z_][\w$]*", text))


def _defparam(code: str, at: int) -> bool:
    """Whether the name at ``at`` is a ``defparam``'s (read with the repository's
    parameterizations; one a simulator alone reads: :func:`_simulator_only`)."""
    start = max(code.rfind(";", 0, at), code.rfind("\n`", 0, at)) + 1
    return re.search(r"\bdefparam\b", code[start:at]) is not None


def _own_parameter(code: str, m: re.Match[str], params: set[str]) -> bool:
    """Whether the hierarchical name ``m`` (an instance of the target, then ``m.group(1)``)
    ends at one of the target's own parameters (``u.K``: the repository's parameterizations
    read it); a path on into an instance below the target (``u.c0.P``) sets what no
    parameterization of the target records."""
    if m.group(1).lstrip("\\") not in params:
        return False
    return re.match(r"\s*(?:\[[^\]\n]*\]\s*)*\.", code[m.end() :]) is None


def _outside_target(code: str, name: str) -> str:
    """``code`` with the target module's own text blanked (its hierarchical names are its own)."""
    from rtlopt.verilog import module_spans

    out = code
    for span in module_spans(code):
        if span.name == name:
            out = (
                out[: span.start]
                + re.sub(r"[^\n]", " ", out[span.start : span.end])
                + (out[span.end :])
            )
    return out


#: A macro whose body writes a ``defparam`` (its uses are no statement the rules read).
_DEFPARAM_MACRO = re.compile(r"^[ \t]*`define\b(?:[^\n]*\\\n)*[^\n]*\bdefparam\b", re.M)
#: A macro body that pastes tokens (``p``_core``): the fragments next to the paste.
_PASTED = re.compile(r"([A-Za-z_$][\w$]*)?``([\w$]+)?")


def _instance_names(code: str, name: str) -> set[str]:
    """The names of the instances of module ``name`` in ``code`` (comments blanked; see
    :func:`rtlopt.verilog_instances.instances_of`)."""
    return {n for i in instances_of(code, name) for n in i.names}


def _simulator_only(path: Path, code: str, name: str, design: Design, instances: set[str]) -> str:
    """Why a simulator's reading of ``code`` instantiates or overrides the target otherwise
    than the synthesis reading (an instance, a ``defparam`` or an ```include`` only one of
    them reads), or ""."""
    from rtlopt.evaluate._configs import (
        SIMULATOR_MACROS,
        SYNTHESIS_MACROS,
        active_tokens,
        switched_off_tokens,
        tested_macros,
    )
    from rtlopt.harness._verification_only import hardware_reading

    code = hardware_reading(design, code)  # what only a build defining FORMAL reads aside
    tested = tested_macros(code)
    if not tested or not re.search(rf"\b{re.escape(name)}\b|\bdefparam\b", code):
        return ""
    synthesis = {"SYNTHESIS", *design.defines}
    simulator = synthesis - SYNTHESIS_MACROS
    try:
        base = active_tokens(code, synthesis)
        for tool in ["", *sorted(tested & SIMULATOR_MACROS)]:
            other = active_tokens(code, simulator | ({tool} if tool else set()))
            diff = difflib.SequenceMatcher(None, base, other, autojunk=False)
            for op, a0, a1, b0, b1 in diff.get_opcodes():
                if op == "equal":
                    continue
                # the statements the difference stands in (an instance's parameters)
                changed = [*_statement(base, a0, a1), *_statement(other, b0, b1)]
                if (
                    name in changed
                    or "defparam" in changed
                    or any(t.startswith("`include") for t in changed)
                ):
                    who = f"{tool} defined" if tool else "SYNTHESIS undefined"
                    return (
                        f"{path.name}: a simulator's reading ({who}) instantiates, overrides or "
                        f"includes otherwise than the synthesis reading near {name}: the "
                        "configurations the repository uses are read with SYNTHESIS defined"
                    )
        # another build's branch (a macro the repository's defines leave unset) that names
        # the target or overrides a parameter: that build's configuration is not checked
        off_tokens = switched_off_tokens(code, synthesis)
        macros = " ".join(sorted(tested))
        if name in off_tokens:
            return (
                f"{path.name}: a branch another build reads ({macros} tested) holds an instance "
                f"of {name}: that build's configuration of the target is not checked"
            )
        # a defparam in a file another build reads otherwise: each of its paths, read in
        # every reading (its keyword may stand outside the branch), from the module that
        # holds it (it may land on a parent that hands the value on)
        if any(not t.startswith("`") for t in off_tokens) and re.search(r"\bdefparam\b", code):
            hit = defparam_reach(design, code)
            if hit is not None:
                return (
                    f"{path.name}:{hit[0]}: a branch another build reads ({macros} tested) "
                    f"holds a defparam {hit[1]}: that build's configuration of the target is "
                    "not checked"
                )
    except ValueError:
        return f"{path.name}: its conditionals do not balance"
    return ""


def _statement(tokens: list[str], start: int, end: int) -> list[str]:
    """``tokens[start:end]`` widened to the statements it stands in (from the ``;`` before to
    the ``;`` after)."""
    while start > 0 and tokens[start - 1] != ";":
        start -= 1
    while end < len(tokens) and tokens[end - 1 : end] != [";"]:
        end += 1
    return tokens[start:end]
