"""The rest of the repository reaching into the target where the proof does not look.

The proof compares the target's ports. Four things outside the target change what it does in
the repository without passing through them:

- a hierarchical name into an instance of the target (``initial u.c = 8'h5a;`` in a top, a
  memory preload ``tb.dut.u_ram.mem[i] = ...``, a ``force``): a candidate that keeps the name
  but no longer uses what it holds is "proven" while every simulation of the repository reads
  another design;
- an instance or a ``defparam`` of the target that a simulator reads but the synthesis reading
  does not (```ifndef SYNTHESIS defparam u.K = 200;``): the configurations the repository uses
  are read with ``SYNTHESIS`` defined, so that parameterization is never checked; a
  ``defparam`` in a file another build reads otherwise counts where its path reaches the
  target (:mod:`._defparam_paths`: through an instance of it, or on a module that holds one);
- a testbench in another language reading the target's inner names (a cocotb test's
  ``dut.cnt``, a Verilator harness's ``tgt__DOT__cnt``, a VPI lookup of ``"tgt.cnt"``:
  :mod:`._reach_foreign`);
- a path to an inner name of the target in any text of the repository (a simulator script's
  ``force sim:/ctr/cnt``, a string ``"tb.dut.cnt"`` a backdoor or a waveform reader takes, a
  comment: :mod:`._reach_text_paths`);
- an inner name read with no path written (a constraint's netlist name ``u_sync/meta_reg`` or
  pattern ``*meta*``, a golden waveform's ``$var``, words a script or a DPI call joins into a
  path at run time, a file too large to be read whole holding it: :mod:`._reach_loose`).

:func:`repository_reach` finds any of them in any file of the repository and says why the target's
changes are unchecked (fail closed; the same for every candidate, so it is read once per
design).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from rtlopt.evaluate._defparam_paths import defparam_reach
from rtlopt.evaluate._reach_arguments import (
    argument_words,
    sure_lines,
    unknown_argument_instances,
)
from rtlopt.evaluate._reach_foreign import foreign_reach
from rtlopt.evaluate._reach_loose import loose_reach
from rtlopt.evaluate._reach_names import (
    Preprocessed,
    definitions,
    elaborated,
    preprocessed,
)
from rtlopt.evaluate._reach_paths import (
    PathMatch,
    Paths,
    built_path_uses,
    path_builders,
    skip_selects,
)
from rtlopt.evaluate._reach_reads import macro_definitions, read_only
from rtlopt.evaluate._reach_scope import another_modules_instance
from rtlopt.evaluate._reach_text_paths import text_path_reach
from rtlopt.evaluate._repo_texts import opaque_reason, other_texts, repository_texts
from rtlopt.frontend.model import Design
from rtlopt.verilog_instances import BUILT_INSTANCE, instances_of

__all__ = ["repository_reach"]

_REACH: dict[Any, tuple[object, str]] = {}


def repository_reach(design: Design, own: Path | None = None) -> str:
    """Why the target's changes are unchecked because another file of the repository reaches
    into it (see the module's docstring), or "". ``own`` is rtlopt's scratch folder, never
    read as a file of the repository."""
    from rtlopt.evaluate._memo import per_design

    key = own.resolve() if own is not None else None
    return per_design(_REACH, design, lambda: _reach(design, own), key)


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

    # every other text of the repository (a Makefile may compile any file); one that cannot
    # be read whole and may name the target or an instance fails closed
    others, unread = other_texts(design, own)
    expanded = _expanded(design, [*raw, *others])
    instances = {i for p, t in raw if word.search(t) for i in _instance_names(code(p, t), name)}
    named = [(p, t) for p, t in others if word.search(t)]
    instances |= {i for p, t in named for i in _instance_names(code(p, t), name)}
    # the instances slang elaborates, those the macros write once expanded, and the words
    # beside the target's name in a macro's arguments (```INST(m, u)``)
    instances |= elaborated(design).instances
    instances |= {
        i
        for pp in expanded.values()
        for t in pp.texts
        if word.search(t)
        for i in _instance_names(blank_comments(t), name)
    }
    instances |= argument_words([*raw, *named], name, code)
    wanted = Paths((instances - {BUILT_INSTANCE}) | {name})
    more = [
        (p, t)
        for p, t in others
        if word.search(t)
        or wanted.search(t)
        or any(wanted.search(e) for e in (expanded[p].texts if p in expanded else ()))
    ]
    raw, extra = [*raw, *more], {p for p, _ in others}
    why = (
        _unread_mention(unread, name, instances - {BUILT_INSTANCE})
        or opaque_reason(design, own, f"name an inner name of {name}")
        or _unreadable_forms(raw, name, word, instances, code)
        or unknown_argument_instances(design, raw, [*raw, *others], code, expanded)
    )
    if why:
        return why
    instances.discard(BUILT_INSTANCE)
    reach = _Reach(design, [*raw, *others], extra, instances, code, expanded)
    return (
        reach.built_paths(others)
        or foreign_reach(design, [*repository_texts(design), *others], reach.inner)
        or _hierarchical_reach(reach, raw, word)
        or text_path_reach(design, [*repository_texts(design), *others], instances, reach.inner)
        or loose_reach(design, [*repository_texts(design), *others], unread, instances, reach.inner)
    )


def _expanded(design: Design, texts: list[tuple[Path, str]]) -> dict[Path, Preprocessed]:
    """The preprocessed readings of every text that uses a macro or includes a file."""
    defined = definitions([t for _, t in texts])
    out: dict[Path, Preprocessed] = {}
    for path, text in texts:
        if "`" in text:
            pp = preprocessed(design, path, text, defined)
            if pp is not None:
                out[path] = pp
    return out


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


class _Reach:
    """What the hierarchical-name rule reads: the target's ports, parameters and inner names,
    the anchors of a name into it, the repository's macros, and the texts as read raw
    (comments blanked) and preprocessed."""

    def __init__(
        self,
        design: Design,
        every: list[tuple[Path, str]],
        extra: set[Path],
        instances: set[str],
        code: Callable[[Path, str], str],
        expanded: dict[Path, Preprocessed],
    ) -> None:
        self.design, self.name, self.extra = design, design.target.name, extra
        self.code, self.expanded, self.instances = code, expanded, instances
        self.target = design.target.file.resolve()
        self.ports = {p.name for p in design.target.ports}
        self.params = {p.name for p in design.target.parameters if not p.local}
        inner = _inner_names(design, expanded.get(design.target.file))
        # None: the target's names are not known (a name of any kind counts)
        self.inner = None if inner is None else inner | self.ports
        self.hier = Paths(instances | {self.name})
        self.macros = macro_definitions([t for _, t in every])

    def found(self, path: Path, rest: str) -> list[PathMatch]:
        """The hierarchical names into the target in ``rest`` (the text of ``path``, comments
        blanked) that are no read of a port, no defparam of its own parameters, not into
        an instance of another module of that name (:mod:`._reach_scope`) and, in a file
        that is no source, may be Verilog."""
        return [
            m
            for m in self.hier.finditer(rest)
            if not (_defparam(rest, m.start()) and _own_parameter(rest, m, self.params))
            and not another_modules_instance(rest, m.start(), m.anchor, self.name)
            and (
                m.group(1) not in self.ports or not read_only(rest, m.start(), m.end(), self.macros)
            )
            # in a file that is no source (a Makefile naming ``u.c``), a name of the target
            and (path not in self.extra or _may_be_verilog(rest, m, self.inner))
        ]

    def _read(self, rest: str, m: PathMatch) -> bool:
        return read_only(rest, m.start(), m.end(), self.macros)

    def expanded_reach(self, path: Path) -> str:
        """Why the preprocessed text of ``path`` reaches into the target, or ""."""
        from rtlopt.verilog import blank_comments

        for text in self.expanded[path].texts if path in self.expanded else ():
            found = self.found(path, _outside_target(blank_comments(text), self.name))
            if found:
                m = min(found, key=lambda x: x.start())
                return (
                    f"{path.name}: the repository reaches into an instance of {self.name} by "
                    f"a hierarchical name ({' '.join(m.group(0).split())}) once its macros are "
                    "expanded: what it reads or writes there is not the value of a port, so "
                    "the proof does not cover it"
                )
        return ""

    def built_paths(self, others: list[tuple[Path, str]]) -> str:
        """Why a macro that joins a hierarchical name from its arguments is used, with an
        anchor or an inner name of the target (or another macro) among them, on a line the
        expanded texts do not surely hold (a file with an unknown macro, a branch no
        reading taken here compiles, a conditional on a macro another file defines), or
        "". A use inside a ```define`` is judged where that macro is used."""
        builders = path_builders((n, f, b) for n, defs in self.macros.items() for f, b in defs)
        if not builders:
            return ""
        names = set(self.hier.anchors | (self.inner or set()))
        texts = [*repository_texts(self.design), *others]
        for path, text in texts:
            uses = (
                list(built_path_uses(self.code(path, text), builders, names)) if "`" in text else []
            )
            if not uses:
                continue
            pp = self.expanded.get(path)
            seen, bodies = sure_lines(self.design, texts, path, text)
            for use in uses:
                line = text.count("\n", 0, use.start()) + 1
                if line in bodies or (pp is not None and pp.whole and line in seen):
                    continue
                return (
                    f"{path.name}:{line}: a macro joins a hierarchical name from its "
                    f"arguments ({use.group(0).rstrip('( ')}...) that may name {self.name}, "
                    "an instance of it or one of its names: the names it reaches cannot be "
                    "read here"
                )
        return ""


