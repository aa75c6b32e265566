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
import json
import logging
import re
import secrets
import shlex
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rtlopt.frontend.model import Module, Port
from rtlopt.harness import Testbench, ref_name
from rtlopt.harness._stimulus import Field
from rtlopt.results import EvalResult, Mismatch, Verdict

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

TOP = "rtlopt_replay"
JSON_SAMPLES = 64  # samples kept in trace.json (the terminal table shows at most 16)
_DATA = Path(__file__).resolve().parent.parent / "data"
STEP_NS = 10
_VEC = re.compile(r"vector (\d+)")
_STEP_KEY = re.compile(r"^(?P<name>.+)@(?P<step>\d+)$")
_KV = re.compile(r"(\S+?)=(\S*)")


@dataclass(frozen=True)
class Trace:
    """Input values per step of one refutation.

    Attributes:
        kind: ``simulation``, ``formal`` or ``netlist`` (the netlist check's mismatch).
        sequential: Clocks are driven (else every step is independent).
        steps: Per step, input name -> binary digits (MSB first; ``x``/``z`` allowed).
        claimed_step: The step the engine names as the first failing one.
        claimed_output: The output it names (empty when several).
        clock_data: The clocks are ordinary inputs in ``steps`` (Yosys's ``clk2fflogic``
            model), not toggled once per step.
        first_index: The first step's number in the engine's message (Yosys's SAT counts
            from 1); step ``i`` here is step ``first_index + i`` there.
    """

    kind: str
    sequential: bool
    steps: tuple[Mapping[str, str], ...]
    claimed_step: int
    claimed_output: str = ""
    clock_data: bool = False
    first_index: int = 0


@dataclass(frozen=True)
class Sample:
    """One sampled point of the replay."""

    step: int
    phase: int
    inputs: Mapping[str, str]
    reference: Mapping[str, str]
    candidate: Mapping[str, str]
    bad: tuple[str, ...]  # outputs that differ under the X policy


@dataclass(frozen=True)
class Replay:
    """The replayed counterexample.

    Attributes:
        kind: ``simulation``, ``formal`` or ``netlist`` (the netlist check's mismatch).
        reproduced: The replay shows a mismatch.
        first: Index into ``samples`` of the first mismatching sample (-1: none).
        claimed_step: The step the engine named (in the engine's own numbering).
        note: Why it does not reproduce, or where it differs from the claim.
        samples: Every sampled point, in time order.
        inputs, outputs: Port names and widths (non-clock inputs; outputs).
        clocks: Clock names.
        vcd, testbench, script: Paths of the waveform, the replay testbench and a shell
            script holding the reproducing command.
        command: The command line (compile and run).
    """

    kind: str
    reproduced: bool
    first: int
    claimed_step: int
    note: str
    samples: tuple[Sample, ...]
    inputs: Mapping[str, int]
    outputs: Mapping[str, int]
    clocks: tuple[str, ...]
    sequential: bool
    vcd: str = ""
    testbench: str = ""
    script: str = ""
    command: str = ""
    first_index: int = 0
    omitted: int = 0
    extra: Mapping[str, str] = field(default_factory=dict)

    def window(self, n: int) -> Replay:
        """The last ``n`` samples up to the first mismatch (the end when none); ``omitted``
        counts the samples left out before them."""
        end = self.first + 1 if self.first >= 0 else len(self.samples)
        lo = max(0, end - n)
        first = self.first - lo if self.first >= 0 else -1
        kept = self.samples[lo:end]
        return dataclasses.replace(self, samples=kept, first=first, omitted=self.omitted + lo)

    def to_json(self) -> dict[str, object]:
        return asdict(self)


# ---------------------------------------------------------------- traces from engines


def _decode(word: int, fields: Sequence[Field]) -> dict[str, str]:
    return {f.name: format((word >> f.offset) & f.mask, f"0{f.width}b") for f in fields}


