"""The x-exact proof from power-up on the SystemVerilog view path, where the only x of the
target are registers with a reset and no initial value (x from power-up until their first
write: :func:`rtlopt.evaluate._xfaith.with_inner_x`).

The views every other stage reads are slang's synthesis of the text: a procedural ``if`` is
a ``?:`` that merges x (simulation takes ``else``), a one-item ``case`` the same, and a
``case`` whose items cover every 0/1 value loses its ``default`` (x where simulation takes
it). The x-exact proof does not read them; it reads procedural views
(``read_slang --no-proc``, :func:`rtlopt.eda._slang.elaborate`): processes written back as
``always`` blocks with ``if`` and ``casez`` (item bits 0/1/``?``), which Yosys 0.23's
``proc -ifx`` and every simulator read alike (x takes ``else``, the ``default``). What they
still read otherwise than the text fails closed (:func:`_refusal`): ``casex`` (written as
``casez``: an x selector bit no longer matches any item bit), 2-state variables (``bit``,
``int``: x becomes 0 in simulation, x in the view), a z slang reads as x, a file slang
cannot elaborate so.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.evaluate._candidate import Candidate
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.evaluate._xview_reads import lowered_otherwise, switched_off
from rtlopt.formal.budget import time_left
from rtlopt.results import Verdict
from rtlopt.verilog import blank_comments, blank_spans, directive_line_end

if TYPE_CHECKING:
    from rtlopt.eda._slang import SlangResult
    from rtlopt.formal.xfaith import XFaith

__all__ = ["procedural_proof"]

#: A macro definition (its name; the body runs to the directive's line end).
_DEFINE = re.compile(r"`define[ \t]+(\w+)")
#: A macro use (or a directive: no macro has a directive's name).
_USE = re.compile(r"`(\w+)")
#: An enum declared without a base type: ``int``, 2-state (x becomes 0 in simulation).
_ENUM_INT = re.compile(r"\benum\s*\{")

#: The reference's procedural view per view object (elaborated once per run).
_REFERENCES: dict[int, tuple[weakref.ref[object], SlangResult]] = {}

_LOCK = threading.Lock()

#: Why the proof does not run where the procedural views cannot be made.
_NOT_MADE = "the procedural SystemVerilog views the proof reads could not be made"


def procedural_proof(s: EvalSetup, c: Candidate) -> XFaith | str:
    """The x-exact proof from power-up with the resets free on the procedural views of the
    reference and the candidate, or why it cannot run (the candidate stays unchecked)."""
    from rtlopt.evaluate._view import view_design
    from rtlopt.harness import reference_text

    assert s.view is not None
    work = c.dir / "formal" / "xfaith_procedural"
    ref = _reference(s)
    cand = _candidate(s, c, work / "candidate")
    if isinstance(cand, str):
        return cand
    why = _refusal(ref, "reference", None) or _refusal(cand, "candidate", None)
    if why:
        return why
    renamed = work / "reference_procedural.v"
    renamed.write_text(reference_text(view_design(s.view.original, ref.view)))
    proof = run_x_proof(s, c, [cand.view], work / "proof", renamed, x_inputs=(), free_reset=True)
    if proof.verdict is Verdict.PROVEN and proof.sources == () and not proof.early:
        return proof  # nothing is x on the procedural views: how x is read cannot matter
    on = {"SYNTHESIS": "1", **s.view.original.defines}
    return _refusal(ref, "reference", on) or _refusal(cand, "candidate", on) or proof


def run_x_proof(
    s: EvalSetup,
    c: Candidate,
    files: list[Path],
    work: Path,
    reference: Path,
    *,
    x_inputs: tuple[str, ...],
    free_reset: bool,
    moot: bool = False,
) -> XFaith:
    """:func:`rtlopt.formal.xfaith.check_x_faith` of the candidate's ``files`` against the
    renamed ``reference``, within what is left of the verdict's time (``x_inputs`` free to
    be x; ``free_reset``: from power-up, the resets free; ``moot``: the caller reads no
    verdict where nothing is x)."""
    from rtlopt.formal import check_x_faith

    cfg = s.config
    left = time_left()
    seconds = cfg.formal.timeout_s if left is None else max(1.0, min(cfg.formal.timeout_s, left))
    return check_x_faith(
        s.tools,
        files,
        work,
        cfg.formal,
        x_inputs,
        z=c.x_z,
        seconds=seconds,
        memory_mb=cfg.sandbox.memory_mb,
        reference_file=reference,
        initial_values=cfg.harness.initial_values,
        free_reset=free_reset,
        moot=moot,
    )


def _reference(s: EvalSetup) -> SlangResult:
    """The reference's procedural view (made once per view, beside the views' folder)."""
    from rtlopt.evaluate._view import SvView, elaborate_reference

    view: SvView | None = s.view
    assert view is not None
    with _LOCK:  # candidates are evaluated in threads
        hit = _REFERENCES.get(id(view))
        if hit is not None and hit[0]() is view:
            return hit[1]
        timeout = max(s.config.sandbox.timeout_s, 600.0)
        work = s.workdir / "view_procedural"
        res = elaborate_reference(view.original, work, timeout=timeout, processes=True)
        if len(_REFERENCES) > 8:
            _REFERENCES.clear()
        _REFERENCES[id(view)] = (weakref.ref(view), res)
        return res


def _candidate(s: EvalSetup, c: Candidate, work: Path) -> SlangResult | str:
    """The candidate's procedural view, read beside what its synthesized view read (the
    same modules defined and used: ``evaluate/_stages.py``), or why it cannot be made."""
    from rtlopt.errors import DesignError
    from rtlopt.evaluate._view import SvView
    from rtlopt.frontend import parse_text

    view: SvView | None = s.view
    assert view is not None
    try:
        mods = parse_text(c.text, "candidate.v", sources=s.cand_sources)
    except DesignError as exc:
        return f"{_NOT_MADE} (the candidate does not parse: {exc})"
    defined = [m.name for m in mods]
    used = sorted({i for m in mods for i in m.instances} - set(defined))
    timeout = s.config.sandbox.timeout_s
    return view.candidate(c.text, defined, used, work, timeout=timeout, processes=True)


def _refusal(res: SlangResult, side: str, defined: Mapping[str, str] | None) -> str:
    """Why the procedural view ``res`` of ``side`` may read x otherwise than the text, or ""
    (``defined``: the macros slang reads defined, and what its SystemVerilog texts hold is
    judged too, :func:`_text_refusal`)."""
    from rtlopt.evaluate._view import z_as_x

    if not res.ok:
        return f"{_NOT_MADE} (the {side}'s: {res.first_error()})"
    if z_as_x(res):
        return f"the {side}'s procedural view reads a z as x ({z_as_x(res)})"
    if not res.read:
        return f"{_NOT_MADE} (slang named no file it read for the {side})"
    if defined is None:
        return ""
    read = []
    for f in res.read:
        try:
            read.append(f.read_text(errors="replace"))
        except OSError:
            return f"{_NOT_MADE} (the {side}'s file {f.name} cannot be read)"
    # the values of the macros defined for the build (the configuration's and the command
    # line's) are judged as code too: a text may use them
    why = _text_refusal([*read, *defined.values()], set(defined))
    if why:
        return f"the {side}'s SystemVerilog text holds {why}, which its view does not keep"
    return ""


def _text_refusal(texts: list[str], defined: set[str]) -> str:
    """:func:`rtlopt.formal.xfaith_model.text_refusal` (``casex``, 2-state types) and enums of
    the default base type in ``texts`` (comments blanked), where a macro's body counts only
    if the texts use the macro (assertion macros of an included header that no file
    expands are not code)."""
    from rtlopt.formal.xfaith_model import text_refusal

    codes = _read_branches([blank_comments(t) for t in texts], defined)
    bodies: dict[str, list[str]] = {}
    plain: list[str] = []
    for code in codes:
        spans = []
        for m in _DEFINE.finditer(code):
            end = directive_line_end(code, m.start())
            bodies.setdefault(m.group(1), []).append(code[m.end() : end])
            spans.append((m.start(), end))
        plain.append(blank_spans(code, spans))
    used: set[str] = set()
    todo = [n for code in plain for n in _USE.findall(code)]
    while todo:  # the macros a used macro's body uses are used too
        name = todo.pop()
        if name not in used:
            used.add(name)
            todo += [n for body in bodies.get(name, []) for n in _USE.findall(body)]
    kept = plain + [b for n in sorted(used) for b in bodies.get(n, [])]
    return (
        text_refusal(kept, z=False)
        or _two_state_enum(kept)
        or lowered_otherwise(kept, [b for n in sorted(used) for b in bodies.get(n, [])])
    )


def _two_state_enum(codes: list[str]) -> str:
    """Why ``codes`` (comments blanked) declare an enum of the default base type (``int``),
    or ""."""
    if any(_ENUM_INT.search(c) for c in codes):
        return "an enum without a base type (int, 2-state: x becomes 0 in simulation)"
    return ""


def _read_branches(codes: list[str], defined: set[str]) -> list[str]:
    """``codes`` with the conditional branches slang does not read blanked: those switched
    off both with ``SYNTHESIS`` alone and with ``defined`` and every macro the texts define
    (a ``ifdef FORMAL`` block of assertions: ``$past`` there is no logic; a header may
    ``undef`` a macro of the build before a branch, so neither reading alone decides)."""
    every = defined | {m.group(1) for c in codes for m in _DEFINE.finditer(c)}
    out = []
    for code in codes:
        # slang's own macros alone: a macro of the build may be undefined before the branch
        off = [set(range(a, b)) for a, b in switched_off(code, {"SYNTHESIS"})]
        also = {i for a, b in switched_off(code, every) for i in range(a, b)}
        spans = _runs(sorted(i for part in off for i in part if i in also))
        out.append(blank_spans(code, spans))
    return out


def _runs(offsets: list[int]) -> list[tuple[int, int]]:
    """The spans of consecutive ``offsets`` (sorted)."""
    spans: list[tuple[int, int]] = []
    for i in offsets:
        if spans and spans[-1][1] == i:
            spans[-1] = (spans[-1][0], i + 1)
        else:
            spans.append((i, i + 1))
    return spans
