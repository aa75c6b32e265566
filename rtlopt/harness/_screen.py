"""Screening of untrusted candidate text before any tool sees it."""

from __future__ import annotations

import re
from collections import Counter

from rtlopt.frontend._active import inactive_spans
from rtlopt.frontend._files import read_source
from rtlopt.frontend.model import Design
from rtlopt.harness._array_query import array_query_problems
from rtlopt.harness._case_pragmas import moved_claims
from rtlopt.harness._characters import character_problems, continuation_problems
from rtlopt.harness._dropped import (
    assertion_spans,
    dropped_problems,
    reference_dropped,
    texts_dropped,
)
from rtlopt.harness._expanded import expanded_readings, expanded_texts, uses_macros
from rtlopt.harness._hierarchy import macro_texts
from rtlopt.harness._kept_checks import design_kept_checks, kept_spans
from rtlopt.harness._macro_args import design_macro_problems
from rtlopt.harness._operators import MAX_OPERATORS as MAX_OPERATORS
from rtlopt.harness._operators import operator_problems
from rtlopt.harness._param_checks import kept_check_spans
from rtlopt.harness._power import power_problems
from rtlopt.harness._powered import text_read, unit_texts
from rtlopt.harness._pragmas import attributes as attributes
from rtlopt.harness._pragmas import tool_pragmas as tool_pragmas
from rtlopt.harness._qualified import qualifier_problems, reference_qualifiers
from rtlopt.harness._readings import reading_problems, reference_problems, reference_readings
from rtlopt.harness._redefined import redefined_modules
from rtlopt.harness._screen_structure import structure_problems
from rtlopt.harness._translate_off import region_problems
from rtlopt.harness._used_dropped import used_modules_dropped
from rtlopt.harness._vocabulary import (
    _ALLOWED_IF_REFERENCE_USES,
    _CONDITIONALS,
    _DIRECTIVES,
    _DISAGREEING_MACROS,
    _FORBIDDEN_KEYWORDS,
    _LINE_DIRECTIVES,
    _QUALIFIERS,
    _TOOL_MACROS,
    ALLOWED_DIRECTIVES,
    REF_SUFFIX,
)
from rtlopt.harness._vocabulary import ALLOWED_SYSTEM_FUNCTIONS as ALLOWED_SYSTEM_FUNCTIONS
from rtlopt.verilog import (
    PASS_THROUGH_TOKEN,
    blank_comments,
    blank_spans,
    line_of,
    module_spans,
)
from rtlopt.verilog_macros import directive_in_expansion

DEFAULT_TB_TOP = "rtlopt_tb"


_DIRECTIVE_RE = re.compile(r"`\s*([A-Za-z_][A-Za-z0-9_]*)")
_SYSTASK_RE = re.compile(r"\$[A-Za-z_][A-Za-z0-9_$]*")
_WORD_RE = re.compile(r"(?<![\w$`.\\'])([A-Za-z_][A-Za-z0-9_]*)\b")
_DPI_RE = re.compile(r"\b(import|export)\s*\"\s*DPI", re.I)
_DEFINE_RE = re.compile(r"`define\s+([A-Za-z_][A-Za-z0-9_]*)")


def same_as_reference(text: str, design: Design) -> bool:
    """The candidate is the reference's own text (its file, or its module), line endings
    aside: an identical text adds nothing to judge, whatever the reference holds."""
    mine = text.replace("\r\n", "\n")
    try:
        if mine == design.target.text().replace("\r\n", "\n"):
            return True
        return mine == design.target.file.read_text(errors="replace").replace("\r\n", "\n")
    except OSError:
        return False


def _inactive(text: str, design: Design, at: int, cache: list[list[tuple[int, int]]]) -> bool:
    """Offset ``at`` lies in a preprocessor branch that is off in the design's context (a
    conditional nested in ```ifdef FORMAL``: no tool reads it, so no tool can disagree)."""
    if not cache:
        cache.append(inactive_spans(text, design.sources))
    return any(a <= at < b for a, b in cache[0])


#: A conditional directive token with its macro (for :func:`_trailing_pass_through`): a token
#: anywhere on its line, the rest of the line read on its own (code or directives after it).
_COND_RE = re.compile(r"`(ifdef|ifndef|elsif)\b(?:[ \t]*[A-Za-z_][\w$]*)?|`(else|endif)\b")


