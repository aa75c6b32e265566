"""From a design and a candidate to the AIGER miter: plan, Yosys netlist run, build."""

from __future__ import annotations

import dataclasses
import re
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.formal.abc import build_aiger
from rtlopt.formal.channel import MARK, result_name, seal
from rtlopt.formal.miter import Miter, MiterSpec, NeedsGlobalClock, NotModelled
from rtlopt.formal.plan import FormalPlan, clock_edges, tied_resets
from rtlopt.formal.scripts import DRIVERS, STRUCTURE_JSON, array_mul_lines, prepare_lines
from rtlopt.frontend.model import Design
from rtlopt.harness import ref_name
from rtlopt.tools import Limits, raise_if_crashed, require_tool, run_tool

__all__ = [
    "AigPlan",
    "Prepared",
    "aig_plan",
    "miter_constants",
    "netlist_script",
    "prepare_miter",
]

NETLIST_JSON = "miter_netlist.json"


@dataclass(frozen=True)
class AigPlan:
    """How the AIGER miter models time.

    Attributes:
        sequential: The target has a clock input.
        global_clock: Clocks become inputs of Yosys's ``clk2fflogic`` model (several clocks,
            both edges of one clock, or latches).
        clocks: Clock input ports.
        resets: Reset port -> active level.
    """

    sequential: bool
    global_clock: bool
    clocks: tuple[str, ...]
    resets: dict[str, int]

    @property
    def reset_steps(self) -> int:
        # clk2fflogic: one step per clock level, so a full clock period is two steps
        return 2 if self.global_clock else 1

    def miter_spec(self, target: str) -> MiterSpec:
        """The miter of module ``target`` against its renamed reference in this time model
        (the other fields at their defaults: ``dataclasses.replace`` sets them)."""
        return MiterSpec(
            ref_name(target),
            target,
            self.sequential,
            global_clock=self.global_clock,
            clocks=self.clocks,
            resets=self.resets,
            reset_steps=self.reset_steps,
        )


def aig_plan(design: Design, candidate_texts: Sequence[str], *, latches: bool = False) -> AigPlan:
    """The time model for ``design``'s target (``latches``: the designs hold latches)."""
    t = design.target
    names = {p.name for p in t.inputs}
    clocks = tuple(c for c in t.clocks if c in names)
    resets = {r: (0 if t.reset_active_low.get(r, False) else 1) for r in t.resets if r in names}
    if not clocks:
        return AigPlan(False, latches, (), {})
    # a reset the repository ties inactive is never forced first, as in plan_formal (red-team
    # round 124: the engines forced it, and a change wrong from power-up states was proven)
    tied = tied_resets(design) if resets else {}
    resets = {r: v for r, v in resets.items() if r not in tied}
    edges: set[str] = set()
    for m in [t, *(design.modules[n] for n in design.submodules if n in design.modules)]:
        edges |= clock_edges(m.text(), list(clocks))
    for text in candidate_texts:
        edges |= clock_edges(text, list(clocks))
    both = edges == {"posedge", "negedge"}
    return AigPlan(True, len(clocks) > 1 or both or latches, clocks, resets)


def netlist_script(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    plan: AigPlan,
    include_dirs: Sequence[Path],
    *,
    structure_secret: str = "",
    keep_init: bool = False,
) -> str:
    """Yosys script: prepare both designs as for the SAT miter, then write gate-level JSON.

    With ``structure_secret`` the same run also writes :data:`~rtlopt.formal.scripts.
    STRUCTURE_JSON` and the drivers check's result files under that secret (what
    :func:`~rtlopt.formal.structure.structure_only` would write in a Yosys run of its own:
    the two read the designs alike, and neither command changes the design)."""
    mode = "seq" if plan.sequential or plan.global_clock else "comb"
    fplan = FormalPlan(mode, "", plan.resets, plan.global_clock)
    lines = prepare_lines(
        design,
        reference_file,
        candidate_files,
        fplan,
        include_dirs,
        structure=bool(structure_secret),
        secret=structure_secret,
        keep_init=keep_init,
    )
    if plan.global_clock and not plan.sequential:
        lines += ["clk2fflogic", "opt_clean"]
    lines += [
        f"log {MARK} netlist",
        "dffunmap",
        *array_mul_lines(),
        "techmap",
        "opt_clean",
        f"write_json {NETLIST_JSON}",
    ]
    text = "\n".join(lines) + "\n"
    return seal(text, structure_secret) if structure_secret else text


@dataclass
class Prepared:
    """The AIGER miter, or why there is none."""

    miter: Miter | None
    aiger: Path
    reason: str = ""
    plan: AigPlan | None = None
    yosys_s: float = 0.0


def miter_constants(design: Design) -> tuple[tuple[str, int, int, int, int], ...]:
    """The values the target compares input slices against, as :class:`MiterSpec` holds
    them (pairing registers by simulation puts them on its patterns)."""
    from rtlopt.frontend import compare_constants

    return tuple((c.port, c.lsb, c.width, c.value, c.care) for c in compare_constants(design))