def trace_from_mismatch(
    m: Mismatch, vectors_hex: str, fields: Sequence[Field], sequential: bool
) -> Trace | None:
    """The simulation testbench's first mismatch as a trace.

    Sequential: every cycle up to and including the failing one; combinational: the failing
    vector alone (earlier vectors cannot matter). None when the vector index is unknown.
    """
    found = _VEC.search(m.time)
    if found is None:
        return None
    idx = int(found.group(1))
    words = [int(w, 16) for w in vectors_hex.split() if w.strip()]
    if idx >= len(words):
        return None
    chosen = words[: idx + 1] if sequential else [words[idx]]
    steps = tuple(_decode(w, fields) for w in chosen)
    claimed = idx if sequential else 0
    return Trace("simulation", sequential, steps, claimed, m.output)


def trace_from_formal(cex: Mapping[str, str], target: Module) -> Trace | None:
    """A formal counterexample (:func:`rtlopt.formal.logparse.parse_counterexample`,
    :func:`rtlopt.formal.abc.explain`) as a trace; None when it names no input."""
    names = {p.name for p in target.inputs}
    outs = {k.partition(" ")[2] for k in cex if k.startswith("expected ")}
    claimed_output = next(iter(outs)) if len(outs) == 1 else ""
    per: dict[int, dict[str, str]] = {}
    for k, v in cex.items():
        mt = _STEP_KEY.match(k)
        if mt and mt.group("name") in names:
            per.setdefault(int(mt.group("step")), {})[mt.group("name")] = v
    if per:
        lo = min(per)
        steps = tuple(per.get(s, {}) for s in range(lo, max(per) + 1))
        clock_data = any(c in s for s in steps for c in target.clocks)
        cycle = int(cex.get("cycle", str(max(per))))
        return Trace("formal", True, steps, cycle - lo, claimed_output, clock_data, lo)
    flat = {k: v for k, v in cex.items() if k in names}
    if not flat:
        return None
    seq = bool(target.clocks)
    return Trace("formal", seq, (flat,), 0, claimed_output)


# ---------------------------------------------------------------- the replay testbench


def _lit(width: int, digits: str) -> str:
    d = digits.strip().lower() or "x"
    d = d[-width:].rjust(width, "0" if d[0] in "01" else d[0])
    return f"{width}'b{d}"


def _decl(width: int) -> str:
    return f"[{width - 1}:0] " if width > 1 else ""


def _sample_task(
    driven: Sequence[Port], outputs: Sequence[Port], tag: str, strict_x: bool
) -> list[str]:
    """The ``rtlopt_sample`` task: compares under the X policy and prints every value."""
    L = ["  integer rtlopt_k;", "  reg rtlopt_bad;"]
    L.append("  task rtlopt_sample(input integer rtlopt_step, input integer rtlopt_ph);")
    L.append("    begin")
    for p in outputs:
        n = p.name
        L.append("      rtlopt_bad = 0;")
        if strict_x:
            L.append(f"      if (ref_{n} !== cand_{n}) rtlopt_bad = 1;")
        else:
            L.append(f"      for (rtlopt_k = 0; rtlopt_k < {p.width}; rtlopt_k = rtlopt_k + 1)")
            r, c = f"ref_{n}[rtlopt_k]", f"cand_{n}[rtlopt_k]"
            L.append(f"        if ({r} !== 1'bx && {r} !== {c})")
            L.append("          rtlopt_bad = 1;")
        fmt = f"bad:{n}=%b ref:{n}=%b cand:{n}=%b"
        args = f"rtlopt_step, rtlopt_ph, rtlopt_bad, ref_{n}, cand_{n}"
        L.append(f'      $display("{tag} P %0d %0d {fmt}", {args});')
    if driven:
        fmt = " ".join(f"in:{p.name}=%b" for p in driven)
        args = ", ".join(f"in_{p.name}" for p in driven)
        L.append(f'      $display("{tag} I %0d %0d {fmt}", rtlopt_step, rtlopt_ph, {args});')
    return [*L, "    end", "  endtask"]