def _trailing_pass_through(code: str, at: int) -> bool:
    """The conditional at ``at`` stands after every module of the text and its branches hold
    nothing but pass-through directives: ZipCPU's files end with ```ifndef YOSYS
    `default_nettype wire `endif``. No code of the text is read in it, so the tools cannot
    read the text differently; the state it leaves the files after it is compared with the
    repository file's, conditionals counted (``evaluate._placement.state_left``)."""
    spans = module_spans(code)
    if spans and at < max(sp.end for sp in spans):
        return False
    depth, end = (1 if code.startswith("`elsif", at) else 0), -1  # an `elsif: inside one
    for m in _COND_RE.finditer(code, at):
        word = m.group(1) or m.group(2)
        depth += 1 if word in ("ifdef", "ifndef") else -1 if word == "endif" else 0
        if depth == 0:
            end = m.end()
            break
    if end < 0:
        return False
    body = PASS_THROUGH_TOKEN.sub("", _COND_RE.sub("", code[at:end]))
    return not body.strip()


def _directive_key(code: str, start: int, name: str) -> str:
    """The directive at ``start`` with the rest of its line, whitespace collapsed."""
    end = code.find("\n", start)
    line = code[start : end if end >= 0 else len(code)]
    while line.rstrip().endswith("\\") and end >= 0:  # a `define continued on the next line
        nxt = code.find("\n", end + 1)
        line += "\n" + code[end + 1 : nxt if nxt >= 0 else len(code)]
        end = nxt
    words = line.split()
    if name in ("else", "endif"):
        return name
    return " ".join(["`" + name, *words[1:]]) if words else "`" + name


def _unchanged_modules(text: str, design: Design) -> list[tuple[int, int]]:
    """Spans of candidate modules that are the repository's module of that name, byte for
    byte (a copy of the whole file: the other modules are not the candidate's doing)."""
    out = []
    for span in module_spans(text):
        mod = design.modules.get(span.name)
        if mod is None or span.name == design.target.name:
            continue
        try:
            same = mod.text() == text[span.start : span.end]
        except OSError:
            continue
        if same:
            out.append((span.start, span.end))
    return out


def _active_code(text: str, code: str, design: Design, copies: bool = True) -> str:
    """``code`` (comments blanked) as the tools read it, for the screen's content checks:
    branches that are off in the design's context, directive lines (checked on their own)
    and unchanged copies of repository modules (``copies``) are blanked; offsets and lines
    are kept."""
    if "`" not in code and not (copies and _unchanged_modules(text, design)):
        return code
    spans = list(inactive_spans(text, design.sources)) if "`" in code else []
    for m in _DIRECTIVE_RE.finditer(code):
        if m.group(1) in _DIRECTIVES and m.group(1) not in ALLOWED_DIRECTIVES:
            key = _directive_key(code, m.start(), m.group(1))
            end = m.start()
            for _ in key.split("\n"):
                nxt = code.find("\n", end)
                end = nxt if nxt >= 0 else len(code)
            spans.append((m.start(), end))
    spans += _unchanged_modules(text, design) if copies else []
    return blank_spans(code, spans)


def _reference_readings(design: Design) -> list[tuple[int, str]]:
    """The reference modules' constructs that tools read differently (in the design's
    context, as :func:`_active_code` reads a candidate), once per design."""
    return reference_readings(
        design,
        lambda: (
            [_active_code(t, blank_comments(t), design, False) for t in _placed_texts(design)]
            + _expanded_references(design)
        ),
    )


def _judged_references(design: Design) -> list[str]:
    """The reference modules as the view reads them: raw (their active code) and with their
    macros expanded."""
    return [
        _active_code(t, blank_comments(t), design, False) for t in _placed_texts(design)
    ] + _expanded_references(design)


def _dropped(code: str) -> list[tuple[int, str]]:
    """:func:`dropped_problems` of the candidate (pyslang's nesting limit is judged by the
    reading rules)."""
    try:
        return [(line, msg) for line, _, msg in dropped_problems(code)]
    except (RuntimeError, RecursionError):
        return []