def _hierarchical_reach(r: _Reach, raw: list[tuple[Path, str]], word: re.Pattern[str]) -> str:
    """Why a text of ``raw`` reaches into an instance of the target (a hierarchical name
    that is not a read of a port, raw or once its macros are expanded, a macro naming the
    target, a bind, a simulator-only instance), or ""."""
    from rtlopt.verilog import PREPROCESSOR_DIRECTIVES, alternation

    name, code, inner = r.name, r.code, (r.inner or set()) - r.ports
    # a name a macro builds (`P.c) ending in one of the target's own names
    built = re.compile(
        rf"`(?!(?:{alternation(PREPROCESSOR_DIRECTIVES)})\b)[A-Za-z_][\w$]*"
        r"\s*(?:\([^()\n]*\))?\s*\.\s*([A-Za-z_][\w$]*)"
    )
    for path, text in raw:
        rest = ""
        if r.hier.search(text) or "`" in text:
            rest = code(path, text)
            if path.resolve() == r.target:
                rest = _outside_target(rest, name)
        found: list[PathMatch | re.Match[str]] = [*r.found(path, rest)] if rest else []
        found += [m for m in built.finditer(rest) if r.inner is None or m.group(1) in inner]
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
        bound = "bind" in text and _bind_into(code(path, text), name, r.instances)
        if bound:
            line = text.count("\n", 0, bound.start()) + 1
            return (
                f"{path.name}:{line}: a bind directive places a module inside {name} "
                f"({' '.join(bound.group(0).split())}): what it connects to the target's own "
                "names is not the value of a port, so the proof does not cover it"
            )
        if word.search(text) or "defparam" in text:
            why = _simulator_only(path, code(path, text), name, r.design, r.instances)
            if why:
                return why
    # a name the macros build: read in each text once they are expanded
    return next((w for w in (r.expanded_reach(p) for p, _ in raw) if w), "")


