"""ABC engines (``yosys-abc``) on the AIGER miter of :mod:`rtlopt.formal.miter`.

One Yosys run prepares both designs as for the SAT miter and writes the gate-level netlist as
JSON (:func:`netlist_script`); :func:`build_aiger` turns it into the miter AIGER file; then
:func:`run_engine` runs one ABC engine on it:

* ``cec`` (combinational): ``&cec -m``, SAT sweeping with internal equivalences (arithmetic
  whose parts match, such as ``a*b`` against ``b*a``);
* ``pdr`` (sequential): property-directed reachability, an unbounded proof from the power-up
  and reset state, or a counterexample;
* ``dprove`` (sequential): ABC's sequential equivalence flow (register correspondence by
  induction, retiming, BMC, interpolation, then PDR), strongest when the two designs' registers
  correspond;
* ``bmc`` (sequential): ``bmc3``, a counterexample search only;
* ``lcorr`` (sequential): ``lcorr`` (latch correspondence by induction) then ``dprove``;
  its counterexamples are replayed on the miter like every other engine's.
* ``scorr`` (sequential): ``&scorr`` (signal correspondence by induction, with SAT sweeping
  in the speculatively reduced frames) alone, then one second of ``dprove`` on what is left: the
  proof when the two designs' registers and logic correspond one to one (products in
  canonical operand order, :func:`rtlopt.formal.scripts.commute_mul_lines`), where
  ``dprove``'s own conflict-limited correspondence step gives up. Its counterexamples are
  not read (the reduced network has other registers): a difference is "undecided".

Verdicts come from the files ABC writes for rtlopt's own commands, under names with a fresh
secret (:mod:`rtlopt.formal.channel`): ``write_status`` (``snl_UNSAT``: proved, ``snl_SAT``: a
counterexample) and ``write_cex``, plus the exit status; ABC's printed text is only shown in the
log. Only "proved" (every reachable state, every input) is a proof; a counterexample is a
refutation only when the miter is exact (:attr:`~rtlopt.formal.miter.Miter.exact`); anything
else is "undecided". A failure whose ``write_cex`` is empty (``&cec`` writes none) gets its
trace from a second engine (:func:`find_trace`: ``dsat`` or ``bmc3``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.formal.channel import new_secret, result_name
from rtlopt.formal.miter import Miter, MiterSpec, NotModelled, build_miter
from rtlopt.tools import Limits, ToolRun, raise_if_crashed, require_tool, run_tool

__all__ = [
    "ENGINES",
    "AbcOutcome",
    "build_aiger",
    "explain",
    "find_trace",
    "read_cex",
    "replays",
    "run_engine",
]

#: ABC command per engine (after reading the miter); the proof/failure markers follow.
ENGINES: dict[str, str] = {
    "cec": "&r {aig}; &cec -m",
    "pdr": "read {aig}; strash; pdr -T {t}",
    "dprove": "read {aig}; strash; dprove -T {t}",
    "bmc": "read {aig}; strash; bmc3 -F {f} -T {t}",
    # dprove only reads the verdict off what &scorr left: its first step proves the output
    # constant with the remaining registers as free inputs (a stronger claim), or gives up
    "scorr": "&r {aig}; &scorr; &put; dprove -T 1",
    # latch correspondence by induction from the initial state first (equal registers merged,
    # whatever their names): on a renamed, reordered core the miter halves and dprove proves
    # it at once, where dprove alone spends a minute on its own correspondence step
    "lcorr": "read {aig}; strash; lcorr; dprove -T {t}",
}
#: Engines that search a counterexample trace when a failure came without one.
TRACE_ENGINES: dict[str, str] = {
    "comb": "read {aig}; strash; dsat",
    "seq": "read {aig}; strash; bmc3 -F {f} -T {t}",
}


@dataclass(frozen=True)
class AbcOutcome:
    """What one ABC engine said.

    Attributes:
        status: ``proved``, ``failed`` (a counterexample), ``undecided`` or ``timeout``.
        engine: The engine's name (a key of :data:`ENGINES`).
        seconds: Wall-clock time of the ABC run.
        frame: The counterexample's last step (sequential), or -1.
        counterexample: Input values of the counterexample, ``port@step`` -> binary string.
        detail: ABC's last line, for the log.
        trace: The counterexample's input values per step (AIG input order), [] if none.
    """

    status: str
    engine: str
    seconds: float
    frame: int = -1
    counterexample: dict[str, str] = field(default_factory=dict)
    detail: str = ""
    trace: list[list[int]] = field(default_factory=list)


def build_aiger(json_path: Path, spec: MiterSpec, out: Path) -> Miter:
    """Read the JSON netlist, build the miter and write it as binary AIGER to ``out``.

    Raises:
        NotModelled: The netlist has something the miter cannot model soundly.
    """
    try:
        netlist = json.loads(json_path.read_text())
    except (OSError, ValueError) as exc:
        raise NotModelled(f"no readable netlist: {exc}") from exc
    miter = build_miter(netlist, spec)
    data, stats, _ = miter.aig.to_aiger()
    out.write_bytes(data)
    miter.written_latches = stats.latches
    return miter


def run_engine(
    engine: str,
    aig: Path,
    miter: Miter,
    *,
    timeout: float,
    cwd: Path,
    memory_mb: int | None = None,
    frames: int = 0,
) -> AbcOutcome:
    """Run one ABC engine on the AIGER miter ``aig`` (a file in ``cwd``); ``frames`` bounds
    the steps of ``bmc`` (0: until the time limit). The status is read from ABC's
    ``write_status`` file and the exit status only."""
    start = time.monotonic()
    status, trace, run = _abc(ENGINES[engine], engine, aig, miter, timeout, cwd, memory_mb, frames)
    text = run.output()
    last = next((ln.strip() for ln in reversed(text.splitlines()) if ln.strip()), "")
    clean = run.returncode == 0 and not run.timed_out
    if status == "snl_UNSAT" and clean:
        return AbcOutcome("proved", engine, time.monotonic() - start, detail=last)
    if engine == "scorr" or status != "snl_SAT":
        # scorr's reduced network has other registers: its counterexamples are not read
        why = "timeout" if run.timed_out else "undecided"
        return AbcOutcome(why, engine, time.monotonic() - start, detail=last)
    if not replays(miter, trace):
        left = timeout - (time.monotonic() - start)
        trace = find_trace(aig, miter, timeout=left, cwd=cwd, memory_mb=memory_mb, frames=frames)
    frame = len(trace) - 1 if trace else 0
    values = explain(miter, trace)
    return AbcOutcome("failed", engine, time.monotonic() - start, frame, values, last, trace=trace)


def _abc(
    commands: str,
    engine: str,
    aig: Path,
    miter: Miter,
    timeout: float,
    cwd: Path,
    memory_mb: int | None,
    frames: int,
) -> tuple[str, list[list[int]], ToolRun]:
    """Run ``commands`` then rtlopt's ``write_status``/``write_cex`` under secret names:
    ABC's status word (``snl_UNSAT``, ``snl_SAT``, ...) and the counterexample trace."""
    secret = new_secret()
    status, cex = result_name(secret, f"{engine}_status"), result_name(secret, f"{engine}_cex")
    limit = max(1, int(timeout) - 1)  # ABC's own limit; the process limit is the backstop
    cmd = commands.format(aig=aig.name, t=limit, f=max(0, frames))
    cmd += f"; write_status {status}; write_cex -s {cex}"
    run = run_tool(
        abc_argv(cmd),
        cwd=cwd,
        log_path=cwd / f"abc_{engine}.log",
        limits=Limits(max(1.0, timeout) + 1, memory_mb),
        raise_on_timeout=False,
    )
    raise_if_crashed(run, f"ABC {engine}")
    try:
        words = (cwd / status).read_text(errors="replace").split()
    except OSError:
        words = []
    trace = read_cex(cwd / cex, miter)
    for name in (status, cex):
        (cwd / name).unlink(missing_ok=True)
    return (words[0] if words else ""), trace, run