def _expanded_rules(text: str, full: str, design: Design, tb_top: str) -> list[tuple[int, str]]:
    """The screen's word, structure, attribute and dropped-statement rules on ``full``, the
    candidate ``text`` with the repository's macros expanded (comments blanked): a macro that
    holds ``#1``, ``$display`` or ``initial`` is judged as the tools read it. Unchanged copies
    of repository modules are not judged (as on the raw text), nor are assertions that only
    report (repository assertion macros: the view drops them, a simulator only reports)."""
    unchanged = set(_unchanged_modules(text, design))
    keep = {s.name for s in module_spans(text) if (s.start, s.end) in unchanged}
    spans = [(s.start, s.end) for s in module_spans(full) if s.name in keep]
    code = blank_spans(blank_comments(full), spans)
    code = blank_spans(code, assertion_spans(code))
    with_strings = blank_spans(blank_comments(full, strings=False), spans)
    found = _word_problems(code, with_strings, design, tb_top, expanded=True)
    found += structure_problems(code, 0, tb_top, True)
    found += _pragma_problems("", code, design)
    return found + _dropped(code)


def _included_rules(text: str, design: Design, tb_top: str) -> list[tuple[int, str]]:
    """On the view path the screen reads the raw text, where a header the candidate includes
    is one line: :func:`_expanded_rules` on the text as the tools read it, its headers and
    macros expanded in the design's context (:func:`~rtlopt.harness._powered.text_read`);
    a text that cannot be read so is one problem (fail closed)."""
    raw = blank_comments(text)
    if "`include" not in raw and not uses_macros(raw):
        return []
    try:
        readings = text_read(text, design)
    except RuntimeError as exc:
        why = str(exc).splitlines()[0] if str(exc) else "it cannot be read"
        return [(1, f"the screen cannot read this text with its headers expanded ({why})")]
    found = [f for full in readings for f in _expanded_rules(text, full, design, tb_top)]
    return [(line, f"{msg} (its headers expanded)") for line, msg in found]


_EXPANDED: dict[int, tuple[Design, list[str]]] = {}


def _expanded_references(design: Design) -> list[str]:
    """The reference modules that use macros, expanded (:mod:`._expanded`; once per design)."""
    hit = _EXPANDED.get(id(design))
    if hit is None or hit[0] is not design:
        if len(_EXPANDED) > 8:
            _EXPANDED.clear()
        hit = _EXPANDED[id(design)] = (design, expanded_texts(_placed_texts(design), design))
    return hit[1]


def _repo_directives(design: Design) -> set[str]:
    """Directive lines (see :func:`_directive_key`) of the target's file and its closure.

    A candidate may carry only these (a copy of its file, as ``rtlopt check`` passes it, keeps
    them). They cannot make the tools read different designs: every tool reads the
    candidate's one preprocessed text, which the screen judges too
    (:func:`screen_preprocessed`)."""
    out: set[str] = set()
    for f in dict.fromkeys([design.target.file, *design.closure]):
        try:
            # strings kept: an `include's file name is part of its key
            code = blank_comments(f.read_text(errors="replace"), strings=False)
        except OSError:
            continue
        for m in _DIRECTIVE_RE.finditer(code):
            if m.group(1) in _LINE_DIRECTIVES:
                out.add(_directive_key(code, m.start(), m.group(1)))
    return out


def _repo_macros(design: Design) -> set[str]:
    """Macro names the repository defines (command line, defines, `define in its sources)."""
    names = {d.split("=", 1)[0] for d in design.defines}
    for text in macro_texts(design):
        names.update(_DEFINE_RE.findall(text))
    return names


def _reference_keywords(design: Design, expanded: bool = False) -> Counter[str]:
    """How often the reference modules themselves use each of
    :data:`_ALLOWED_IF_REFERENCE_USES` (``expanded``: the most of their raw texts and their
    texts with the repository's macros expanded)."""

    def count(codes: list[str]) -> Counter[str]:
        return Counter(
            w for c in codes for w in _WORD_RE.findall(c) if w in _ALLOWED_IF_REFERENCE_USES
        )

    found = count([blank_comments(t) for t in _reference_texts(design)])
    return found | count(_expanded_references(design)) if expanded else found


def _file_text(design: Design) -> str:
    try:
        return read_source(design.target.file)
    except OSError:
        return ""


def _reference_texts(design: Design) -> list[str]:
    mods = [design.target, *(design.modules[n] for n in design.submodules if n in design.modules)]
    out = []
    for m in mods:
        try:
            out.append(m.text())
        except OSError:
            continue
    return out