def testbench_text(
    trace: Trace, target: Module, tag: str, *, strict_x: bool, force_resets: bool
) -> str:
    """Verilog of the replay testbench (see the module docstring for its timing)."""
    clocks = [p for p in target.inputs if p.name in target.clocks]
    others = [p for p in target.inputs if p.name not in target.clocks]
    driven = [*others, *clocks] if trace.clock_data else others
    L = ["`timescale 1ns/1ps", "// Generated by rtlopt: counterexample replay.", f"module {TOP};"]
    for p in driven:
        L.append(f"  reg {_decl(p.width)}in_{p.name};  // x until the first step: an event for @*")
    if not trace.clock_data:
        L += [f"  reg in_{c.name} = 1'b0;" for c in clocks]
    for p in target.outputs:
        L += [f"  wire [{p.width - 1}:0] ref_{p.name};", f"  wire [{p.width - 1}:0] cand_{p.name};"]

    def conns(prefix: str) -> str:
        return ", ".join(
            f".{p.name}({'in' if p.direction == 'input' else prefix}_{p.name})"
            for p in target.ports
        )

    L.append(f"  {ref_name(target.name)} rtlopt_u_ref ({conns('ref')});")
    L.append(f"  {target.name} rtlopt_u_cand ({conns('cand')});")
    L += _sample_task(driven, target.outputs, tag, strict_x)
    L.append("  initial begin")
    resets = {r: (0 if target.reset_active_low.get(r, False) else 1) for r in target.resets}
    n_forced = (2 if trace.clock_data else 1) if force_resets else 0
    for k, step in enumerate(trace.steps):
        L.append(f"    // step {k + trace.first_index}")
        vals = {p.name: step.get(p.name, "0") for p in driven}
        if k < n_forced:
            vals.update({r: str(lvl) for r, lvl in resets.items() if r in vals})
        if trace.clock_data:
            # the clock edge first (registers take the previous step's inputs), then the data
            for c in clocks:
                L.append(f"    in_{c.name} = {_lit(c.width, vals[c.name])};")
            L.append("    #1;")
        for p in others:
            L.append(f"    in_{p.name} = {_lit(p.width, vals[p.name])};")
        if not trace.sequential or trace.clock_data or not clocks:
            L.append(f"    #4; rtlopt_sample({k}, 0); #5;")
        else:
            L.append(f"    #4; rtlopt_sample({k}, 0); #1;")
            L += [f"    in_{c.name} = 1'b1;" for c in clocks]
            L.append(f"    #4; rtlopt_sample({k}, 1); #1;")
            L += [f"    in_{c.name} = 1'b0;" for c in clocks]
    L += ["    $finish;", "  end", "endmodule", ""]
    return "\n".join(L)


def parse_samples(text: str, tag: str, target: Module) -> list[Sample]:
    """The replay's sampled values, in order."""
    rows: dict[tuple[int, int], dict[str, dict[str, str]]] = {}
    for line in text.splitlines():
        if not line.startswith(tag + " "):
            continue
        parts = line.split()
        if len(parts) < 4:
            continue
        key = (int(parts[2]), int(parts[3]))
        row = rows.setdefault(key, {"in": {}, "ref": {}, "cand": {}, "bad": {}})
        for k, v in _KV.findall(" ".join(parts[4:])):
            kind, _, name = k.partition(":")
            if kind in row:
                row[kind][name] = v
    out: list[Sample] = []
    for (step, ph), row in sorted(rows.items()):
        bad = tuple(p.name for p in target.outputs if row["bad"].get(p.name) == "1")
        out.append(Sample(step, ph, row["in"], row["ref"], row["cand"], bad))
    return out


# ---------------------------------------------------------------- the waveform


