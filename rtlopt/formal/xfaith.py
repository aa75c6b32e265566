"""The x-faithfulness proof: the candidate's simulated outputs are the reference's, x
included, with the inputs the repository feeds x free to be x.

Every other proof drives the target's inputs with 0 and 1 only. Where the repository's
design can feed an input x (``frontend/_open_inputs.py``: an input left unconnected, tied
to x, a net nothing drives, a select past its range...), a simulator decides on the x in
ways those proofs never see (``if (x)`` takes the ``else`` branch, a ``case`` on x its
``default``, ``?:`` merges both bit by bit): two designs equal on 0/1 can give different
defined values there. :func:`check_x_faith` proves they do not:

* both sides read from the texts the other proofs read (the preprocessed reference and
  candidate), with ``proc -ifx -noopt`` (if/case decide on x as Verilog simulation does; no
  ``opt_expr``, which folds ``b == b`` to 1 where simulation reads x, neither after
  ``proc`` nor in the miter) and no mapping of
  ``===`` or division to their synthesized forms (simulation semantics);
* a miter comparing every output bit exactly, x included (a reference x is no don't care:
  the repository's readers decide on it, an ``if`` takes its ``else``), proven by
  ``sat -enable_undef`` with every input defined but the x-fed ones (``-set-def``);
* a sequential target by temporal induction from reset (registers start x, as in
  simulation; initial values kept), or from power-up with the resets free
  (``free_reset``: the time before the first reset, where a register with a reset and no
  initial value is x too: ``XFaith.early``); an induction that does not close within the
  limit is UNKNOWN, never proven;
* the proof refuses (UNKNOWN) where Yosys's undef model is not known to be iverilog's in
  the cone of the x-fed inputs (:mod:`rtlopt.formal.xfaith_model`), where an x-fed input
  is a reset of the target and the proof starts from reset (from power-up it is a free
  input like the others), and where one is a clock read
  otherwise than as the clock of every register on one edge, on both sides
  (:mod:`rtlopt.formal.xfaith_clock`: iverilog takes an edge from or to x as an edge).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rtlopt.config import FormalConfig
from rtlopt.formal.channel import MARK, new_secret, result_text, seal, tee
from rtlopt.formal.job import read_text, yosys_argv
from rtlopt.formal.logparse import first_error, parse_counterexample
from rtlopt.formal.plan import FormalPlan, plan_formal
from rtlopt.formal.scripts import compared_ids, expose_lines
from rtlopt.formal.unreached import hierarchy_lines
from rtlopt.formal.xfaith_held import Unread, held_inputs, held_rewrite
from rtlopt.formal.xfaith_model import (
    cone_refusal,
    rtlil_refusal,
    same_registers,
    text_refusal,
)
from rtlopt.formal.xfaith_pairs import GATES_JSON, function_pairs, gate_lines
from rtlopt.formal.xfaith_sources import UNDRIVEN, early_registers, x_sources
from rtlopt.frontend.model import Design
from rtlopt.results import Verdict
from rtlopt.tools import (
    Limits,
    raise_if_crashed,
    require_tool,
    run_tool,
    yosys_id,
    yosys_read_lines,
)

__all__ = ["METHOD", "XFaith", "check_x_faith"]

log = logging.getLogger(__name__)

#: How the proof is named.
METHOD = "sat -enable_undef after proc -ifx (x-fed inputs free)"

_PASS = "SAT proof finished - no model found: SUCCESS!"
_FAIL = "SAT proof finished - model found: FAIL!"
_BASE_FAIL = "model found for base case: FAIL!"
_STEP_PASS = "Induction step proven: SUCCESS!"
_TIMEOUT = "Interrupted SAT solver: TIMEOUT"


@dataclass(frozen=True)
class XFaith:
    """The proof's verdict: PROVEN, REFUTED (``counterexample``: the inputs, ``x`` bits
    where an x-fed input was x, and the outputs that differ) or UNKNOWN (``reason``)."""

    verdict: Verdict
    reason: str = ""
    counterexample: dict[str, str] = field(default_factory=dict)
    duration_s: float = 0.0
    #: what makes x inside the two sides (:func:`rtlopt.formal.xfaith_sources.x_sources`);
    #: None where the design was not read that far
    sources: tuple[str, ...] | None = None
    #: register bits a reset sets that no initial value defines (x from power-up until their
    #: first write: :func:`rtlopt.formal.xfaith_sources.early_registers`)
    early: tuple[str, ...] = ()
    #: the proof ran from power-up with the resets free (a sequential target with a reset)
    from_power_up: bool = False
    #: the inputs the counterexample holds without an event from time 0, where it differs
    #: at time 0 with every reset active (registers with those asynchronous inputs at their
    #: power-up value: :mod:`rtlopt.formal.xfaith_held`): a run from reset
    held: tuple[str, ...] = ()
    #: registers with an asynchronous reset, set or load were also read at time 0 with it
    #: held without an event (their power-up value)
    time_zero: bool = False


def check_x_faith(
    design: Design,
    candidate_files: Sequence[Path],
    workdir: Path,
    cfg: FormalConfig,
    ports: Sequence[str],
    *,
    z: bool = True,
    seconds: float | None = None,
    memory_mb: int | None = None,
    reference_file: Path,
    initial_values: str = "ignore",
    policy: bool = False,
    free_reset: bool = False,
    moot: bool = False,
) -> XFaith:
    """Prove that the candidate's outputs are the reference's, x included, with ``ports``
    free to be x (the other inputs 0/1).

    Args:
        design: The design (its target, renamed, is the gold module).
        candidate_files: The candidate's files as the other proofs read them.
        workdir: Scratch folder (created).
        cfg: Depths and the time limit.
        ports: The target's inputs the repository feeds x.
        z: Some of them may be z (unconnected, undriven): constructs that tell z from x
            are refused.
        seconds: The time limit (default ``cfg.timeout_s``).
        memory_mb: Address-space limit of Yosys.
        reference_file: The reference's text as the other proofs read it.
        initial_values: The power-up model (``harness.initial_values``).
        policy: Compare under the X policy (``miter -ignore_gold_x``): a reference x bit
            accepts any candidate value, a candidate x where the reference is defined is a
            difference (:mod:`rtlopt.formal.xpolicy`).
        free_reset: The resets are free inputs from power-up on, never forced: the proof
            covers the period before the first reset too.
        moot: The caller reads the verdict only where something is x (an x-fed input, an x
            source after the reset, a register x before the first reset or read at time 0
            with a reset held): where nothing is, the ``sat`` run is skipped and the verdict
            is UNKNOWN (``NOT_RUN``).

    Raises:
        ToolFailed: Yosys crashed.
    """
    require_tool("yosys")
    start = time.monotonic()
    workdir.mkdir(parents=True, exist_ok=True)
    texts = [read_text(Path(f)) for f in candidate_files]
    ref = read_text(reference_file)
    plan = plan_formal(design, texts, initial_values=initial_values, reference=ref)
    why = _plan_refusal(design, plan, ports, free_reset=free_reset)
    if why:
        return XFaith(Verdict.UNKNOWN, why, {}, time.monotonic() - start)
    # with no x-fed input, the design is read first: only its own x sources make it matter
    said = text_refusal([ref, *texts], z=z)
    if said and ports:
        return XFaith(Verdict.UNKNOWN, said, {}, time.monotonic() - start)
    limit = max(1.0, cfg.timeout_s if seconds is None else seconds)
    seq = plan.mode in ("seq", "bmc")
    p = _Proof(
        design,
        reference_file,
        tuple(candidate_files),
        plan,
        tuple(ports),
        cfg,
        workdir,
        policy=policy,
        free_reset=free_reset,
        moot=moot,
    )
    rc, secret, held, tried = _first_run(p, limit / 2 if seq else limit, memory_mb)
    pre = read_text(workdir / _file(secret, "pre.il"))
    why = said or (rtlil_refusal(pre, z=z) if pre else "yosys could not read the design")
    why = why or (held if held.startswith(_UNREAD) else "")
    sources, early = _read_sources(p, secret)
    free = free_reset and seq and bool(plan.resets)
    if _settled(p, sources):
        return XFaith(Verdict.PROVEN, "", {}, time.monotonic() - start, (), early)
    if held == _SKIPPED:
        took = time.monotonic() - start
        return XFaith(Verdict.UNKNOWN, NOT_RUN, {}, took, sources, early, from_power_up=free)
    if sources and any(w.endswith(UNDRIVEN) for w in sources):  # z in simulation
        why = why or text_refusal([ref, *texts], z=True) or rtlil_refusal(pre, z=True)
    found = _checked(p, (rc, secret, tried), why, start, (limit, memory_mb))
    return replace(found, sources=sources, early=early, from_power_up=free, time_zero=held == _HELD)


@dataclass(frozen=True)
class _Tried:
    """The induction strengthened with register pairs, run before the plain one
    (:func:`_first_run`): the pairs' words, and whether it proved the candidate or ran to
    its end without (then it is not run again)."""

    paired: str = ""
    proven: bool = False
    finished: bool = False


def _first_run(p: _Proof, limit: float, memory_mb: int | None) -> tuple[int, str, str, _Tried]:
    """The first run (:meth:`_Proof.run`; its exit status, secret and word), a sequential
    target's with the induction strengthened by register pairs (:func:`_pairs`) tried
    first: the pairs are proven too, never assumed, so where that closes the candidate is
    proven and the plain induction, which often does not close where registers are renamed,
    is not run; otherwise the plain one runs as ever (its refutation, its proof)."""
    rc, secret, held, choices = p.prepare(limit, memory_mb, first=True)
    if choices is None:
        return rc, secret, held, _Tried()
    post = p.workdir / _file(secret, "post.json")
    pairs, paired = _pairs(p, p.workdir / _file(secret, GATES_JSON), post, limit / 8)
    tried = _Tried()
    if pairs:
        other = new_secret()
        held_il = read_text(p.workdir / _file(secret, "held.il"))
        (p.workdir / _file(other, "held.il")).write_text(held_il)
        # half the time: the plain run keeps all of its own (its verdict as ever), and one
        # that timed out here is run again after it (:func:`_checked`) as before
        prc = p.solve(other, limit / 2, memory_mb, pairs, choices)
        out = result_text(p.workdir, other, "sat")
        if _STEP_PASS in out and prc == 0:
            return rc, secret, held, _Tried(paired, proven=True)
        tried = _Tried(paired, finished=prc == 0 and bool(out) and _TIMEOUT not in out)
    return p.solve(secret, limit, memory_mb, (), choices), secret, held, tried


def _checked(
    p: _Proof,
    run: tuple[int, str, _Tried],
    why: str,
    start: float,
    budget: tuple[float, int | None],
) -> XFaith:
    """The verdict of the first run (``run``: its exit status, secret and the strengthened
    induction tried first) unless ``why`` or the cone check refuses the proof, strengthened
    with register pairs where its induction did not close."""
    (rc, secret, tried), (limit, memory_mb) = run, budget
    workdir, design, plan, ports = p.workdir, p.design, p.plan, p.ports
    pre = read_text(workdir / _file(secret, "pre.il"))
    post = workdir / _file(secret, "post.json")
    clocks = [c for c in ports if c in design.target.clocks]
    why = why or cone_refusal(post, compared_ids(design), ports, clocks)
    if why:
        err = first_error(read_text(workdir / "xfaith.log"))
        why = f"yosys: {err}" if err and not pre else why
        return XFaith(Verdict.UNKNOWN, why, {}, time.monotonic() - start)
    if tried.proven:
        return XFaith(Verdict.PROVEN, "", {}, time.monotonic() - start)
    found = _verdict(result_text(workdir, secret, "sat"), plan, rc, ports, start)
    if found.reason != _OPEN:
        return found
    if tried.finished:
        why = f"{_OPEN}, also with {tried.paired} paired"
        return XFaith(Verdict.UNKNOWN, why, {}, time.monotonic() - start)
    left = max(1.0, limit - (time.monotonic() - start))
    pairs, paired = _pairs(p, workdir / _file(secret, GATES_JSON), post, left / 4)
    if not pairs:
        return found
    # the induction strengthened: paired register bits hold the same value, x included
    left = max(1.0, limit - (time.monotonic() - start))
    rc, secret, _ = p.run(left, memory_mb, pairs)
    if _STEP_PASS in result_text(workdir, secret, "sat") and rc == 0:
        return XFaith(Verdict.PROVEN, "", {}, time.monotonic() - start)
    why = f"{_OPEN}, also with {paired} paired"
    return XFaith(Verdict.UNKNOWN, why, {}, time.monotonic() - start)


def _read_sources(p: _Proof, secret: str) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """:func:`_sources` of the design the run ``secret`` read (None: it read none)."""
    if not read_text(p.workdir / _file(secret, "pre.il")):
        return None, ()
    post = p.workdir / _file(secret, "post.json")
    return _sources(post, compared_ids(p.design), p.plan.resets or {})


def _settled(p: _Proof, sources: tuple[str, ...] | None) -> bool:
    """Nothing is x after the reset and no input is fed x: the 0/1 proofs say it all (not so
    with the reset free; a reset held without an event at time 0 leaves registers at
    power-up: the proof from power-up, which runs first, covers it, and a difference it finds
    at time 0 from reset is the proof from reset's too, ``XFaith.held``). The verdict is then
    PROVEN whatever the ``sat`` run says, so that run is skipped (:meth:`_Proof.run`)."""
    return not p.ports and sources == () and not p.free_reset


def _needless(p: _Proof, secret: str, choices: Sequence[str]) -> bool:
    """The first run's ``sat`` says nothing the caller reads: the verdict is settled
    (:func:`_settled`), or the caller reads none where nothing is x (``moot``: no x-fed
    input, no x source, no register x before the first reset, none read at time 0 with a
    reset held, ``choices``)."""
    sources, early = _read_sources(p, secret)
    if _settled(p, sources):
        return True
    return p.moot and not p.ports and sources == () and not early and not choices


def _sources(
    post: Path, modules: Sequence[str], resets: Mapping[str, int]
) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """What makes x inside the two sides after the reset, or None (the design could not be
    read); and the register bits x before the first reset only (a reset sets them)."""
    try:
        mods = json.loads(post.read_text(errors="replace"))["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return None, ()
    names = list(modules)
    return tuple(x_sources(mods, names, resets)), tuple(early_registers(mods, names, resets))


def _pairs(
    p: _Proof, gates: Path, words: Path, seconds: float
) -> tuple[list[tuple[str, str]], str]:
    """Register pairs for the strengthened induction: bits with one next-state function,
    then the registers both sides name alike that none of those took; and what they are."""
    ids = compared_ids(p.design)
    clocks = [c for c in p.design.target.clocks if c in {i.name for i in p.design.target.inputs}]
    by_function = function_pairs(gates, ids, clocks, seconds=seconds)
    took = {g.split("[")[0] for g, _ in by_function} | {t.split("[")[0] for _, t in by_function}
    by_name = [n for n in same_registers(words, ids) if n not in took]
    pairs = [*by_function, *((n, n) for n in by_name)]
    said = (
        f"{len(by_function)} register bit(s) by next-state function and "
        f"{len(by_name)} register(s) by name"
    )
    return pairs, said


@dataclass(frozen=True)
class _Proof:
    """One proof's inputs: its Yosys runs differ in the registers paired only."""

    design: Design
    reference_file: Path
    candidate_files: tuple[Path, ...]
    plan: FormalPlan
    ports: tuple[str, ...]
    cfg: FormalConfig
    workdir: Path
    policy: bool = False
    free_reset: bool = False
    moot: bool = False

    def run(
        self,
        limit: float,
        memory_mb: int | None,
        pairs: Sequence[tuple[str, str]] = (),
        *,
        first: bool = False,
    ) -> tuple[int, str, str]:
        """Run the script (:func:`_script`); its exit status, secret, and whether a
        register has asynchronous pins (``_HELD``; ``_UNREAD``: one the time-0 model could
        not read). A sequential target's runs twice: up to
        ``memory``, then, those registers read as at time 0 with the reset held without an
        event (:func:`rtlopt.formal.xfaith_held.held_rewrite`), the proof; ``first``: not
        the proof where what is read up to then says it is not needed (:func:`_needless`:
        ``_SKIPPED``)."""
        rc, secret, held, choices = self.prepare(limit, memory_mb, pairs, first=first)
        if choices is None:
            return rc, secret, held
        return self.solve(secret, limit, memory_mb, pairs, choices), secret, held

    def prepare(
        self,
        limit: float,
        memory_mb: int | None,
        pairs: Sequence[tuple[str, str]] = (),
        *,
        first: bool = False,
    ) -> tuple[int, str, str, tuple[str, ...] | None]:
        """:meth:`run` up to the proof: its exit status, secret, word (``_HELD``,
        ``_UNREAD``, ``_SKIPPED``) and the time-0 choices (None: no proof to run, the
        script ran whole or stopped)."""
        secret = new_secret()
        seq = self.plan.mode in ("seq", "bmc")
        rc = self._yosys(
            "xfaith", _script(self, secret, limit, pairs, part=1 if seq else 0), limit, memory_mb
        )
        mid = self.workdir / _file(secret, "mid.il")
        if not seq or rc != 0 or not mid.is_file():
            return rc, secret, "", None
        try:
            text, choices = held_rewrite(read_text(mid), compared_ids(self.design))
        except Unread as exc:
            return 1, secret, f"{_UNREAD} ({exc})", None
        if first and _needless(self, secret, choices):
            return rc, secret, _SKIPPED, None
        (self.workdir / _file(secret, "held.il")).write_text(text)
        return rc, secret, _HELD * bool(choices), tuple(choices)

    def solve(
        self,
        secret: str,
        limit: float,
        memory_mb: int | None,
        pairs: Sequence[tuple[str, str]],
        choices: Sequence[str],
    ) -> int:
        """The proof (part 2 of :func:`_script`) on the design :meth:`prepare` wrote under
        ``secret``: Yosys's exit status (the result under ``secret``)."""
        script = _script(self, secret, limit, pairs, part=2, choices=choices)
        return self._yosys("xfaith_sat", script, limit, memory_mb)

    def _yosys(self, name: str, script: str, limit: float, memory_mb: int | None) -> int:
        (self.workdir / f"{name}.ys").write_text(script)
        run = run_tool(
            yosys_argv(f"{name}.log", f"{name}.ys"),
            cwd=self.workdir,
            log_path=self.workdir / f"{name}.out",
            limits=Limits(limit + 30.0, memory_mb),
            raise_on_timeout=False,
        )
        raise_if_crashed(run, "yosys (x-faithfulness proof)")
        return run.returncode


def _plan_refusal(
    design: Design, plan: FormalPlan, ports: Sequence[str], *, free_reset: bool = False
) -> str:
    """Why the proof does not model this target with these inputs x, or "". An x-fed reset
    is refused from reset (forced in the first step, it may never be a 0/1 reset in the
    repository); from power-up with the resets free (``free_reset``) it is one more free
    input: a synchronous reset is data to the registers (``proc -ifx``: ``if (x)`` takes
    ``else`` as in iverilog), an asynchronous one reaches a register's reset pin, which the
    cone check refuses (:func:`rtlopt.formal.xfaith_model.cone_refusal`: an x edge)."""
    if plan.mode == "unsupported":
        return plan.reason or "the target is not modelled"
    if plan.stated and plan.honor and ports:
        # x the target makes itself is modelled there: sat keeps the stated values
        return "power-up values honored: the proof from them does not model x inputs"
    t = design.target
    for p in ports:
        if p in t.clocks and (plan.clk2fflogic or plan.mode not in ("seq", "bmc")):
            # one clock on one edge: read only so, its x edges are edges (the cone check)
            return f"the x-fed input {p} is a clock of {t.name} (iverilog takes an x edge)"
        if not free_reset and (p in (plan.resets or {}) or p in t.resets):
            return f"the x-fed input {p} is a reset of {t.name} (the proof starts from reset)"
    return ""


def _file(secret: str, name: str) -> str:
    return f"rtlopt_{secret}_{name}"


def _script(
    p: _Proof,
    secret: str,
    limit: float,
    pairs: Sequence[tuple[str, str]] = (),
    *,
    part: int = 0,
    choices: Sequence[str] = (),
) -> str:
    """Both sides read, ``proc -ifx``, the miter, and the one ``sat`` run (result ``sat``);
    ``pairs``: registers whose values and undef bits the induction also proves equal
    (``-prove``). ``part`` 1: up to ``memory`` only (the design written to ``mid.il``);
    2: the rest, from ``held.il`` (``choices``: its inputs that choose a reset held
    without an event at time 0, :mod:`rtlopt.formal.xfaith_held`); 0: all of it."""
    lines = _read_lines(p, secret) if part in (0, 1) else []
    if part == 1:
        if not p.plan.clk2fflogic and not pairs:  # for a second run's pairing
            # as the registers are, before the time-0 reading (pairs are proven, not assumed)
            lines += ["design -save xfaith_mid", "async2sync", "opt_clean"]
            lines += [*gate_lines(_file(secret, GATES_JSON)), "design -load xfaith_mid"]
        return seal("\n".join([*lines, f"write_rtlil {_file(secret, 'mid.il')}"]) + "\n", secret)
    if part == 2:
        lines = [f"log {MARK} read", f"read_rtlil {_file(secret, 'held.il')}"]
    lines += _proof_lines(p, secret, limit, pairs, choices)
    return seal("\n".join(lines) + "\n", secret)


def _read_lines(p: _Proof, secret: str) -> list[str]:
    """Both sides read, ``proc -ifx``, flattened, memories mapped."""
    design = p.design
    dirs = [*design.include_dirs, design.target.file.parent]
    pre = design.prelude
    gold, gate = compared_ids(design)
    own = [f for f in p.candidate_files if f not in pre]
    lines = [f"log {MARK} read"]
    lines += yosys_read_lines([*pre, p.reference_file], dirs, design.defines, one_per_file=True)
    lines += [f"log {MARK} read_candidate"]
    lines += yosys_read_lines(own, dirs, design.defines, one_per_file=True)
    lines += [f"log {MARK} prepare", *hierarchy_lines(design, gold, gate)]
    # no opt_expr after proc: it folds ``b == b`` to 1 and ``b & ~b`` to 0, which iverilog
    # reads as x where b is x (a candidate hid a different choice behind ``if (b == b)``)
    lines += [f"write_rtlil {_file(secret, 'pre.il')}", "proc -ifx -noopt", "flatten"]
    lines += [*expose_lines(design, gold, gate), "opt_clean"]
    # the cone check reads the memories as they are; outside the cone they are mapped
    lines += [f"write_json {_file(secret, 'post.json')}", "memory", "opt_clean"]
    return lines


def _proof_lines(
    p: _Proof,
    secret: str,
    limit: float,
    pairs: Sequence[tuple[str, str]],
    choices: Sequence[str],
) -> list[str]:
    """The registers made synchronous, the miter and the ``sat`` run."""
    design, plan, cfg = p.design, p.plan, p.cfg
    gold, gate = compared_ids(design)
    lines: list[str] = []
    seq = plan.mode in ("seq", "bmc")
    ignore = "-ignore_gold_x " if p.policy else ""
    if seq:
        lines += ["clk2fflogic" if plan.clk2fflogic else "async2sync", "opt_clean"]
    lines += [
        f"log {MARK} miter",
        # every output bit as the reference's, x included: the repository's readers decide on
        # an x of the target (an ``if`` takes ``else``, ``===``, a register keeps it), so a
        # candidate defined where the reference is x changes what they do
        # no ``miter -flatten``: it runs ``opt_expr -keepdc``, the same folds as ``proc``'s
        # (``policy``: a reference x accepts any candidate value, the X policy's rule)
        f"miter -equiv -make_assert -make_outputs {ignore}{gold} {gate} miter",
        "hierarchy -top miter",
        "flatten",
        # what nothing drives is x (the folds' ``-undriven`` part), not a free SAT variable
        "setundef -undriven -undef",
        "opt_clean",
    ]
    if not seq:  # what both sides compute alike, once (a cell of the same inputs: any model)
        lines += ["opt_merge", "opt_clean"]
    opts = ["-prove-asserts", "-enable_undef", "-show-inputs", "-show-outputs"]
    for port in [*(i.name for i in design.target.inputs), *choices]:
        if port not in p.ports:
            opts += ["-set-def", yosys_id(f"in_{port}")]
    for g, t in pairs:
        # the miter's instances of the two sides are named gold and gate
        opts += ["-prove", yosys_id(f"gold.{g}"), yosys_id(f"gate.{t}")]
    if seq:
        scale = 2 if plan.clk2fflogic else 1
        opts += ["-tempinduct", "-set-init-undef", "-maxsteps", str(cfg.induction_depth * scale)]
        for r, active in ({} if p.free_reset else plan.resets or {}).items():
            for step in range(1, scale + 1):
                opts += ["-set-at", str(step), yosys_id(f"in_{r}"), str(active)]
    opts += ["-timeout", str(max(1, int(limit)))]
    lines += [f"log {MARK} sat", tee(secret, "sat", "sat " + " ".join(opts) + " miter")]
    return lines


#: :meth:`_Proof.run`'s word for registers with asynchronous pins read as at time 0.
_HELD = "held"
#: :meth:`_Proof.run`'s word for a proof not run (:func:`_needless`).
_SKIPPED = "skipped"
#: The reason of a ``moot`` proof not run where nothing is x.
NOT_RUN = (
    "not run: nothing is x (no x-fed input, no x source, no register x before its first "
    "write, none read at time 0)"
)
#: Why the proof fails closed where such a register could not be read.
_UNREAD = (
    "a register with an asynchronous reset, set or load could not be modelled at time 0, "
    "where a reset held without an event leaves it at its power-up value"
)

#: The reason of an induction that did not close.
_OPEN = "the induction did not close"


def _verdict(
    out: str, plan: FormalPlan, returncode: int, ports: Sequence[str], start: float
) -> XFaith:
    """The verdict from the ``sat`` result file (failures first)."""
    took = time.monotonic() - start
    if _FAIL in out or _BASE_FAIL in out:
        cex = _mark_x(parse_counterexample(out), ports)
        held = held_inputs(cex, plan.resets or {})
        return XFaith(Verdict.REFUTED, "", cex, took, held=held)
    if _TIMEOUT in out:
        return XFaith(Verdict.UNKNOWN, "the SAT instance timed out", {}, took)
    seq = plan.mode in ("seq", "bmc")
    if (_STEP_PASS if seq else _PASS) in out and returncode == 0:
        return XFaith(Verdict.PROVEN, "", {}, took)
    if seq and out:
        return XFaith(Verdict.UNKNOWN, _OPEN, {}, took)
    return XFaith(Verdict.UNKNOWN, "no verdict from the yosys run", {}, took)


def _mark_x(cex: dict[str, str], ports: Sequence[str]) -> dict[str, str]:
    """The counterexample with the x-fed inputs first."""
    first = {k: v for k, v in cex.items() if k.split("@")[0] in ports}
    return {**first, **{k: v for k, v in cex.items() if k not in first}}
