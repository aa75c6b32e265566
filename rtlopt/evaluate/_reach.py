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
from pathlib import Path

from rtlopt.evaluate._defparam_paths import defparam_reach
from rtlopt.evaluate._repo_texts import repository_texts
from rtlopt.frontend.model import Design

__all__ = ["repository_reach"]

_REACH: dict[int, tuple[object, str]] = {}


def repository_reach(design: Design) -> str:
    """Why the target's changes are unchecked because another file of the repository reaches
    into it (see the module's docstring), or ""."""
    hit = _REACH.get(id(design))
    if hit is None or hit[0] is not design:
        if len(_REACH) > 8:
            _REACH.clear()
        hit = _REACH[id(design)] = (design, _reach(design))
    return hit[1]


def _reach(design: Design) -> str:
    from rtlopt.verilog import PREPROCESSOR_DIRECTIVES, alternation, blank_comments

    name = design.target.name
    word = re.compile(rf"\b{re.escape(name)}\b")
    raw = repository_texts(design)
    code_of: dict[Path, str] = {}

    def code(path: Path, text: str) -> str:  # comments blanked, once per file
        if path not in code_of:
            code_of[path] = blank_comments(text)
        return code_of[path]

    instances = {i for p, t in raw if word.search(t) for i in _instance_names(code(p, t), name)}
    for path, text in raw:
        why = _built_names(path, text, name) or (
            f"{path.name}: an instance of {name} whose name a macro builds"
            if _BUILT_INSTANCE in instances
            and word.search(text)
            and _BUILT_INSTANCE in _instance_names(code(path, text), name)
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
    instances.discard(_BUILT_INSTANCE)
    target = design.target.file.resolve()
    ports = {p.name for p in design.target.ports}
    params = {p.name for p in design.target.parameters if not p.local}
    inner = _inner_names(design) - ports
    hier = _hierarchical(instances)
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
            and (m.group(1) not in ports or _written(rest, m))
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
        if word.search(text) or "defparam" in text:
            why = _simulator_only(path, code(path, text), name, design, instances)
            if why:
                return why
    return ""


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


def _written(code: str, m: re.Match[str]) -> bool:
    """Whether the hierarchical name ``m`` is written (an assignment's left side, ``force``,
    ``release``, ``assign``, ``deassign``): a port written from outside is state, not a value
    the ports carry."""
    after = code[m.end() : m.end() + 200]
    if re.match(r"\s*(?:\[[^\]\n]*\]\s*)*(?:<=|=(?!=)|[-+*/%&|^]=|<<=|>>=)", after):
        return True
    start = max(code.rfind(";", 0, m.start()), code.rfind("\n", 0, m.start())) + 1
    return re.search(r"\b(?:force|release|assign|deassign)\b", code[start : m.start()]) is not None


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


_IDENT = re.compile(r"\s*([A-Za-z_][\w$]*|\\\S+)")
#: A macro whose body writes a ``defparam`` (its uses are no statement the rules read).
_DEFPARAM_MACRO = re.compile(r"^[ \t]*`define\b(?:[^\n]*\\\n)*[^\n]*\bdefparam\b", re.M)
#: Stands for an instance of the target whose name a macro builds.
_BUILT_INSTANCE = "`"
#: A macro body that pastes tokens (``p``_core``): the fragments next to the paste.
_PASTED = re.compile(r"([A-Za-z_$][\w$]*)?``([\w$]+)?")


def _instance_names(code: str, name: str) -> set[str]:
    """The names of the instances of module ``name`` in ``code`` (comments blanked): the
    module's name, its parameter values (``#(...)`` at any depth), then the instance's name,
    plain or escaped, before its ports or its array range."""
    out: set[str] = set()
    for m in re.finditer(rf"(?<![\w$`]){re.escape(name)}(?![\w$])", code):
        at = m.end()
        rest = code[at:].lstrip()
        at = len(code) - len(rest)
        if rest.startswith("#"):
            open_at = code.find("(", at)
            if open_at < 0 or code[at + 1 : open_at].strip():
                continue
            depth, i = 0, open_at
            while i < len(code):
                depth += {"(": 1, ")": -1}.get(code[i], 0)
                if depth == 0:
                    break
                i += 1
            at = i + 1
        # each instance of the statement (``m a(...), b(...);``)
        while True:
            if code[at:].lstrip().startswith("`"):
                out.add(_BUILT_INSTANCE)  # an instance whose name a macro builds
                break
            ident = _IDENT.match(code, at)
            if ident is None or ident.group(1) in ("module", "macromodule"):
                break
            after = code[ident.end() :].lstrip()[:1]
            if after not in ("(", "["):
                break
            out.add(ident.group(1).removeprefix("\\"))  # ``\u `` is the name ``u``
            close = _after_ports(code, ident.end())
            if close < 0 or not code[close:].lstrip().startswith(","):
                break
            at = code.index(",", close) + 1
    return out


def _after_ports(code: str, at: int) -> int:
    """Where an instance's array ranges and port list that start at ``at`` end, or -1."""
    depth, i = 0, at
    while i < len(code):
        c = code[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth == 0 and code[i + 1 :].lstrip()[:1] != "(":
                if c == ")":
                    return i + 1
        elif c == ";" and depth == 0:
            return -1
        i += 1
    return -1


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
