"""Counterexamples engineers can open: a VCD and a replay testbench for every refutation.

A refutation (a simulation mismatch, a formal counterexample, a netlist-check mismatch) becomes
a :class:`Trace`: the input values per step, the claimed first failing step and output.
:func:`replay` writes a self-contained replay testbench (the steps as literal assignments, the
renamed reference and the candidate side by side), runs it in iverilog, reads the sampled
values back and writes them as a VCD with ``pyvcd``: the inputs, the reference's and the
candidate's outputs, the differing bits per output and a ``mismatch`` marker that is 1 at the
first failing sample only. The VCD therefore shows what the replay simulated, not what the
engine claimed; a trace that does not reproduce is reported as such
(:attr:`Replay.reproduced`).

Time in the VCD: step ``k`` spans ``[10k, 10k+10)`` ns; in sequential traces the clock rises
at ``10k+5``, the first sample of a step is at ``10k`` (before the edge, the formal engines'
step) and the second at ``10k+5`` (after it, the testbench's second phase).

Runs only after a candidate was refuted, never on a passing one.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import secrets
import shlex
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

from rtlopt.evaluate._replay_files import forced_steps, parse_samples, testbench_text, write_vcd
from rtlopt.evaluate._trace_model import JSON_SAMPLES, TOP, trace_from_formal, trace_from_mismatch
from rtlopt.evaluate._trace_model import STEP_NS as STEP_NS
from rtlopt.evaluate._trace_model import Replay as Replay
from rtlopt.evaluate._trace_model import Sample as Sample
from rtlopt.evaluate._trace_model import Trace as Trace
from rtlopt.frontend.model import Module
from rtlopt.harness import Testbench, ref_name
from rtlopt.results import EvalResult, Verdict
from rtlopt.results import keep_trace as keep_trace

log = logging.getLogger(__name__)

__all__ = [
    "Replay",
    "Sample",
    "Trace",
    "failing_lines",
    "keep_trace",
    "load_replay",
    "record_trace",
    "replay",
    "trace_from_formal",
    "trace_from_mismatch",
]

_DATA = Path(__file__).resolve().parent.parent / "data"


# ---------------------------------------------------------------- running it


def replay(
    trace: Trace,
    target: Module,
    sources: Sequence[Path],
    reference: Path,
    out_dir: Path,
    *,
    scratch: Path,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    strict_x: bool = False,
    timeout: float = 60.0,
    memory_mb: int | None = None,
    zero: Sequence[str] = (),
) -> Replay:
    """Write and run the replay of ``trace``; return what it showed (``zero``: registers
    the testbench sets to 0 at time 0, :func:`~rtlopt.evaluate._replay_files.testbench_text`).

    Sources inside ``scratch`` (the candidate, the renamed reference, generated context) are
    copied into ``out_dir`` so that the replay outlives the scratch folder; the others (the
    user's repository) are named by path.

    Raises:
        InfrastructureError: iverilog could not compile or run the replay.
    """
    from rtlopt.eda.iverilog import (
        VvpGuard,
        compile_argv,
        compile_sources,
        foreign_system_calls,
        run_vvp,
    )
    from rtlopt.errors import ToolFailed
    from rtlopt.tools import Limits, require_tool

    out_dir.mkdir(parents=True, exist_ok=True)
    files = [_keep(f, out_dir, scratch) for f in [*sources, reference]]
    tag = f"RTLOPT_REPLAY_{secrets.token_hex(4)}"
    tb = out_dir / "replay_tb.v"
    tb.write_text(
        testbench_text(
            trace, target, tag, strict_x=strict_x, force_resets=trace.kind == "formal", zero=zero
        )
    )
    comp = compile_sources(
        [*files, tb],
        out_dir,
        top=TOP,
        include_dirs=include_dirs,
        defines=defines,
        out=out_dir / "replay.vvp",
        timeout=timeout,
        memory_mb=memory_mb,
    )
    if not comp.ok:
        raise ToolFailed(
            "iverilog could not compile the counterexample replay",
            command=["iverilog"],
            returncode=1,
            stderr_tail=comp.output[-400:],
            log_path=comp.log_path,
        )
    # the replay explains a verdict made elsewhere, never makes one; still, a candidate that
    # prints its own samples could misreport it: no system task in its scopes (the same
    # structural check as the simulation's), and no /proc to reach its output through
    found = foreign_system_calls(
        (out_dir / "replay.vvp").read_text(errors="replace"),
        VvpGuard(TOP, ref_name(target.name), target.name),
    )
    if found:
        log.warning("counterexample not replayed: %s in the candidate", "; ".join(found[:3]))
        output = ""
    else:
        output = run_vvp(
            out_dir / "replay.vvp",
            out_dir,
            limits=Limits(timeout, memory_mb),
            log_name="replay.log",
            proc=False,
        ).output()
    rel = [Path(f.name) if f.parent == out_dir else f for f in [*files, tb]]
    argv = compile_argv(
        require_tool("iverilog"),
        rel,
        Path("replay.vvp"),
        top=TOP,
        include_dirs=include_dirs,
        defines=defines,
    )
    command = shlex.join(argv) + " && " + shlex.join(["vvp", "-n", "replay.vvp"])
    script = out_dir / "replay.sh"
    script.write_text(f'#!/bin/sh\n# replays the counterexample\ncd "$(dirname "$0")"\n{command}\n')
    samples = parse_samples(output, tag, target)
    return _finish(trace, target, samples, out_dir, tb, script, command)


def _keep(f: Path, out_dir: Path, scratch: Path) -> Path:
    """``f`` copied into ``out_dir`` when it is generated (below ``scratch`` or rtlopt's own
    data), else ``f`` (a file of the user's repository)."""
    here = f.resolve()
    if not any(here.is_relative_to(d.resolve()) for d in (scratch, _DATA)):
        return f
    dest = out_dir / f.name
    n = 1
    while dest.exists():
        dest = out_dir / f"{f.stem}_{n}{f.suffix}"
        n += 1
    shutil.copyfile(f, dest)
    return dest


def _finish(
    trace: Trace,
    target: Module,
    samples: list[Sample],
    out_dir: Path,
    tb: Path,
    script: Path,
    command: str,
) -> Replay:
    first = next((i for i, s in enumerate(samples) if s.bad), -1)
    expected = len(trace.steps) * (
        2 if trace.sequential and not trace.clock_data and target.clocks else 1
    )
    note = ""
    if len(samples) != expected:
        note = f"the replay printed {len(samples)} of {expected} samples"
    elif first < 0 and trace.claimed_output not in {"", *(p.name for p in target.ports)}:
        note = (
            f"the difference is in {trace.claimed_output}, a signal a check of the reference "
            "reads: the proofs compare it, the replay compares the ports only"
        )
    elif first < 0:
        note = "the counterexample does not reproduce in simulation"
    elif (samples[first].step, samples[first].phase) not in (
        (trace.claimed_step, 0),
        (trace.claimed_step, 1),
        (trace.claimed_step - 1, 1),  # after the edge into the claimed step
    ):
        note = (
            f"the replay differs first at step {samples[first].step + trace.first_index}, "
            f"the engine named step {trace.claimed_step + trace.first_index}"
        )
    clocks = tuple(target.clocks)
    inputs = {p.name: p.width for p in target.inputs if p.name not in clocks or trace.clock_data}
    rep = Replay(
        kind=trace.kind,
        reproduced=first >= 0 and len(samples) == expected,
        first=first,
        claimed_step=trace.claimed_step + trace.first_index,
        note=note,
        samples=tuple(samples),
        inputs=inputs,
        outputs={p.name: p.width for p in target.outputs},
        clocks=clocks if not trace.clock_data else (),
        sequential=trace.sequential,
        vcd=str(out_dir / "trace.vcd"),
        testbench=str(tb),
        script=str(script),
        command=command,
        first_index=trace.first_index,
        forced=tuple(target.resets) if trace.kind == "formal" else (),
        forced_steps=forced_steps(trace) if trace.kind == "formal" else 0,
    )
    write_vcd(out_dir / "trace.vcd", rep)
    # the table's window; the VCD holds every sample
    (out_dir / "trace.json").write_text(json.dumps(rep.window(JSON_SAMPLES).to_json()))
    if note:  # the result carries the note to whoever shows the counterexample
        log.info("%s counterexample: %s (%s)", trace.kind, note, out_dir)
    return rep


def load_replay(path: Path) -> Replay:
    """A replay written by :func:`replay` (its ``trace.json``)."""
    d = json.loads(path.read_text())
    d["samples"] = tuple(
        Sample(s["step"], s["phase"], s["inputs"], s["reference"], s["candidate"], tuple(s["bad"]))
        for s in d["samples"]
    )
    d["clocks"] = tuple(d["clocks"])
    d["forced"] = tuple(d.get("forced", ()))
    return Replay(**d)


def record_trace(
    res: EvalResult,
    *,
    target: Module,
    tb: Testbench,
    sources: Sequence[Path],
    reference: Path,
    out_dir: Path,
    root: Path,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    strict_x: bool = False,
    timeout: float = 60.0,
    memory_mb: int | None = None,
    zero: Sequence[str] = (),
) -> EvalResult:
    """``res`` with its refutation replayed: ``logs`` gains ``trace`` (the replay's JSON),
    ``trace_vcd``, ``trace_testbench`` and ``trace_replay`` (the reproducing script); a
    counterexample that does not reproduce says so in ``reason``. Unchanged when ``res`` holds
    no refutation; a replay that cannot run is logged and leaves the verdict alone.
    ``zero``: as :func:`replay` (a replay that does not compile with it runs without)."""
    from rtlopt.errors import EvaluationTimeout, InfrastructureError
    from rtlopt.harness import VECTOR_FILE

    trace: Trace | None = None
    f = res.formal
    if f is not None and f.verdict is Verdict.REFUTED and f.counterexample:
        trace = trace_from_formal(f.counterexample, target)
    elif res.sim is not None and res.sim.first_mismatch is not None:
        vectors = tb.extra_files.get(VECTOR_FILE, "")
        trace = trace_from_mismatch(res.sim.first_mismatch, vectors, tb.fields, tb.sequential)
    elif res.netlist is not None and res.netlist.first_mismatch is not None:
        # the netlist check's mismatch: the same testbench, the synthesized netlist as the
        # candidate (``sources``) against its gold (``reference``)
        vectors = tb.extra_files.get(VECTOR_FILE, "")
        found = trace_from_mismatch(res.netlist.first_mismatch, vectors, tb.fields, tb.sequential)
        trace = None if found is None else dataclasses.replace(found, kind="netlist")
    if trace is None:
        return res
    run = functools.partial(
        replay,
        trace,
        target,
        sources,
        reference,
        out_dir,
        scratch=root,
        include_dirs=include_dirs,
        defines=defines,
        strict_x=strict_x,
        timeout=timeout,
        memory_mb=memory_mb,
    )
    try:
        try:
            rep = run(zero=zero)
        except InfrastructureError:
            if not zero:
                raise
            rep = run()  # a name the testbench cannot assign: the initial values alone
    except (InfrastructureError, EvaluationTimeout, OSError) as exc:
        log.warning("could not replay the %s counterexample: %s", trace.kind, exc)
        return res
    logs = {
        **res.logs,
        "trace": str(out_dir / "trace.json"),
        "trace_vcd": rep.vcd,
        "trace_testbench": rep.testbench,
        "trace_replay": rep.script,
    }
    reason = res.reason
    if not rep.reproduced:
        reason += f" [counterexample replay: {rep.note}]"
    return dataclasses.replace(res, logs=logs, reason=reason)


def _value_text(digits: str) -> str:
    return digits if len(digits) <= 16 or any(c not in "01" for c in digits) else _hex(digits)


def _hex(digits: str) -> str:
    return "0x" + format(int(digits, 2), f"0{(len(digits) + 3) // 4}x")


def failing_lines(rep: Replay) -> list[str]:
    """The first failing sample in words: the step, every input there, each differing output
    (expected / got), and the waveform's path."""
    if rep.first < 0:
        return [f"counterexample replay: {rep.note or 'no mismatch'} ({rep.vcd})"]
    s = rep.samples[rep.first]
    step = s.step + rep.first_index
    when = f"cycle {step}" + (", after the clock edge" if s.phase else "") if rep.sequential else ""
    reset = set(rep.forced) if s.step < rep.forced_steps else set()
    ins = ", ".join(
        f"{k}={_value_text(v)}" + (" (the reset the proof starts from)" if k in reset else "")
        for k, v in s.inputs.items()
    )
    ins = ins or "(none)"
    out = [f"failing input{' at ' + when if when else ''}: {ins}", *_earlier(rep, step)]
    for n in s.bad:
        ref, cand = s.reference.get(n, "?"), s.candidate.get(n, "?")
        out.append(f"output {n}: expected {_value_text(ref)}, got {_value_text(cand)}")
    out.append(f"waveform: {rep.vcd}")
    return out


#: Runs of earlier cycles a failing input shows at most (the rest is in the waveform).
EARLIER_CYCLES = 16


def _earlier(rep: Replay, step: int) -> list[str]:
    """The inputs of the cycles before the failing one of a sequential replay, cycles in a
    row with the same inputs on one line (the last :data:`EARLIER_CYCLES` such lines; a line
    saying which earlier ones only the waveform shows): the failing cycle's inputs alone do
    not show what led there."""
    if not rep.sequential:
        return []
    cycles: dict[int, Mapping[str, str]] = {}
    for s in rep.samples[: rep.first]:
        cycles.setdefault(s.step + rep.first_index, s.inputs)
    cycles.pop(step, None)
    runs: list[list[int]] = []  # [first, last] cycle of each run of equal inputs
    for k in sorted(cycles):
        if runs and runs[-1][1] == k - 1 and cycles[runs[-1][0]] == cycles[k]:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    shown = runs[-EARLIER_CYCLES:]
    if not shown:
        return []
    hidden = f" (cycles 0-{shown[0][0] - 1}: in the waveform)" if shown[0][0] > 0 else ""
    out = [f"the inputs of the cycles before it{hidden}:"]
    for first, last in shown:
        ins = ", ".join(f"{n}={_value_text(v)}" for n, v in cycles[first].items()) or "(none)"
        when = f"cycle {first}" if first == last else f"cycles {first}-{last}"
        out.append(f"  {when}: {ins}")
    return out