def replays(miter: Miter, trace: Sequence[Sequence[int]]) -> bool:
    """Does simulating the miter on ``trace`` set its output (a real counterexample)?"""
    if not trace:
        return False
    return any(row[0] for row in miter.aig.simulate(trace))


def find_trace(
    aig: Path,
    miter: Miter,
    *,
    timeout: float,
    cwd: Path,
    memory_mb: int | None = None,
    frames: int = 0,
) -> list[list[int]]:
    """A counterexample trace from a second engine (``dsat``, or ``bmc3`` on sequential
    miters) when the first one failed without writing one; [] when none replays."""
    if timeout < 1.0:
        return []
    kind = "seq" if miter.aig.latches else "comb"
    status, trace, _ = _abc(
        TRACE_ENGINES[kind], "trace", aig, miter, timeout, cwd, memory_mb, frames
    )
    return trace if status == "snl_SAT" and replays(miter, trace) else []


def abc_argv(commands: str) -> list[str]:
    """The command line running ABC commands (``yosys-abc -c``)."""
    return require_tool("yosys-abc").argv("-c", commands)


def read_cex(path: Path, miter: Miter) -> list[list[int]]:
    """The counterexample's input values per step (AIG input order).

    ``write_cex -s`` (no names) writes the initial latch values, then the inputs of each
    frame, as 0/1 characters.
    """
    try:
        text = path.read_text()
    except OSError:
        return []
    bits = "".join(
        ch for ln in text.splitlines() if not ln.startswith("#") for ch in ln if ch in "01x"
    )
    n_in = len(miter.aig.inputs)
    if n_in == 0:
        return []
    body = bits[miter.written_latches :]
    return [
        [1 if ch == "1" else 0 for ch in body[f * n_in : (f + 1) * n_in]]
        for f in range(len(body) // n_in)
    ]


def _tern_text(vals: Sequence[tuple[int, int]]) -> str:
    """Ternary bits (p, n) as a binary string, most significant first."""
    return "".join("x" if p and n else ("1" if p else "0") for p, n in reversed(vals))


def explain(miter: Miter, frames: Sequence[Sequence[int]]) -> dict[str, str]:
    """A counterexample as the Yosys SAT check reports one: the inputs (per step when
    sequential), the first step where an output differs, and the expected/got values there."""
    if not frames:
        return {}
    order: list[tuple[str, str, int]] = []  # (copy, port, gold/gate)
    lits: list[int] = []
    for copy, ports in miter.probes.items():
        for port, (gv, tv) in ports.items():
            for side, bits in ((0, gv), (1, tv)):
                order.append((copy, port, side))
                lits += [lit for t in bits for lit in t]
    sim = miter.aig.simulate(frames, lits)
    seq = "first" in miter.probes
    widths: dict[str, int] = {}
    for port, bit in miter.inputs:
        widths[port] = max(widths.get(port, 0), bit + 1)
    out: dict[str, str] = {}
    fail = next((f for f, row in enumerate(sim) if row[0]), len(sim) - 1)
    for f, frame in enumerate(frames[: fail + 1]):
        vals: dict[str, list[str]] = {}
        for (port, bit), v in zip(miter.inputs, frame, strict=True):
            vals.setdefault(port, ["0"] * widths[port])[widths[port] - 1 - bit] = str(v)
        for port, digits in vals.items():
            out[f"{port}@{f}" if seq else port] = "".join(digits)
    if seq:
        out = {"cycle": str(fail), **out}
    row = sim[fail][1:]
    copy = "first" if seq and fail == 0 else "steady"
    pos = 0
    got: dict[tuple[str, int], str] = {}
    for c, port, side in order:
        gv, tv = miter.probes[c][port]
        n = 2 * len(gv if side == 0 else tv)
        chunk = row[pos : pos + n]
        pos += n
        if c == copy:
            got[(port, side)] = _tern_text(list(zip(chunk[0::2], chunk[1::2], strict=True)))
    for port in miter.probes.get(copy, {}):
        exp, cand = got[(port, 0)], got[(port, 1)]
        if exp != cand:
            out[f"expected {port}"] = exp
            out[f"got {port}"] = cand
    return out


def engine_order(sequential: bool, has_registers: Sequence[int] = ()) -> list[str]:
    """Engines to try, cheapest first."""
    del has_registers
    return ["dprove", "pdr"] if sequential else ["cec"]