def _may_be_verilog(code: str, m: PathMatch, names: set[str] | None) -> bool:
    """Whether the hierarchical name ``m`` in a file that is no source may be Verilog a
    simulator reads: a later part of it is a name of the target (``names``; None: the
    target's names are not known, any part counts) and no word follows it as in a list of
    file names (``SRC = u.c top.v``, which Verilog never writes: a name followed by another
    name)."""
    if names is not None and not any(n in names or n.startswith("\\") for n in m.later):
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
        rb"(?![\w$])\s*(?:\[[^\n]*\]\s*)*\.\s*[A-Za-z_\\])"
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


def _inner_names(design: Design, expanded: Preprocessed | None) -> set[str] | None:
    """Every name of the target: the identifiers of its own text, raw and preprocessed
    (a register a macro pastes, ``c_q``), and every name its elaborated scopes declare
    (``genblk1``); None when neither the preprocessed nor the elaborated target is known
    (any name may be one of it)."""
    from rtlopt.verilog import blank_comments, module_spans

    t = design.target
    words = re.compile(r"(?<![\w$`])[A-Za-z_][\w$]*")
    own = t.file.read_text(errors="replace")[t.start : t.end]
    names = set(words.findall(blank_comments(own)))
    elab = elaborated(design).inner
    pre: set[str] | None = set()  # no macro in the target's text: its raw words are all
    if "`" in own:
        pre = None
        spans = [
            blank_comments(text)[s.start : s.end]
            for text in (expanded.texts if expanded is not None and expanded.whole else ())
            for s in module_spans(blank_comments(text))
            if s.name == t.name
        ]
        if spans:
            pre = {w for s in spans for w in words.findall(s)}
    if elab is None and pre is None:
        return None
    return names | (pre or set()) | set(elab or ())


def _defparam(code: str, at: int) -> bool:
    """Whether the name at ``at`` is a ``defparam``'s (read with the repository's
    parameterizations; one a simulator alone reads: :func:`_simulator_only`)."""
    start = max(code.rfind(";", 0, at), code.rfind("\n`", 0, at)) + 1
    return re.search(r"\bdefparam\b", code[start:at]) is not None


def _own_parameter(code: str, m: PathMatch, params: set[str]) -> bool:
    """Whether the hierarchical name ``m`` (an instance of the target, then ``m.group(1)``)
    ends at one of the target's own parameters (``u.K``: the repository's parameterizations
    read it); a path on into an instance below the target (``u.c0.P``) sets what no
    parameterization of the target records."""
    if m.group(1).lstrip("\\") not in params:
        return False
    return not code.startswith(".", skip_selects(code, m.end()))


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