def prepare_miter(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    workdir: Path,
    *,
    timeout: float,
    strict_x: bool = False,
    memory_mb: int | None = None,
    candidate_texts: Sequence[str] = (),
    free_init: bool = False,
    x_first: bool = False,
    global_clock: bool = False,
    outputs: tuple[str, ...] = (),
    reuse_from: Sequence[Path] = (),
    structure: tuple[str, Path] | None = None,
    stated_init: bool = False,
    edge_model: bool = False,
) -> Prepared:
    """Write ``workdir/miter.aig`` for the reference against the candidate.

    Args:
        free_init: Registers start from free defined values, paired ones shared (designs
            without reset; see :mod:`rtlopt.formal.miter`).
        x_first: With ``free_init``, compare the power-up step's outputs from x registers.
        global_clock: Allow the ``clk2fflogic`` model (latches, both clock edges); otherwise
            such designs are not modelled.
        outputs: Compare only these output ports (empty: all).
        reuse_from: Folders of earlier miters of this check: a netlist written there by the
            same script is copied instead of running Yosys again.
        structure: ``(secret, folder)``: the netlist's Yosys run also writes the clock/reset
            structure netlist and the drivers check (:func:`netlist_script`), moved into
            ``folder`` once the run has ended well (one Yosys run where there were two).
        stated_init: Registers start from the stated power-up values, the others from x,
            no reset forced (:mod:`rtlopt.formal.engines.stated`); not with ``clk2fflogic``.
        edge_model: The proof's plan is in the ``clk2fflogic`` model
            (:mod:`rtlopt.formal.clock_model`): the miter is built in it too.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    aiger = workdir / "miter.aig"
    texts = list(candidate_texts) or [f.read_text(errors="replace") for f in candidate_files]
    plan, off = _miter_plan(design, texts, edge_model, global_clock, stated_init)
    if off:
        return Prepared(None, aiger, off, plan)
    start = time.monotonic()
    constants = miter_constants(design) if free_init else ()
    for attempt in range(2):
        inc = [design.target.file.parent]
        key = netlist_script(
            design, reference_file, candidate_files, plan, inc, keep_init=stated_init
        )
        secret = structure[0] if structure is not None else ""
        text = (
            key
            if not secret
            else netlist_script(
                design,
                reference_file,
                candidate_files,
                plan,
                inc,
                structure_secret=secret,
                keep_init=stated_init,
            )
        )
        why = _netlist(workdir, text, Limits(timeout, memory_mb), reuse_from, key)
        if why:
            return Prepared(None, aiger, f"yosys: {why}", plan, time.monotonic() - start)
        if structure is not None:
            _move_structure(workdir, *structure)
            structure = None  # written once: a second attempt builds the netlist alone
        spec = dataclasses.replace(
            plan.miter_spec(design.target.name),
            strict_x=strict_x,
            free_init=free_init,
            x_first=x_first,
            # pairing by simulation is a heuristic: at most half of the limit
            pair_deadline=start + timeout / 2 if free_init else 0.0,
            constants=constants,
            outputs=outputs,
            stated_init=stated_init,
        )
        if stated_init:  # from the power-up state: the resets are inputs like any other
            spec = dataclasses.replace(spec, resets={})
        try:
            miter = build_aiger(workdir / NETLIST_JSON, spec, aiger)
        except NotModelled as exc:
            if (
                isinstance(exc, NeedsGlobalClock)
                and attempt == 0
                and not plan.global_clock
                and global_clock
                and not stated_init
            ):
                plan = aig_plan(design, texts, latches=True)
                continue
            return Prepared(None, aiger, str(exc), plan, time.monotonic() - start)
        return Prepared(miter, aiger, "", plan, time.monotonic() - start)
    return Prepared(None, aiger, "latches", plan, time.monotonic() - start)


def _miter_plan(
    design: Design, texts: list[str], edge_model: bool, global_clock: bool, stated_init: bool
) -> tuple[AigPlan, str]:
    """The miter's plan (in the ``clk2fflogic`` model where ``edge_model`` says so) and why
    it cannot be built ("" when it can): see :func:`prepare_miter`."""
    plan = aig_plan(design, texts)
    if edge_model and plan.sequential and not plan.global_clock:
        plan = dataclasses.replace(plan, global_clock=True)
    if plan.global_clock and not global_clock:
        return plan, "the clk2fflogic model is off"
    if plan.global_clock and stated_init:
        return (
            plan,
            "stated power-up values are not modelled with clk2fflogic (several clock edges)",
        )
    return plan, ""


def _move_structure(workdir: Path, secret: str, folder: Path) -> None:
    """Move the structure netlist and the drivers check's result files of ``secret`` from
    ``workdir`` (the netlist's run) into ``folder``, where the structure check reads them."""
    for name in (STRUCTURE_JSON, *(result_name(secret, n) for n in DRIVERS.values())):
        try:
            (workdir / name).replace(folder / name)
        except OSError:
            continue  # not written: the structure check reads a missing result as not run


def _netlist(workdir: Path, text: str, limits: Limits, reuse_from: Sequence[Path], key: str) -> str:
    """Write the gate netlist of the miter (script ``text``) into ``workdir``, or copy the one
    an earlier miter of the same check wrote with the same netlist script (``key``: ``text``
    without the structure check's lines, which write files but change no netlist); "" or why
    it failed."""
    script = workdir / "netlist.ys"
    script.write_text(text)
    (workdir / "netlist.key").write_text(key)
    out = workdir / NETLIST_JSON
    out.unlink(missing_ok=True)
    if text == key:  # nothing else to write: a netlist of the same script will do
        for folder in reuse_from:
            try:
                if (folder / "netlist.key").read_text() == key:
                    shutil.copyfile(folder / NETLIST_JSON, out)
                    return ""
            except OSError:
                continue
    argv = require_tool("yosys").argv("-q", "-l", "netlist.log", "-s", script.name)
    run = run_tool(
        argv, cwd=workdir, log_path=workdir / "netlist.out", limits=limits, raise_on_timeout=False
    )
    raise_if_crashed(run, "the netlist of the AIGER miter")
    if not out.is_file():
        err = re.search(r"ERROR: (.*)", run.output())
        return "timed out" if run.timed_out else (err.group(1) if err else "no netlist")
    return ""