def _placed_texts(design: Design) -> list[str]:
    """The reference modules' texts, each behind as many line breaks as precede its
    ``module`` keyword in its file: a rule's line in one is the file's line."""
    mods = [design.target, *(design.modules[n] for n in design.submodules if n in design.modules)]
    out = []
    for m in mods:
        try:
            out.append("\n" * max(m.line - 1, 0) + m.text())
        except OSError:
            continue
    return out


def screen_candidate(
    text: str,
    design: Design,
    *,
    tb_top: str = DEFAULT_TB_TOP,
    max_bytes: int | None = None,
    dotted_names: bool = False,
    raw: str | None = None,
    whole_file: bool = False,
) -> list[str]:
    """Check untrusted candidate text before any tool reads it.

    Rejects: compiler directives other than `timescale-like ones (`include, `define, ...) unless
    the target's file or its closure holds the same directive line (self-evaluation of a file with
    `ifdef/`define/`include is accepted; conditionals on tool-specific macros such as YOSYS never
    are), macros the repository does not define, system tasks and functions other than pure ones
    such as $clog2 (so no $display, $finish, $fopen, $random, ...), assertions and assumptions
    (they would constrain the formal check), ``initial``, ``specify``, user-defined primitives,
    ``defparam``, switch primitives (``tran``, ``nmos``, ``pullup``, ...), ``trireg`` and ``real``
    variables, ``unique``/``priority`` case (each allowed when the reference itself uses it, e.g.
    ``initial`` for ROM contents; such blocks still cannot call system tasks or wait, and a hanging
    one times out), ``force``, ``bind``, DPI imports, delays, references to the testbench or the
    renamed reference (``rtlopt_tb``, ``$root``, ``*__rtlopt_ref``), hierarchical names, module
    definitions that would clash with the testbench, the renamed reference, Yosys's internal cells
    (``$...``) or the repository's other modules (``harness._redefined``), and anything a synthesis
    tool reads differently from the simulator: tool directive comments
    (``// synopsys translate_off``, ``/* synthesis full_case */``, ``// pragma ...``,
    ``// cadence ...``, ``// ambit ...``, ...) and ``(* attributes *)``, unless the reference
    carries the same ones. Comments and strings are otherwise blanked before scanning, so a comment
    mentioning $finish is fine.

    Args:
        text: The candidate source.
        design: The design the candidate replaces.
        tb_top: Name of the testbench top module.
        max_bytes: Reject larger candidates.
        dotted_names: Allow ``a.b`` names (struct members; the SystemVerilog path, whose
            tools read a flattened view without hierarchical names).
        raw: The candidate's own text when ``text`` is its preprocessed reading.
        whole_file: The candidate is the target's whole new file (``rtlopt check``).

    Returns: violations as ``"line N: message"`` strings; empty when the candidate is clean.
    """
    if max_bytes is not None and len(text.encode(errors="replace")) > max_bytes:
        return [f"line 1: candidate is larger than {max_bytes} bytes"]
    if same_as_reference(text, design):
        return []
    # the reference's checks the repository's simulation reads: kept, or no change
    checks: set[str] = set()  # the checks it keeps reading what the proofs show the same
    problems = design_kept_checks(text if raw is None else raw, design, checks)
    if "\x00" in text:
        problems.append((line_of(text, text.index("\x00")), "NUL character in source"))
    code, code_with_strings = blank_comments(text), blank_comments(text, strings=False)
    problems += character_problems(text, code, lambda: _reference_texts(design))
    problems += continuation_problems(text, code, lambda: _file_text(design))
    problems += design_macro_problems(text if raw is None else raw, design)
    directive_problems, depth = _directive_problems(text, code, code_with_strings, design)
    problems += directive_problems
    # every later check reads what the tools read of what the candidate adds
    code = _active_code(text, code, design)
    # the reference's own parameter checks, kept word for word, may report and stop
    own = "".join(_reference_texts(design)[:1]) if "initial" in code else ""
    kept = (kept_check_spans(code, own) if own else []) + kept_spans(text, checks)
    problems += _word_problems(blank_spans(code, kept), code_with_strings, design, tb_top)
    problems += _pragma_problems(text, code, design)
    problems += structure_problems(code, depth, tb_top, dotted_names)
    problems += redefined_modules(text, design, text if raw is None else raw, whole_file=whole_file)
    problems += array_query_problems(code, lambda: _reference_texts(design))
    problems += power_problems(code, lambda: _reference_texts(design))
    problems += _parsed_problems(text, code, design, tb_top, dotted_names)
    return [f"line {line}: {msg}" for line, msg in sorted(set(problems))]