def write_vcd(path: Path, rep: Replay) -> None:
    """The replay's samples as a VCD (``pyvcd``)."""
    from vcd import VCDWriter

    with path.open("w") as fh, VCDWriter(fh, timescale="1 ns", date="rtlopt") as w:
        v_in = {
            n: w.register_var("rtlopt.inputs", n, "wire", size=s) for n, s in rep.inputs.items()
        }
        v_clk = {c: w.register_var("rtlopt.inputs", c, "wire", size=1) for c in rep.clocks}
        v_ref = {
            n: w.register_var("rtlopt.reference", n, "wire", size=s) for n, s in rep.outputs.items()
        }
        v_cand = {
            n: w.register_var("rtlopt.candidate", n, "wire", size=s) for n, s in rep.outputs.items()
        }
        v_diff = {
            n: w.register_var("rtlopt.diff", n, "wire", size=s) for n, s in rep.outputs.items()
        }
        v_mark = w.register_var("rtlopt", "mismatch", "wire", size=1)
        v_step = w.register_var("rtlopt", "step", "integer", size=32)
        for i, s in enumerate(rep.samples):
            t = STEP_NS * s.step + (STEP_NS // 2) * s.phase
            w.change(v_step, t, s.step + rep.first_index)
            for n, var in v_in.items():
                if n in s.inputs:
                    w.change(var, t, s.inputs[n])
            if rep.sequential and not any(c in s.inputs for c in rep.clocks):
                for var in v_clk.values():
                    w.change(var, t, s.phase)
            else:
                for c, var in v_clk.items():
                    w.change(var, t, s.inputs.get(c, "x"))
            for n in rep.outputs:
                r, c = s.reference.get(n, "x"), s.candidate.get(n, "x")
                w.change(v_ref[n], t, r)
                w.change(v_cand[n], t, c)
                w.change(v_diff[n], t, _diff(r, c))
            w.change(v_mark, t, 1 if i == rep.first else 0)


def _diff(ref: str, cand: str) -> str:
    """1 where a defined reference bit differs from the candidate's bit."""
    if len(ref) != len(cand):
        return "x" * max(len(ref), 1)
    return "".join("0" if r == "x" or r == c else "1" for r, c in zip(ref, cand, strict=True))


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
) -> Replay:
    """Write and run the replay of ``trace``; return what it showed.

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
        testbench_text(trace, target, tag, strict_x=strict_x, force_resets=trace.kind == "formal")
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
    )
    write_vcd(out_dir / "trace.vcd", rep)
    # the table's window; the VCD holds every sample
    (out_dir / "trace.json").write_text(json.dumps(rep.window(JSON_SAMPLES).to_json()))
    if note:
        log.warning("%s counterexample: %s (%s)", trace.kind, note, out_dir)
    return rep


def load_replay(path: Path) -> Replay:
    """A replay written by :func:`replay` (its ``trace.json``)."""
    d = json.loads(path.read_text())
    d["samples"] = tuple(
        Sample(s["step"], s["phase"], s["inputs"], s["reference"], s["candidate"], tuple(s["bad"]))
        for s in d["samples"]
    )
    d["clocks"] = tuple(d["clocks"])
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
) -> EvalResult:
    """``res`` with its refutation replayed: ``logs`` gains ``trace`` (the replay's JSON),
    ``trace_vcd``, ``trace_testbench`` and ``trace_replay`` (the reproducing script); a
    counterexample that does not reproduce says so in ``reason``. Unchanged when ``res`` holds
    no refutation; a replay that cannot run is logged and leaves the verdict alone."""
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
    try:
        rep = replay(
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


def keep_trace(res: EvalResult, dest: Path | None = None) -> EvalResult:
    """``res`` with its trace folder copied to ``dest`` (default: a fresh folder of the system's
    temp area), for callers whose scratch root is removed at exit; unchanged when it has no
    trace, without the trace entries when the folder is gone."""
    src = res.logs.get("trace")
    if not src:
        return res
    if not Path(src).is_file():  # a cached result whose folder is gone
        logs = {k: v for k, v in res.logs.items() if not k.startswith("trace")}
        return dataclasses.replace(res, logs=logs)
    old = Path(src).parent
    if dest is not None and old.resolve() == dest.resolve():
        return res
    new = dest if dest is not None else Path(tempfile.mkdtemp(prefix="rtlopt-trace-"))
    try:
        shutil.copytree(old, new, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.vvp"))
    except OSError as exc:
        log.debug("could not keep the trace %s: %s", old, exc)
        return res
    data = (new / "trace.json").read_text().replace(json.dumps(str(old))[1:-1], str(new))
    (new / "trace.json").write_text(data)
    logs = {
        k: v.replace(str(old), str(new)) if k.startswith("trace") else v
        for k, v in res.logs.items()
    }
    return dataclasses.replace(res, logs=logs)


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
    ins = ", ".join(f"{k}={_value_text(v)}" for k, v in s.inputs.items()) or "(none)"
    out = [f"failing input{' at ' + when if when else ''}: {ins}"]
    for n in s.bad:
        ref, cand = s.reference.get(n, "?"), s.candidate.get(n, "?")
        out.append(f"output {n}: expected {_value_text(ref)}, got {_value_text(cand)}")
    out.append(f"waveform: {rep.vcd}")
    return out
