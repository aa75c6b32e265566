#!/usr/bin/env python3
"""Mutation analysis of the product's equivalence gate against an independent ground truth.

Mutants of benchmark references (operator swaps, off-by-one constants, flipped case items,
dropped terms) that compile are judged twice, by two parties that share no equivalence code:

* Ground truth (this script, not rtlopt's harness or formal check):
  - combinational designs with at most ``--exhaustive-bits`` input bits: exhaustive simulation
    of reference against mutant (Icarus Verilog, our own testbench, 4-state ``!==``);
  - every other design: deep simulation (``--cycles`` cycles of biased random stimulus with
    reset pulses, outputs compared before and after every clock edge), then a different
    engine on a miter of the two: ABC ``iprove`` (combinational) or ABC ``pdr`` (sequential,
    from a forced reset, uninitialised registers free) through ``yosys-abc``. An ABC
    counterexample counts only when replayed in simulation.
  The verdict is *equivalent* (exhaustive simulation or an ABC proof), *non-equivalent* (a
  simulation witness) or *unknown* (neither): unknown mutants are kept apart, never counted
  as either.
* The product: every mutant goes through ``rtlopt.evaluate.Evaluator`` with the default
  configuration (``formal.require_proof = true``, no result cache), PPA on ``--pdk``. A
  mutant rejected at the formal stage with an "unknown" verdict is evaluated again with
  ``formal.require_proof = false`` (what ``--accept-unknown`` would do).
* With ``--netlist``, every mutant is also evaluated with ``eval.netlist_check = always`` (the
  synthesized netlist simulated against the reference on every candidate, not only on those
  the formal check did not prove), with the default rule and, for formal unknowns, with
  ``--accept-unknown``: the table's "netlist=always" columns show what the netlist stage adds
  beyond simulation and formal (its "caught at netlist" are mutants the default pipeline
  accepted or left to the proof rule).

Per design the table counts, for the non-equivalent mutants, the stage that rejected each
(columns follow rtlopt's ``Stage`` enum, so stages added later appear on their own), the
infrastructure errors, and *missed* = non-equivalent mutants the product accepted, with the
default rule and with ``--accept-unknown``; for equivalent mutants, how many were accepted and
rejected (false rejections), and how many ground-truth-unknown mutants were accepted.

    python bench/mutation_analysis.py [--designs a,b] [--per-design 6] [--seed 1] [--workers 2]
                                      [--netlist]

Needs iverilog, vvp, yosys, yosys-abc and (for PPA) sta; finds the benchmarks through
RTLOPT_BENCH_PATH and the liberty files through RTLOPT_PDK_PATH (defaults: ../shared beside
the checkout). A missing tool or benchmark stops the script with an error.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import enum
import itertools
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("RTLOPT_BENCH_PATH", str(REPO.parent / "shared" / "bench"))
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))

from rtlopt.benchmark.mutants import Mutant, generate_mutants  # noqa: E402
from rtlopt.benchmark.suite import load_suite, module_names  # noqa: E402
from rtlopt.config import Config, EvalConfig, FormalConfig, SandboxConfig  # noqa: E402
from rtlopt.errors import ToolNotFound  # noqa: E402
from rtlopt.evaluate import Evaluator  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.frontend.model import Design  # noqa: E402
from rtlopt.results import EvalResult, Stage, Status, Verdict  # noqa: E402
from rtlopt.tools import Limits, require_tool, require_tools, run_tool  # noqa: E402

DEFAULT_DESIGNS = [
    "lza",
    "adder_8bit",
    "adder_16bit",
    "adder_bcd",
    "alu",
    "barrel_shifter",
    "comparator_4bit",
    "sub_64bit",
    "fixed_point_adder",
    "counter_12",
    "accu",
    "edge_detect",
    "sequence_detector",
    "JC_counter",
    "up_down_counter",
    "serial2parallel",
    "width_8to16",
    "pulse_detect",
    "instr_reg",
    "calendar",
]
TOOLS = ("iverilog", "vvp", "yosys", "yosys-abc")
GOLD_SUFFIX = "__gt_gold"
WARM_CYCLES = 2
"""Cycles with reset forced active at the start of every sequential check (not compared)."""

# ------------------------------------------------------------------------------------ designs


def load_bench_design(name: str, workdir: Path) -> Design:
    """A benchmark design copied into ``workdir/<name>`` (a repository of its own) and parsed."""
    bench = Path(os.environ["RTLOPT_BENCH_PATH"])
    repo = workdir / name
    repo.mkdir(parents=True, exist_ok=True)
    if name == "lza":
        src = bench / "c910" / "lza_simd_half"
        files, module = sorted(src.glob("*.v")), "ct_vfmau_lza_simd_half"
        target = repo / "ct_vfmau_lza_simd_half.v"
    else:
        (sd,) = load_suite("rtllm", bench / "rtllm", [name])
        files, module = [sd.reference_file], sd.module
        target = repo / sd.reference_file.name
    if not files:
        raise SystemExit(f"benchmark {name} not found under {bench} (set RTLOPT_BENCH_PATH)")
    for f in files:
        shutil.copy(f, repo / f.name)
    from rtlopt.config import ProjectConfig

    return load_design(target, module, ProjectConfig())


# ------------------------------------------------------------------------------------ ground truth


class Truth(enum.StrEnum):
    """The ground-truth verdict on a mutant."""

    EQUIVALENT = "equivalent"
    NON_EQUIVALENT = "non-equivalent"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class GroundTruth:
    """What the independent check found, how, and its evidence."""

    truth: Truth
    method: str
    detail: str = ""


@dataclass(frozen=True)
class _Slot:
    name: str
    lsb: int
    width: int
    reset_active: int | None  # 0/1 for a reset input, else None


_RUNS = itertools.count(1)
#: Address-space limit of every ground-truth tool run (the evaluator's default sandbox limit).
MEMORY_MB = SandboxConfig().memory_mb


def _run(argv: Sequence[str], cwd: Path, timeout: float) -> tuple[int | None, str]:
    """(exit code or None on timeout, combined output).

    ``argv[0]`` names a tool; the binary rtlopt records for it runs (``RTLOPT_<NAME>`` or
    PATH), through rtlopt's one runner (own process group, time and memory limits).
    """
    tool = require_tool(argv[0])
    run = run_tool(
        tool.argv(*argv[1:]),
        cwd=cwd,
        log_path=cwd / f"{tool.name}.{next(_RUNS)}.log",
        limits=Limits(timeout, MEMORY_MB),
        raise_on_timeout=False,
    )
    out = "\n".join(run.output().splitlines()[1:])  # the first line is the command
    return (None if run.timed_out else run.returncode), out


class GroundTruthChecker:
    """Independent equivalence judge for mutants of one design (see the module docstring).

    Args:
        design: The reference design.
        workdir: Scratch folder.
        cycles: Deep-simulation length (cycles or vectors).
        exhaustive_bits: Largest combinational input width simulated exhaustively.
        abc_timeout: Time limit of one ABC run.
        seed: Seed of the stimulus (independent of rtlopt's harness seed).
    """

    def __init__(
        self,
        design: Design,
        workdir: Path,
        *,
        cycles: int,
        exhaustive_bits: int,
        abc_timeout: float,
        seed: int,
    ) -> None:
        self.design = design
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        t = design.target
        names = {p.name for p in t.ports if p.direction == "input"}
        self.clocks = [c for c in t.clocks if c in names]
        resets = {r: (0 if t.reset_active_low.get(r, False) else 1) for r in t.resets if r in names}
        self.slots: list[_Slot] = []
        lsb = 0
        for p in t.ports:
            if p.direction == "input" and p.name not in self.clocks:
                self.slots.append(_Slot(p.name, lsb, p.width, resets.get(p.name)))
                lsb += p.width
        self.in_width = max(1, lsb)
        self.outputs = [p for p in t.ports if p.direction == "output"]
        self.inouts = [p.name for p in t.ports if p.direction == "inout"]
        self.comb = not self.clocks
        self.exhaustive = self.comb and lsb <= exhaustive_bits
        self.cycles = cycles
        self.abc_timeout = abc_timeout
        self.seed = seed
        self.opts = [f"-I{d}" for d in design.include_dirs] + [
            f"-D{k}={v}" if v != "" else f"-D{k}" for k, v in design.defines.items()
        ]
        self.gold = workdir / "gold.v"
        self.gold.write_text(self._renamed_reference())
        self._deep = self._stimulus(cycles, random.Random(f"gt-{seed}-{t.name}"))
        self._n = 0
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ text

    def _renamed_reference(self) -> str:
        texts = [f.read_text(errors="replace") for f in self.design.closure]
        names = sorted({n for tx in texts for n in module_names(tx)}, key=len, reverse=True)
        out = "\n".join(texts)
        for n in names:
            out = re.sub(rf"(?<![\w$`.])\b{re.escape(n)}\b(?![\w$])", n + GOLD_SUFFIX, out)
        return out

    def _gate_files(self, mutant_text: str, d: Path) -> list[Path]:
        target = self.design.target.file
        gate = d / target.name
        gate.write_text(mutant_text)
        return [f for f in self.design.closure if f != target] + [gate]

    def _connections(self, prefix: str, vin: str) -> str:
        conns = [f".{c}({c})" for c in self.clocks]
        conns += [f".{s.name}({vin}[{s.lsb + s.width - 1}:{s.lsb}])" for s in self.slots]
        conns += [f".{o.name}({prefix}_{o.name})" for o in self.outputs]
        return ", ".join(conns)

    def _wires(self, prefix: str) -> str:
        return "".join(f"  wire [{o.width - 1}:0] {prefix}_{o.name};\n" for o in self.outputs)

    def _cat(self, prefix: str) -> str:
        return "{" + ", ".join(f"{prefix}_{o.name}" for o in self.outputs) + "}"

    def _ow(self) -> int:
        return sum(o.width for o in self.outputs)

    def _testbench(self, n: int, exhaustive: bool) -> str:
        top = self.design.target.name
        iw = self.in_width
        warm = 0 if self.comb else WARM_CYCLES
        lines = ["`timescale 1ns/1ns", "module gt_tb;", f"  reg [{iw - 1}:0] vin;"]
        if not exhaustive:
            lines.append(f"  reg [{iw - 1}:0] mem [0:{n - 1}];")
        lines += [f"  reg {c};" for c in self.clocks]
        lines.append(self._wires("g") + self._wires("m"))
        lines.append(f"  {top}{GOLD_SUFFIX} g ({self._connections('g', 'vin')});")
        lines.append(f"  {top} m ({self._connections('m', 'vin')});")
        ow = self._ow()
        lines.append(f"  wire [{ow - 1}:0] go = {self._cat('g')};")
        lines.append(f"  wire [{ow - 1}:0] mo = {self._cat('m')};")
        lines.append("  integer c, errors;")
        lines.append(
            "  task check(input integer ph); begin\n"
            f"    if (c >= {warm} && go !== mo) begin\n"
            '      if (errors == 0) $display("GT_MISMATCH cycle=%0d phase=%0d '
            'in=%h gold=%h gate=%h", c, ph, vin, go, mo);\n'
            "      errors = errors + 1;\n    end\n  end endtask"
        )
        body = ["    errors = 0; vin = 0;"]
        body += [f"    {c} = 1'b0;" for c in self.clocks]
        if not exhaustive:
            body.append('    $readmemh("vectors.hex", mem);')
        body.append(f"    for (c = 0; c < {n}; c = c + 1) begin")
        body.append("      #2 vin = " + ("c;" if exhaustive else "mem[c];"))
        body.append("      #2 check(0);")
        if self.clocks:
            body.append(f"      #1 {self.clocks[0]} = 1'b1;")
            # further clocks toggle at their own rates, away from input changes and checks
            extra = [
                f"if (c % {k + 2} == 0) {clk} = ~{clk};" for k, clk in enumerate(self.clocks[1:])
            ]
            body.append("      #2 " + (" ".join(extra) if extra else ";"))
            body.append("      #2 check(1);")
            body.append(f"      #1 {self.clocks[0]} = 1'b0;")
        else:
            body.append("      #5 check(1);")
            body.append("      #1;")
        body.append("    end")
        body.append(f'    $display("GT_DONE errors=%0d vectors=%0d", errors, {n});')
        body.append("    $finish;")
        lines.append("  initial begin\n" + "\n".join(body) + "\n  end")
        lines.append("endmodule")
        return "\n".join(lines) + "\n"

    def _stimulus(self, n: int, rng: random.Random) -> list[int]:
        """Biased random vectors: reset held for the warm-up, pulsed now and then during the
        first tenth, then left alone so that deep states (a calendar's day wrap) are reached."""
        prev = {s.name: 0 for s in self.slots}
        out: list[int] = []
        for c in range(n):
            v = 0
            for s in self.slots:
                mask = (1 << s.width) - 1
                if s.reset_active is not None:
                    on = c < WARM_CYCLES or (c < n // 10 and rng.random() < 1 / 64)
                    x = (mask if s.reset_active else 0) if on else (0 if s.reset_active else mask)
                else:
                    r = rng.random()
                    if s.width == 1 or r < 0.5:
                        x = rng.getrandbits(s.width)
                    elif r < 0.6:
                        x = 0
                    elif r < 0.7:
                        x = mask
                    elif r < 0.8:
                        x = 1 << rng.randrange(s.width)
                    elif r < 0.9:
                        x = mask ^ (1 << rng.randrange(s.width))
                    else:
                        x = prev[s.name]
                prev[s.name] = x
                v |= x << s.lsb
            out.append(v)
        return out

    # ------------------------------------------------------------------ simulation

    def _scratch(self, tag: str) -> Path:
        with self._lock:
            self._n += 1
            d = self.workdir / f"{self._n:04d}-{tag}"
        d.mkdir(parents=True)
        return d

    def compiles(self, mutant_text: str) -> bool:
        """Whether the mutant compiles on its own (Icarus Verilog)."""
        d = self._scratch("compile")
        files = self._gate_files(mutant_text, d)
        rc, _ = _run(
            [
                "iverilog",
                "-g2012",
                *self.opts,
                "-o",
                str(d / "a.out"),
                "-s",
                self.design.target.name,
                *map(str, files),
            ],
            d,
            60,
        )
        return rc == 0

    def _simulate(
        self, files: Sequence[Path], d: Path, vectors: list[int] | None, n: int
    ) -> tuple[bool | None, str]:
        """(mismatch found?, evidence); None when the simulation did not finish."""
        if vectors is not None:
            digits = (self.in_width + 3) // 4
            (d / "vectors.hex").write_text("".join(f"{v:0{digits}x}\n" for v in vectors))
        (d / "gt_tb.v").write_text(self._testbench(n, vectors is None))
        rc, out = _run(
            [
                "iverilog",
                "-g2012",
                *self.opts,
                "-o",
                str(d / "sim.vvp"),
                "-s",
                "gt_tb",
                str(d / "gt_tb.v"),
                str(self.gold),
                *map(str, files),
            ],
            d,
            120,
        )
        if rc != 0:
            return None, "testbench does not compile: " + out.strip()[-300:]
        rc, out = _run(["vvp", "-n", str(d / "sim.vvp")], d, 300)
        m = re.search(r"GT_DONE errors=(\d+)", out)
        if rc is None or m is None:
            return None, "simulation did not finish" + ("" if rc is None else f" (exit {rc})")
        mm = re.search(r"GT_MISMATCH .*", out)
        return int(m.group(1)) > 0, mm.group(0) if mm else ""

    # ------------------------------------------------------------------ ABC

    def _abc_supported(self, mutant_text: str) -> str:
        """Why ABC cannot judge this design ("" when it can)."""
        if len(self.clocks) > 1:
            return "several clocks"
        if self.inouts:
            return "inout ports"
        texts = [self.gold.read_text(), mutant_text]
        if self.clocks and any(
            re.search(rf"negedge\s+{re.escape(self.clocks[0])}\b", t) for t in texts
        ):
            return "both clock edges used"
        return ""

    def _miter(self) -> str:
        top = self.design.target.name
        iw = self.in_width
        parts = []
        for s in sorted(self.slots, key=lambda s: -s.lsb):
            bits = f"vin[{s.lsb + s.width - 1}:{s.lsb}]"
            if s.reset_active is not None and not self.comb:
                active = f"{{{s.width}{{1'b{s.reset_active}}}}}"
                bits = f"(live ? {bits} : {active})"
            parts.append(bits)
        clk = f"input {self.clocks[0]}, " if self.clocks else ""
        lines = [f"module gt_miter({clk}input [{iw - 1}:0] vin, output bad);"]
        if self.comb:
            lines.append("  wire live = 1'b1;")
        else:
            lines.append("  reg [1:0] cnt = 2'd0;")
            lines.append(
                f"  always @(posedge {self.clocks[0]}) if (cnt != 2'd{WARM_CYCLES}) "
                "cnt <= cnt + 2'd1;"
            )
            lines.append(f"  wire live = cnt == 2'd{WARM_CYCLES};")
        lines.append(f"  wire [{iw - 1}:0] v = {{{', '.join(parts)}}};")
        lines.append(self._wires("g") + self._wires("m"))
        lines.append(f"  {top}{GOLD_SUFFIX} g ({self._connections('g', 'v')});")
        lines.append(f"  {top} m ({self._connections('m', 'v')});")
        lines.append(f"  assign bad = live && ({self._cat('g')} != {self._cat('m')});")
        lines.append("endmodule")
        return "\n".join(lines) + "\n"

    def _abc(self, files: Sequence[Path], d: Path) -> GroundTruth | list[int]:
        """An ABC verdict, or a counterexample (input vectors per cycle) to replay."""
        engine = "iprove" if self.comb else "pdr"
        method = f"abc {engine}"
        (d / "miter.v").write_text(self._miter())
        reads = [
            f"read_verilog -sv {' '.join(self.opts)} {f}"
            for f in [self.gold, *files, d / "miter.v"]
        ]
        script = (
            "\n".join(
                [
                    *reads,
                    "hierarchy -check -top gt_miter",
                    "proc",
                    "flatten",
                    "memory",
                    "opt_clean",
                    "setundef -zero",
                    "async2sync",
                    "dffunmap",
                    "techmap",
                    "aigmap",
                    "opt_clean",
                    "write_aiger -zinit -map miter.map miter.aig",
                ]
            )
            + "\n"
        )
        (d / "miter.ys").write_text(script)
        rc, out = _run(["yosys", "-q", "-s", "miter.ys"], d, 300)
        if rc != 0:
            err = re.search(r"ERROR: (.*)", out)
            why = err.group(1) if err else out[-200:]
            return GroundTruth(Truth.UNKNOWN, method, f"yosys cannot build the miter: {why}")
        cmd = f"read_aiger miter.aig; strash; {engine}; write_cex -n cex.txt"
        rc, out = _run(["yosys-abc", "-c", cmd], d, self.abc_timeout)
        if rc is None:
            return GroundTruth(Truth.UNKNOWN, method, f"timed out after {self.abc_timeout:.0f}s")
        proved = "Property proved" in out if engine == "pdr" else "UNSATISFIABLE" in out
        failed = (
            "was asserted in frame" in out
            if engine == "pdr"
            else re.search(r"\bSATISFIABLE", out) is not None and not proved
        )
        if proved:
            return GroundTruth(Truth.EQUIVALENT, method + " proof")
        if not failed or not (d / "cex.txt").is_file():
            return GroundTruth(Truth.UNKNOWN, method, "no verdict: " + out.strip()[-200:])
        return self._cex_vectors(d)

    def _cex_vectors(self, d: Path) -> list[int]:
        """The counterexample as testbench input vectors (one per cycle)."""
        vin_bits: dict[int, int] = {}  # aiger input index -> bit of vin
        for line in (d / "miter.map").read_text().splitlines():
            f = line.split()
            if len(f) == 4 and f[0] == "input" and f[3] == "vin":
                vin_bits[int(f[1])] = int(f[2])
        frames: dict[int, int] = {}
        for m in re.finditer(r"pi(\d+)@(\d+)=([01])", (d / "cex.txt").read_text()):
            idx, frame, val = int(m.group(1)), int(m.group(2)), int(m.group(3))
            frames.setdefault(frame, 0)
            if idx in vin_bits and val:
                frames[frame] |= 1 << vin_bits[idx]
        vectors = [frames.get(i, 0) for i in range(max(frames, default=0) + 1)]
        # The miter forces reset during the warm-up; so does the replay.
        for c in range(min(WARM_CYCLES, len(vectors)) if not self.comb else 0):
            for s in self.slots:
                if s.reset_active is not None:
                    mask = ((1 << s.width) - 1) << s.lsb
                    vectors[c] = (vectors[c] & ~mask) | (mask if s.reset_active else 0)
        return vectors + vectors[-1:]  # one more cycle so the last frame is compared

    # ------------------------------------------------------------------ verdict

    def judge(self, mutant_text: str) -> GroundTruth:
        """The ground truth for one mutant (or the reference itself, as a self-check)."""
        d = self._scratch("judge")
        files = self._gate_files(mutant_text, d)
        if self.exhaustive:
            n = 1 << (self.in_width if self.slots else 0)
            bad, ev = self._simulate(files, d, None, n)
            if bad is None:
                return GroundTruth(Truth.UNKNOWN, "exhaustive sim", ev)
            method = f"exhaustive sim (2^{self.in_width})"
            return GroundTruth(Truth.NON_EQUIVALENT if bad else Truth.EQUIVALENT, method, ev)
        bad, ev = self._simulate(files, d, self._deep, len(self._deep))
        if bad:
            return GroundTruth(Truth.NON_EQUIVALENT, f"deep sim ({self.cycles})", ev)
        why = self._abc_supported(mutant_text)
        if why:
            return GroundTruth(Truth.UNKNOWN, "deep sim only", why if bad is not None else ev)
        res = self._abc(files, d)
        if isinstance(res, GroundTruth):
            return res
        r = self._scratch("replay")
        bad, ev = self._simulate(self._gate_files(mutant_text, r), r, res, len(res))
        if bad:
            return GroundTruth(Truth.NON_EQUIVALENT, "abc cex replayed in sim", ev)
        return GroundTruth(Truth.UNKNOWN, "abc cex", "not reproduced in simulation")


# ------------------------------------------------------------------------------------ the run


@dataclass
class Outcome:
    """One mutant: ground truth and the product's verdicts."""

    mutant: Mutant
    truth: GroundTruth
    result: EvalResult  # default configuration
    relaxed: EvalResult  # with formal.require_proof = false
    seconds_truth: float
    seconds_product: float
    netlist: EvalResult | None = None  # eval.netlist_check = always (--netlist)
    netlist_relaxed: EvalResult | None = None  # ... and formal.require_proof = false


@dataclass
class DesignRun:
    """Everything measured on one design."""

    name: str
    self_check: GroundTruth
    outcomes: list[Outcome]
    not_compiling: int


def _config(
    pdk: str | None, formal_timeout: float, require_proof: bool, netlist_check: str = "auto"
) -> Config:
    base = Config()
    return dataclasses.replace(
        base,
        flow=dataclasses.replace(base.flow, pdk=pdk or base.flow.pdk),
        formal=FormalConfig(timeout_s=formal_timeout, require_proof=require_proof),
        eval=EvalConfig(workers=1, cache=False, netlist_check=netlist_check),
    )


def _formal_unknown(res: EvalResult) -> bool:
    """Rejected only because the formal check could not decide (the proof rule)."""
    return (
        res.status is Status.INVALID
        and res.stage is Stage.FORMAL
        and res.formal is not None
        and res.formal.verdict is Verdict.UNKNOWN
    )


def run_design(name: str, args: argparse.Namespace, tmp: Path, pdk: object | None) -> DesignRun:
    """Generate, filter, judge and evaluate the mutants of one design."""
    root = tmp / name
    design = load_bench_design(name, root / "repo")
    gt = GroundTruthChecker(
        design,
        root / "gt",
        cycles=args.cycles,
        exhaustive_bits=args.exhaustive_bits,
        abc_timeout=args.abc_timeout,
        seed=args.seed,
    )
    ref_text = design.target.file.read_text(errors="replace")
    self_check = gt.judge(ref_text)
    strict_cfg = _config(args.pdk, args.formal_timeout, True)
    relaxed_cfg = _config(args.pdk, args.formal_timeout, False)
    outcomes: list[Outcome] = []
    not_compiling = 0
    with contextlib.ExitStack() as stack:
        ev = stack.enter_context(Evaluator(design, strict_cfg, root / "eval", pdk))
        ev_relaxed = stack.enter_context(Evaluator(design, relaxed_cfg, root / "eval-relaxed", pdk))
        ev_nl = ev_nl_relaxed = None
        if args.netlist:
            ev_nl = stack.enter_context(
                Evaluator(
                    design,
                    _config(args.pdk, args.formal_timeout, True, "always"),
                    root / "eval-netlist",
                    pdk,
                )
            )
            ev_nl_relaxed = stack.enter_context(
                Evaluator(
                    design,
                    _config(args.pdk, args.formal_timeout, False, "always"),
                    root / "eval-netlist-relaxed",
                    pdk,
                )
            )
        ev.reference()
        for m in generate_mutants(name, ref_text, args.per_design * 4, args.seed):
            if len(outcomes) >= args.per_design:
                break
            if not gt.compiles(m.text):
                not_compiling += 1
                continue
            t0 = time.monotonic()
            truth = gt.judge(m.text)
            t1 = time.monotonic()
            res = ev.evaluate(m.text)
            relaxed = ev_relaxed.evaluate(m.text) if _formal_unknown(res) else res
            t2 = time.monotonic()
            nl = nl_relaxed = None
            if ev_nl is not None and ev_nl_relaxed is not None:
                nl = ev_nl.evaluate(m.text)
                nl_relaxed = ev_nl_relaxed.evaluate(m.text) if _formal_unknown(nl) else nl
            outcomes.append(Outcome(m, truth, res, relaxed, t1 - t0, t2 - t1, nl, nl_relaxed))
    return DesignRun(name, self_check, outcomes, not_compiling)


# ------------------------------------------------------------------------------------ report

STAGES = [s for s in Stage if s is not Stage.DONE]


def _where(res: EvalResult) -> str:
    """accepted, infra, or the stage that rejected the candidate."""
    if res.accepted:
        return "accepted"
    if res.is_infrastructure_error:
        return "infra"
    return res.stage.value


def count(outcomes: Sequence[Outcome]) -> Counter[str]:
    """The table's counters over some outcomes (every key computed from outcomes)."""
    c: Counter[str] = Counter()
    for o in outcomes:
        c["mutants"] += 1
        c[o.truth.truth.value] += 1
        where, relaxed = _where(o.result), _where(o.relaxed)
        if o.truth.truth is Truth.NON_EQUIVALENT:
            c[f"caught@{where}"] += where != "accepted"
            c["infra"] += where == "infra"
            c["missed"] += where == "accepted"
            c["missed_relaxed"] += relaxed == "accepted"
        elif o.truth.truth is Truth.EQUIVALENT:
            c["equiv_accepted"] += where == "accepted"
            c["equiv_rejected"] += where not in ("accepted", "infra")
            c["equiv_accepted_relaxed"] += relaxed == "accepted"
        else:
            c["unknown_accepted"] += where == "accepted"
            c["unknown_accepted_relaxed"] += relaxed == "accepted"
        if o.netlist is not None and o.netlist_relaxed is not None:
            nl, nl_relaxed = _where(o.netlist), _where(o.netlist_relaxed)
            c["nl_mutants"] += 1
            if o.truth.truth is Truth.NON_EQUIVALENT:
                c["nl_caught@netlist"] += nl == Stage.NETLIST.value
                c["nl_caught_relaxed@netlist"] += nl_relaxed == Stage.NETLIST.value
                c["nl_missed"] += nl == "accepted"
                c["nl_missed_relaxed"] += nl_relaxed == "accepted"
            elif o.truth.truth is Truth.EQUIVALENT:
                c["nl_equiv_rejected@netlist"] += nl == Stage.NETLIST.value
    return c


NETLIST_COLUMNS: list[tuple[str, str]] = [
    ("nl_caught@netlist", "netlist=always: caught at netlist"),
    ("nl_missed", "netlist=always: **missed**"),
    ("nl_caught_relaxed@netlist", "netlist=always w/ accept-unknown: caught at netlist"),
    ("nl_missed_relaxed", "netlist=always: missed w/ accept-unknown"),
    ("nl_equiv_rejected@netlist", "netlist=always: equiv. rejected at netlist"),
]
"""The ``--netlist`` columns: counter key, heading."""


def table(runs: Sequence[DesignRun]) -> str:
    """Markdown table, one row per design plus a total (the netlist=always columns when
    the mutants were also evaluated that way)."""
    stage_cols = [s.value for s in STAGES]
    netlist = any(o.netlist is not None for r in runs for o in r.outcomes)
    extra = NETLIST_COLUMNS if netlist else []
    head = (
        ["design", "mutants", "equiv.", "non-equiv.", "unknown"]
        + [f"caught at {s}" for s in stage_cols]
        + [
            "infra",
            "**missed**",
            "missed w/ accept-unknown",
            "equiv. accepted",
            "equiv. rejected",
            "unknown accepted",
            "unknown accepted w/ accept-unknown",
        ]
        + [h for _, h in extra]
    )
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    total: Counter[str] = Counter()

    def row(name: str, c: Counter[str]) -> str:
        cells = [name, c["mutants"], c["equivalent"], c["non-equivalent"], c["unknown"]]
        cells += [c[f"caught@{s}"] for s in stage_cols]
        cells += [
            c["infra"],
            c["missed"],
            c["missed_relaxed"],
            c["equiv_accepted"],
            c["equiv_rejected"],
            c["unknown_accepted"],
            c["unknown_accepted_relaxed"],
        ]
        cells += [c[k] for k, _ in extra]
        return "| " + " | ".join(str(x) for x in cells) + " |"

    for r in runs:
        c = count(r.outcomes)
        total.update(c)
        rows.append(row(r.name, c))
    rows.append(row("**total**", total))
    return "\n".join(rows)


def _check_tools(pdk: str | None) -> None:
    try:
        require_tools([*TOOLS, *(("sta",) if pdk else ())])
    except ToolNotFound as exc:
        raise SystemExit(
            f"error: {exc.message} (install them with scripts/setup.sh); the "
            "ground truth and the product both need them"
        ) from None


def build_parser() -> argparse.ArgumentParser:
    """The command line; the tests build their arguments from it too."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--designs", default=",".join(DEFAULT_DESIGNS))
    ap.add_argument("--per-design", type=int, default=6, help="compiling mutants per design")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2, help="designs in parallel")
    ap.add_argument("--cycles", type=int, default=100_000, help="deep-simulation length")
    ap.add_argument("--exhaustive-bits", type=int, default=16)
    ap.add_argument("--abc-timeout", type=float, default=60.0)
    ap.add_argument(
        "--formal-timeout",
        type=float,
        default=FormalConfig().timeout_s,
        help="the product's formal.timeout_s",
    )
    ap.add_argument(
        "--netlist",
        action="store_true",
        help="also evaluate every mutant with eval.netlist_check = always (extra columns)",
    )
    ap.add_argument(
        "--pdk",
        default="nangate45",
        help="PDK of the product's PPA stages ('none': equivalence stages only)",
    )
    return ap


def main() -> int:
    args = build_parser().parse_args()
    if args.pdk == "none":
        args.pdk = None
    _check_tools(args.pdk)
    pdk = None
    if args.pdk:
        from rtlopt.pdk import resolve_pdk

        pdk = resolve_pdk(args.pdk)
    start = time.monotonic()
    names = [n for n in args.designs.split(",") if n]
    with tempfile.TemporaryDirectory(prefix="rtlopt-mutants-") as tmp:
        with ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
            runs = list(pool.map(lambda n: run_design(n, args, Path(tmp), pdk), names))
    outcomes = [o for r in runs for o in r.outcomes]
    print(table(runs))
    print()
    methods = Counter(f"{o.truth.truth.value} by {o.truth.method}" for o in outcomes)
    print("ground truth:", "; ".join(f"{k}: {v}" for k, v in sorted(methods.items())))
    print("not compiling (skipped):", sum(r.not_compiling for r in runs))
    for r in runs:
        if r.self_check.truth is not Truth.EQUIVALENT:
            print(
                f"self-check {r.name}: reference vs itself is {r.self_check.truth.value} "
                f"({r.self_check.method}: {r.self_check.detail})"
            )
    kinds = Counter(o.mutant.kind for o in outcomes if o.truth.truth is Truth.NON_EQUIVALENT)
    print("non-equivalent mutants by kind:", dict(sorted(kinds.items())))
    for o in outcomes:
        m, where = o.mutant, _where(o.result)
        tag = ""
        if o.truth.truth is Truth.NON_EQUIVALENT and where == "accepted":
            tag = "MISSED"
        elif o.truth.truth is Truth.NON_EQUIVALENT and _where(o.relaxed) == "accepted":
            tag = "missed with accept-unknown"
        elif o.truth.truth is Truth.EQUIVALENT and where != "accepted":
            tag = "equivalent, rejected"
        elif o.truth.truth is Truth.UNKNOWN:
            tag = "ground truth unknown"
        if o.netlist is not None and _where(o.netlist) == Stage.NETLIST.value:
            tag = tag or f"caught at netlist ({o.truth.truth.value})"
        if tag:
            print(
                f"{tag}: {m.design}:{m.line} {m.kind} {m.description} -> product {where} "
                f"({o.result.reason[:90]}); truth {o.truth.method} {o.truth.detail[:90]}"
            )
    n = len(outcomes)
    gt_s = sum(o.seconds_truth for o in outcomes)
    pr_s = sum(o.seconds_product for o in outcomes)
    print(
        f"\n{n} compiling mutants of {len(runs)} designs in {time.monotonic() - start:.0f}s "
        f"(ground truth {gt_s / max(1, n):.2f}s, product {pr_s / max(1, n):.2f}s per mutant); "
        f"pdk {args.pdk or 'none'}, seed {args.seed}, {args.cycles} cycles, "
        f"product formal timeout {args.formal_timeout:.0f}s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