def _parsed_problems(
    text: str, code: str, design: Design, tb_top: str, dotted_names: bool
) -> list[tuple[int, str]]:
    """The rules that parse the candidate's code: none where an operator chain would
    overflow the parser's stack (that is the problem then)."""
    problems = operator_problems(code, lambda: _reference_texts(design))
    if not problems:  # the parser (and the elaboration after it) would overflow its stack
        ref = "".join(_reference_texts(design)[:1])
        problems += [*reading_problems(code, reference=ref), *_reference_readings(design)]
        problems += _dropped(code)
        # no proof reads a delay or a strength, the view drops more: the reference's unchecked
        read = (lambda: unit_texts(design)) if dotted_names else None
        problems += reference_dropped(design, lambda: _judged_references(design), read)
        if dotted_names:
            problems += _included_rules(text, design, tb_top)
            problems += used_modules_dropped(text, code, design)
            # qualifiers from macros or includes: the view's stripped copies still hold them
            problems += qualifier_problems(text, design)
            problems += reference_qualifiers(design, lambda: _placed_texts(design))
        # on the view path the screen reads the raw text: judge its macros expanded too
        problems += expanded_readings(
            text,
            code,
            design,
            ref,
            (lambda full: _expanded_rules(text, full, design, tb_top)) if dotted_names else None,
        )
    return problems


def screen_preprocessed(
    text: str,
    raw: str,
    design: Design,
    *,
    tb_top: str = DEFAULT_TB_TOP,
    dotted_names: bool = False,
    reference: str = "",
    whole_file: bool = False,
) -> list[str]:
    """:func:`screen_candidate` and the event checks on a candidate's preprocessed text (what
    every tool reads: a body under ```ifdef`` or a macro that expands to ``$fopen`` is judged
    as the tools see it). ``raw`` is the candidate's own text: the repository's own module
    (or file) is not judged, as in :func:`screen_candidate`. ``reference``: the preprocessed
    reference every tool reads, judged for constructs tools read differently too."""
    from rtlopt.harness._semantics import event_violations

    if same_as_reference(raw, design):
        return []
    found = screen_candidate(
        text, design, tb_top=tb_top, dotted_names=dotted_names, raw=raw, whole_file=whole_file
    )
    found += [f"line {n}: {m}" for n, m in reference_problems([reference], "the reference")]
    # a delay or strength a macro writes: the reference every tool reads, preprocessed
    what = "the reference as the tools read it (preprocessed)"
    found += [f"line {n}: {m}" for n, m in texts_dropped([blank_comments(reference)], what)]
    return found + event_violations(text, design.target.text())


def _directive_problems(
    text: str, code: str, code_with_strings: str, design: Design
) -> tuple[list[tuple[int, str]], int]:
    """Compiler directives and macros the candidate adds, and the `ifdef depth it leaves
    (``code``: comments blanked; ``code_with_strings``: strings kept too)."""
    problems: list[tuple[int, str]] = []
    macros: set[str] | None = None
    repo_lines: set[str] | None = None
    inactive: list[list[tuple[int, int]]] = []  # inactive spans, computed when first needed
    depth = 0
    for m in _DIRECTIVE_RE.finditer(code):
        name = m.group(1)
        line = line_of(code, m.start())
        if name in ALLOWED_DIRECTIVES:
            continue
        if name in _DIRECTIVES:
            key = (
                _directive_key(code_with_strings, m.start(), name)
                if name in _LINE_DIRECTIVES
                else ""
            )
            if key and repo_lines is None:
                repo_lines = _repo_directives(design)
            words = key.split()
            if (
                name in _CONDITIONALS
                and len(words) > 1
                and words[1] in _TOOL_MACROS
                and (words[1] in _DISAGREEING_MACROS or repo_lines is None or key not in repo_lines)
                and not _inactive(text, design, m.start(), inactive)
                and not _trailing_pass_through(code, m.start())
            ):
                problems.append(
                    (
                        line,
                        f"compiler directive `{name} {words[1]} is not allowed "
                        "(tools disagree on that macro)",
                    )
                )
            elif not key or repo_lines is None or key not in repo_lines:
                problems.append((line, f"compiler directive `{name} is not allowed"))
            depth += 1 if name in ("ifdef", "ifndef") else -1 if name == "endif" else 0
            continue
        if macros is None:
            macros = _repo_macros(design)
        if name not in macros:
            problems.append((line, f"macro `{name} is not defined by the repository"))
        elif (found := _directive_in_expansion(name, design)) is not None:
            problems.append(
                (
                    line,
                    f"macro `{name} expands to the compiler directive `{found}, which is not "
                    "allowed (it sets what the files after the module are read with); the "
                    "reference's module does not use the macro",
                )
            )
    return problems, depth


