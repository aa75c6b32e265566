"""The texts as iverilog reads them, on the SystemVerilog view path.

On the view path (:mod:`rtlopt.evaluate._view`) simulation and both proofs read slang's views of
the reference and the candidate, never their texts; but iverilog (what a repository is
simulated with) reads some constructs otherwise than slang (iverilog 11 runs ``foreach`` over a
``[7:0]`` array from 0 upward, the LRM from 7 down). Once a candidate has passed everything
else, its own text (beside the packages and repository modules it reads, the target file's
macros in front) is simulated with ``iverilog -g2012`` against the reference's own text
(the target and its submodules renamed, :func:`rtlopt.harness.reference_text`) in the
equivalence testbench, with its vectors and X policy, both as written (initial values too: no
power-up model). Any difference rejects the candidate.

Where iverilog cannot compile both texts together:

* it compiles the reference's text (or the repository's own files), not the candidate's:
  rejected (the repository would no longer simulate);
* it compiles the candidate's text, not the reference's: the candidate's text is simulated
  against the reference's view (what synthesis reads); a difference rejects, agreement is
  accepted with a note in the verdict's scope;
* it compiles neither: no iverilog reading exists on either side; the verdict stands with a
  note in its scope;
* it compiles each alone, not both together, or the repository's own files and not the
  reference's text renamed (the renamed text lost what they read): unchecked.

Not read here: simulators other than iverilog; the Verilog path (its simulation reads the
texts).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rtlopt.evaluate._candidate import Candidate
    from rtlopt.evaluate._setup import EvalSetup
    from rtlopt.evaluate._tbsim import NetlistSim

__all__ = ["text_reading_difference"]


@dataclass(frozen=True)
class _Reference:
    """The reference's files for iverilog (the prelude, its packages, its text renamed), why
    iverilog cannot compile them ("" when it can), and whether it compiles the repository's
    own files then (the renamed text lost what they read: nothing is known of its reading)."""

    files: tuple[Path, ...]
    error: str
    repository: bool
    target_file: Path  # the target's file, every module blanked: its macros and declarations


_LOCK = threading.Lock()
#: per setup: id(setup.tb) -> (setup.tb, the reference's files for iverilog)
_REFERENCES: dict[int, tuple[Any, _Reference]] = {}

_OTHERWISE = "iverilog reads it otherwise than synthesis (slang's view, which the proofs read)"


def text_reading_difference(s: EvalSetup, c: Candidate) -> str:
    """Why iverilog tells the candidate's text from the reference's (module docstring), or "".
    A check that cannot run leaves its note in ``c.unjudged`` (the verdict's scope)."""
    from rtlopt.harness import same_as_reference

    if s.view is None or same_as_reference(c.text, s.design):
        return ""  # the Verilog path reads the texts; the same text reads the same
    wd = c.dir / "text"
    ref = _reference(s)
    cand = _candidate_files(s, c, wd, ref.target_file)
    if not ref.error:
        # a package or header both read is read once
        run = _simulate(s, c, wd, list(dict.fromkeys([*ref.files, *cand])), "text")
        if run.compiled.ok:
            return _verdict(run, f"not equivalent in simulation of the text: {_OTHERWISE}")
    if ref.repository:  # what the renamed text lost: nothing is known of its reading
        return (
            "unchecked: iverilog compiles the repository but not the reference's text beside a "
            f"candidate: {ref.error}"
        )
    cand_error = _compile_error(s, wd, cand, s.design.target.name, "text_candidate")
    if cand_error and not ref.error:
        return (
            "does not compile in iverilog as the reference's text does (iverilog -g2012, "
            f"what the repository is simulated with): {cand_error}"
        )
    if not ref.error:
        return (
            "unchecked: iverilog compiles the reference's and the candidate's texts, not together"
        )
    if cand_error:
        _note(
            c,
            f"iverilog compiles neither the reference's text ({ref.error}) nor the "
            "candidate's: their simulation by iverilog was not checked",
        )
        return ""
    run = _simulate(s, c, wd, [s.reference_file, *cand], "text_view")
    if not run.compiled.ok:
        return "unchecked: the candidate's text does not compile beside the reference's view"
    why = _verdict(
        run,
        "not equivalent in simulation of the text: iverilog reads the candidate's text "
        "otherwise than synthesis reads the reference (slang's view)",
    )
    if not why:
        _note(
            c,
            f"iverilog cannot compile the reference's text ({ref.error}): the candidate's "
            "text was simulated by iverilog against the reference's view",
        )
    return why


def _note(c: Candidate, note: str) -> None:
    c.unjudged = "; ".join(filter(None, [c.unjudged, note]))


def _verdict(run: NetlistSim, head: str) -> str:
    """Why the run tells the candidate from the reference, or ""."""
    from rtlopt.evaluate._tbsim import first_difference

    first = first_difference(run, "the simulation of the texts")
    if isinstance(first, str):
        return first
    from rtlopt.shown import short_value

    ins = ", ".join(f"{k}={short_value(v, 16)}" for k, v in list(first.inputs.items())[:6])
    return (
        f"{head}: output {first.output} expected {short_value(first.expected)} got "
        f"{short_value(first.got)} at "
        f"{first.time}" + (f" for inputs {ins}" if ins else "")
    )


def _simulate(s: EvalSetup, c: Candidate, wd: Path, files: list[Path], name: str) -> NetlistSim:
    from rtlopt.evaluate._tbsim import simulate_in_testbench

    d = s.design
    run = simulate_in_testbench(
        s,
        wd,
        files,
        name=name,
        log_name=f"{name}.log",
        include_dirs=[*d.include_dirs, d.target.file.parent],
        defines=d.defines,
    )
    c.logs[name] = str(wd / f"{name}.log")
    c.logs[f"{name}_compile"] = str(run.compiled.log_path)
    return run


def _compile_error(s: EvalSetup, wd: Path, files: list[Path], top: str, name: str) -> str:
    """Why iverilog -g2012 cannot compile ``files`` with ``top``, or ""."""
    from rtlopt.eda.iverilog import compile_sources
    from rtlopt.evaluate._messages import compile_error_summary

    d = s.design
    comp = compile_sources(
        files,
        wd,
        top=top,
        include_dirs=[*d.include_dirs, d.target.file.parent],
        defines=d.defines,
        out=wd / f"{name}.vvp",
        timeout=s.config.sandbox.timeout_s,
        memory_mb=s.config.sandbox.memory_mb,
    )
    (wd / f"{name}.vvp").unlink(missing_ok=True)
    if comp.ok:
        return ""
    return compile_error_summary(comp.errors, comp.output, wd, limit=1) or "does not compile"


def _candidate_files(s: EvalSetup, c: Candidate, wd: Path, target_file: Path) -> list[Path]:
    """The candidate's text (as written: see :func:`_reference`) after what it reads: the
    prelude, its packages, the target file's macros and declarations (``target_file``, unless a
    module of that file it uses brings them), the repository modules it uses."""
    from rtlopt.errors import DesignError
    from rtlopt.evaluate._sources import library_files
    from rtlopt.frontend import module_closure, parse_text

    assert s.view is not None
    d = s.design
    try:
        mods = parse_text(c.text, "candidate.v", sources=s.cand_sources)
    except DesignError:  # it elaborated: the parser's miss reads no modules of its own
        mods = []
    defined = [m.name for m in mods]
    used = sorted({i for m in mods for i in m.instances} - set(defined))
    pre = list(d.prelude)
    packages = [f for f in s.view.candidate_packages(c.text, defined, used) if f not in pre]
    lib = library_files(d, defined, used, wd / "lib")
    wd.mkdir(parents=True, exist_ok=True)
    text = wd / "candidate.sv"
    text.write_text(c.text)
    rest = [f for f in lib if f not in pre and f not in packages]
    own = {d.modules[n].file for n in module_closure(used, d.modules) if n not in defined}
    unit = [] if d.target.file in own else [target_file]
    return [*pre, *packages, *unit, *rest, text]


def _reference(s: EvalSetup) -> _Reference:
    """The reference's :class:`_Reference` (once per setup)."""
    with _LOCK:
        got = _REFERENCES.get(id(s.tb))
        if got is not None and got[0] is s.tb:
            return got[1]
    from rtlopt.frontend._packages import package_files
    from rtlopt.harness import ref_name, reference_text
    from rtlopt.verilog import blank_spans

    d = s.design
    pre = list(d.prelude)
    wd = s.shared_dir / "text"
    wd.mkdir(parents=True, exist_ok=True)
    ref = wd / "reference_text.sv"
    # as written, initial values too: the power-up model (harness.initial_values) strips them
    # from preprocessed texts, and the texts here are iverilog's to preprocess; what the
    # candidate states otherwise is judged by the power-up checks and proofs
    text = reference_text(d)
    _write(ref, text)
    packages = [f for f in package_files(d) if f not in pre]
    tfile = d.target.file
    unit = wd / f"target_{tfile.name}"
    spans = [(m.start, m.end) for m in d.modules.values() if m.file == tfile]
    _write(unit, blank_spans(tfile.read_text(errors="replace"), spans))
    files = (*pre, *packages, unit, ref)
    error = _compile_error(s, wd, list(files), ref_name(d.target.name), "reference_text")
    repository = False
    if error:  # the repository's own files, as the native probe compiles them
        own = list(dict.fromkeys([*pre, *packages, *d.closure]))
        repository = not _compile_error(s, wd, own, d.target.name, "repository")
    out = _Reference(files, error, repository, unit)
    with _LOCK:
        while len(_REFERENCES) >= 8:
            _REFERENCES.pop(next(iter(_REFERENCES)))
        _REFERENCES[id(s.tb)] = (s.tb, out)
    return out


def _write(path: Path, text: str) -> None:
    """``text`` into ``path`` atomically (parallel evaluations write the same bytes)."""
    try:
        if path.read_text() == text:
            return
    except OSError:
        pass
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