def _directive_in_expansion(name: str, design: Design) -> str | None:
    """The first compiler directive a repository macro's bodies hold, followed through the
    macros they use (:func:`rtlopt.verilog_macros.directive_in_expansion`), or None; None
    too where the reference's own module uses the macro (the state it sets is the
    reference's)."""
    from rtlopt.harness._kept_checks import _design_macros

    if re.search(rf"`{re.escape(name)}(?![\w$])", design.target.text()):
        return None
    return directive_in_expansion(name, _design_macros(design), _DIRECTIVES)


def _word_problems(
    code: str, code_with_strings: str, design: Design, tb_top: str, expanded: bool = False
) -> list[tuple[int, str]]:
    """System tasks, DPI, forbidden keywords and names of the harness in the active code
    (``expanded``: the repository's macros expanded in it, and in the reference's words)."""
    problems: list[tuple[int, str]] = []
    for m in _SYSTASK_RE.finditer(code):
        name = m.group(0)
        if name not in ALLOWED_SYSTEM_FUNCTIONS:
            problems.append(
                (line_of(code, m.start()), f"system task/function {name} is not allowed")
            )

    for m in _DPI_RE.finditer(code_with_strings):
        problems.append((line_of(code, m.start()), "DPI import/export is not allowed"))

    allowed: Counter[str] | None = None
    used: Counter[str] = Counter()
    for m in _WORD_RE.finditer(code):
        word = m.group(1)
        if word in _ALLOWED_IF_REFERENCE_USES:
            if allowed is None:
                allowed = _reference_keywords(design, expanded)
            used[word] += 1  # a case qualifier: no more often than the reference has it
            if allowed[word] and (word not in _QUALIFIERS or used[word] <= allowed[word]):
                continue
        if word in _FORBIDDEN_KEYWORDS:
            why = _FORBIDDEN_KEYWORDS[word]
        elif word == tb_top:
            why = f"reference to the testbench '{tb_top}' is not allowed"
        elif word.endswith(REF_SUFFIX):
            why = f"reference to the renamed reference '{word}' is not allowed"
        else:
            continue  # the line is counted for a problem only (a count per word is slow)
        problems.append((line_of(code, m.start()), why))
    return problems


def _pragma_problems(text: str, code: str, design: Design) -> list[tuple[int, str]]:
    """Tool directive comments and attributes the reference does not carry, and
    translate_off regions it does not carry (:mod:`._translate_off`) (``code``: the active
    code)."""
    unchanged = _unchanged_modules(text, design)
    problems = region_problems(
        text, design, unchanged, lambda: _reference_texts(design), lambda: _file_text(design)
    )
    pragmas = [
        (off, k) for off, k in tool_pragmas(text) if not any(a <= off < b for a, b in unchanged)
    ]
    attrs = attributes(code)
    if not (pragmas or attrs):
        return problems
    ref_texts = _reference_texts(design)
    ref_pragmas = {k for t in ref_texts for _, k in tool_pragmas(t)}
    ref_attrs = {k for t in ref_texts for _, k in attributes(blank_comments(t))}
    for off, key in pragmas:
        if key not in ref_pragmas:
            problems.append(
                (
                    line_of(text, off),
                    f"tool directive comment '{key[:60]}' is not allowed (synthesis "
                    "would read a different design than simulation; the reference "
                    "has no such comment)",
                )
            )
    for off, key in attrs:
        if key not in ref_attrs:
            problems.append(
                (
                    line_of(code, off),
                    f"attribute (* {key[:60]} *) is not allowed (the reference has "
                    "no such attribute)",
                )
            )
    keys = ref_pragmas | ref_attrs
    return problems + moved_claims(text, code, [*pragmas, *attrs], ref_texts, keys)
