#!/usr/bin/env python3
"""Mutation analysis of the equivalence gate: simulation harness versus formal check.

Generates non-equivalent mutants of benchmark references (operator swaps, off-by-one
constants, flipped case items, dropped terms), keeps those that compile, and runs each through
the simulation harness and the Yosys formal check. A mutant that formal proves equivalent is an
equivalent mutant: excluded from the kill rate and counted separately. Prints a table of how
many mutants simulation alone caught versus formal. With ``--netlist`` each mutant is also
synthesized (the generic-cell netlist the evaluator's netlist check simulates) and that netlist
is run through the same harness against the reference (or against the reference's own netlist
where that differs from its RTL), adding the sim-vs-netlist-vs-formal columns.

    python bench/mutation_analysis.py [--designs a,b,c] [--per-design 20] [--seed 1] [--netlist]

Finds the benchmarks through RTLOPT_BENCH_PATH (default ../shared/bench next to the repo).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "integration"))

from _harness_designs import lza_design, rtllm_design, run_harness  # noqa: E402

from rtlopt.config import FormalConfig, HarnessConfig  # noqa: E402
from rtlopt.eda.formal import check_equivalence  # noqa: E402
from rtlopt.eda.iverilog import SimulationTimeout  # noqa: E402
from rtlopt.errors import InfrastructureError  # noqa: E402
from rtlopt.evaluate.result import Verdict  # noqa: E402
from rtlopt.frontend.model import Design  # noqa: E402
from rtlopt.harness import SimReport, blank_comments  # noqa: E402

DEFAULT_DESIGNS = [
    "lza", "adder_8bit", "adder_16bit", "adder_bcd", "alu", "barrel_shifter", "comparator_4bit",
    "sub_64bit", "fixed_point_adder", "counter_12", "accu", "edge_detect", "sequence_detector",
    "JC_counter", "up_down_counter", "serial2parallel", "width_8to16", "pulse_detect",
    "instr_reg", "calendar",
]

_OPS: list[tuple[str, str, str]] = [
    # (kind, regex of the operator in blanked code, replacement)
    ("op_swap", r"(?<=[\w\)\]\s])\+(?=[\s\w\(\{~])", "-"),
    ("op_swap", r"(?<=[\w\)\]\s])-(?=[\s\w\(\{~])", "+"),
    ("op_swap", r"(?<![&])&(?![&])(?=[\s\w\(\{~!])", "|"),
    ("op_swap", r"(?<![|])\|(?![|])(?=[\s\w\(\{~!])", "&"),
    ("op_swap", r"\^(?=[\s\w\(\{~])", "&"),
    ("op_swap", r"==", "!="),
    ("op_swap", r"!=", "=="),
    ("op_swap", r"&&", "||"),
    ("op_swap", r"\|\|", "&&"),
    ("op_swap", r"(?<![<>=!])>(?![>=])", "<"),
    ("op_swap", r"~(?=[\w\(])", ""),
]
_CONST = re.compile(r"(\d+)\s*'\s*([dDhH])\s*([0-9a-fA-F_]+)")
_BCONST = re.compile(r"(\d+)\s*'\s*[bB]\s*([01xzXZ?_]+)")
_DROP = re.compile(r"(?<=[\w\)\]])(\s*(?:\||&|\^|\+)\s*)(~?[A-Za-z_][\w]*(?:\[[^\]]*\])?)"
                   r"(?=\s*[;\)\|&\^+])")


@dataclass(frozen=True)
class Mutant:
    design: str
    kind: str
    line: int
    text: str  # mutated target-file text
    description: str


def _sites(text: str) -> Iterator[tuple[str, int, int, str, str]]:
    """(kind, start, end, replacement, description) of every mutation site in module bodies."""
    code = blank_comments(text)
    body_spans = [(m.start(), m.end()) for m in
                  re.finditer(r"\bmodule\b.*?\bendmodule\b", code, re.S)]
    # skip declarations: ranges in port/wire declarations make boring (compile-only) mutants
    decl = re.compile(r"\b(input|output|inout|wire|reg|parameter|localparam|integer)\b[^;]*;")
    decl_spans = [(m.start(), m.end()) for m in decl.finditer(code)]

    def ok(pos: int) -> bool:
        return (any(a <= pos < b for a, b in body_spans)
                and not any(a <= pos < b for a, b in decl_spans))

    for kind, pat, rep in _OPS:
        for m in re.finditer(pat, code):
            if ok(m.start()):
                yield kind, m.start(), m.end(), rep, f"'{m.group(0)}' -> '{rep}'"
    for m in _CONST.finditer(code):
        if not ok(m.start()):
            continue
        width, base, digits = int(m.group(1)), m.group(2).lower(), m.group(3).replace("_", "")
        value = int(digits, 16 if base == "h" else 10)
        for delta in (1, -1):
            v = (value + delta) % (1 << width)
            new = f"{width}'{base}{v:x}" if base == "h" else f"{width}'d{v}"
            yield "const", m.start(), m.end(), new, f"{m.group(0)} -> {new}"
    for m in _BCONST.finditer(code):
        if not ok(m.start()):
            continue
        after = code[m.end():m.end() + 3].lstrip()
        kind = "case_item" if after.startswith(":") or after.startswith(",") else "const"
        bits = m.group(2)
        idx = [i for i, c in enumerate(bits) if c in "01"]
        for i in idx[:: max(1, len(idx) // 3)]:
            flipped = bits[:i] + ("1" if bits[i] == "0" else "0") + bits[i + 1:]
            new = f"{m.group(1)}'b{flipped}"
            yield kind, m.start(), m.end(), new, f"bit {i} of {m.group(0)[:20]}"
    for m in _DROP.finditer(code):
        if ok(m.start()):
            yield ("drop_term", m.start(), m.end(), "",
                   f"dropped '{m.group(0).strip()[:30]}'")


def generate_mutants(name: str, design: Design, n: int, seed: int) -> list[Mutant]:
    """Up to ``n`` distinct mutants of the design's target file, sampled reproducibly."""
    text = design.target.file.read_text(errors="replace")
    sites = list(_sites(text))
    rng = random.Random(f"{seed}:{name}")
    rng.shuffle(sites)
    # balance the kinds: round-robin over kinds
    by_kind: dict[str, list[tuple[str, int, int, str, str]]] = {}
    for s in sites:
        by_kind.setdefault(s[0], []).append(s)
    ordered: list[tuple[str, int, int, str, str]] = []
    while any(by_kind.values()):
        for k in sorted(by_kind):
            if by_kind[k]:
                ordered.append(by_kind[k].pop())
    out: list[Mutant] = []
    seen: set[str] = set()
    for kind, a, b, rep, desc in ordered:
        new = text[:a] + rep + text[b:]
        if new in seen or new == text:
            continue
        seen.add(new)
        out.append(Mutant(name, kind, text.count("\n", 0, a) + 1, new, desc))
        if len(out) >= n:
            break
    return out


@dataclass
class Outcome:
    mutant: Mutant
    compiles: bool
    sim_caught: bool = False
    sim_reason: str = ""
    verdict: str = ""
    formal_reason: str = ""
    seconds: float = 0.0
    netlist_caught: bool | None = None  # None: not run
    structure: str = ""  # the clock/reset structure check's objection (a hard rejection)
    netlist_reason: str = ""


def generic_netlist(design: Design, files: list[Path], workdir: Path) -> Path | None:
    """The netlist after ``synth`` without initial values, as the evaluator's netlist check
    simulates it (None when Yosys cannot synthesize the sources)."""
    from rtlopt.eda._run import run_tool

    workdir.mkdir(parents=True, exist_ok=True)
    top = design.target.name
    out = workdir / "generic.v"
    reads = " ".join(str(f) for f in files)
    script = workdir / "generic.ys"
    script.write_text(f"read_verilog -sv -I{design.target.file.parent} {reads}\n"
                      f"hierarchy -check -top {top}\nflatten\nsynth -top {top}\n"
                      f"attrmap -remove init\nwrite_verilog -noattr {out}\n")
    run_tool(["yosys", "-q", "-s", str(script)], cwd=workdir, log_path=workdir / "generic.log",
             timeout=120, raise_on_timeout=False)
    return out if out.is_file() else None


def netlist_harness(design: Design, gold: str, netlist: Path, workdir: Path) -> SimReport:
    """The harness with ``gold`` (renamed modules) as the reference and ``netlist`` as DUT."""
    import secrets

    from rtlopt.eda.iverilog import compile_sources, run_simulation
    from rtlopt.evaluate.result import SimResult
    from rtlopt.harness import build_testbench

    workdir.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_hex(8)
    tb = build_testbench(design, HarnessConfig(), secret)
    (workdir / "rtlopt_tb.v").write_text(tb.text)
    for name, content in tb.extra_files.items():
        (workdir / name).write_text(content)
    (workdir / "gold.v").write_text(gold)
    comp = compile_sources([workdir / "rtlopt_tb.v", workdir / "gold.v", netlist], workdir,
                           top="rtlopt_tb", out=workdir / "sim.vvp",
                           include_dirs=[design.target.file.parent], timeout=60)
    if not comp.ok:
        return SimReport(SimResult(False, 0, 0), "compile failed: " + "; ".join(comp.errors[:3]))
    return run_simulation(workdir / "sim.vvp", workdir, timeout=60, memory_mb=2048,
                          secret=secret)


_GOLD: dict[str, str] = {}


def netlist_gold(design: Design, workdir: Path) -> str:
    """The reference RTL, or the reference's renamed netlist when that differs from its RTL."""
    from rtlopt.harness import ref_name, reference_text, rename_modules

    name = design.target.name
    if name not in _GOLD:
        gold = reference_text(design)
        net = generic_netlist(design, list(design.closure), workdir / "ref_netlist")
        if net is not None and not netlist_harness(design, gold, net,
                                                   workdir / "ref_check").result.passed:
            text = net.read_text(errors="replace")
            mods = re.findall(r"^module\s+([A-Za-z_][\w$]*)\s*\(", text, re.M)
            gold = rename_modules(text, {m: ref_name(m) for m in mods})
            print(f"# {name}: the reference's netlist differs from its RTL; mutant netlists "
                  "are compared with it", flush=True)
        _GOLD[name] = gold
    return _GOLD[name]


def classify(design: Design, mutant: Mutant, workdir: Path,
             formal_cfg: FormalConfig | None = None, netlist: bool = False) -> Outcome:
    """Run one mutant through the harness and the formal check."""
    start = time.monotonic()
    workdir.mkdir(parents=True, exist_ok=True)
    cand = workdir / design.target.file.name
    cand.write_text(mutant.text)
    files = [f for f in design.closure if f != design.target.file] + [cand]
    try:
        rep = run_harness(design, files, workdir / "sim", HarnessConfig(), timeout=20)
    except SimulationTimeout:
        return Outcome(mutant, True, True, "simulation timed out", "", "",
                       time.monotonic() - start)
    if rep.reason.startswith("compile failed"):
        return Outcome(mutant, False, seconds=time.monotonic() - start)
    out = Outcome(mutant, True, not rep.result.passed, rep.reason)
    try:
        fr = check_equivalence(design, files, workdir / "formal",
                               formal_cfg or FormalConfig(timeout_s=30))
        out.verdict, out.formal_reason = fr.verdict.value, fr.reason
        out.structure = fr.structure
    except InfrastructureError as exc:
        out.verdict, out.formal_reason = Verdict.UNKNOWN.value, exc.one_line()
    if netlist:
        gold = netlist_gold(design, workdir.parent / f"gold_{design.target.name}")
        net = generic_netlist(design, files, workdir / "netlist")
        if net is None:
            out.netlist_caught, out.netlist_reason = True, "does not synthesize"
        else:
            try:
                nrep = netlist_harness(design, gold, net, workdir / "netlist_sim")
                out.netlist_caught, out.netlist_reason = not nrep.result.passed, nrep.reason
            except SimulationTimeout:
                out.netlist_caught, out.netlist_reason = True, "netlist simulation timed out"
    out.seconds = time.monotonic() - start
    return out


def load(name: str) -> Design:
    return lza_design() if name == "lza" else rtllm_design(name)


def run(designs: list[str], per_design: int, seed: int, workers: int,
        formal_cfg: FormalConfig | None = None, netlist: bool = False) -> list[Outcome]:
    """Classify up to ``per_design`` compiling mutants of each design (designs in parallel)."""
    tmp = Path(tempfile.mkdtemp(prefix="rtlopt-mutants-"))

    def one_design(name: str) -> list[Outcome]:
        d = load(name)
        kept: list[Outcome] = []
        for i, m in enumerate(generate_mutants(name, d, per_design * 3, seed)):
            o = classify(d, m, tmp / f"{name}_{i}", formal_cfg, netlist)
            if o.compiles:
                kept.append(o)
                if len(kept) >= per_design:
                    break
        return kept

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return [o for outs in pool.map(one_design, designs) for o in outs]


def table(outcomes: list[Outcome]) -> str:
    """Markdown table per design: compiled, equivalent, sim caught, formal only, missed."""
    rows = ["| design | mutants | equivalent | non-equiv. | sim caught | formal refuted | "
            "formal only | sim only | undecided | missed |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    total: Counter[str] = Counter()
    for name in dict.fromkeys(o.mutant.design for o in outcomes):
        c: Counter[str] = Counter()
        for o in outcomes:
            if o.mutant.design != name:
                continue
            c["mutants"] += 1
            if o.verdict == "proven":
                c["equivalent"] += 1
                if o.sim_caught:
                    c["sim_false_alarm"] += 1
                continue
            c["nonequiv"] += 1
            c["sim"] += o.sim_caught
            c["formal"] += o.verdict == "refuted"
            c["formal_only"] += (not o.sim_caught) and o.verdict == "refuted"
            c["sim_only"] += o.sim_caught and o.verdict != "refuted"
            c["undecided"] += (not o.sim_caught) and o.verdict not in ("refuted", "proven")
        total.update(c)
        rows.append(_row(name, c))
    rows.append(_row("**total**", total))
    return "\n".join(rows)


def netlist_table(outcomes: list[Outcome]) -> str:
    """Sim vs netlist vs formal per design (mutants run with ``--netlist``)."""
    rows = ["| design | non-equiv. | sim caught | netlist caught | formal refuted | "
            "sim/netlist disagree | accepted with accept-unknown + netlist check | "
            "equivalent: netlist false alarms |",
            "|---|---|---|---|---|---|---|---|"]
    total: Counter[str] = Counter()
    for name in dict.fromkeys(o.mutant.design for o in outcomes):
        c: Counter[str] = Counter()
        for o in outcomes:
            if o.mutant.design != name or o.netlist_caught is None:
                continue
            if o.verdict == "proven":
                c["false_alarm"] += bool(o.netlist_caught)
                continue
            c["nonequiv"] += 1
            c["sim"] += o.sim_caught
            c["netlist"] += o.netlist_caught
            c["formal"] += o.verdict == "refuted"
            c["disagree"] += o.sim_caught != o.netlist_caught
            # --accept-unknown: simulation, not refuted, then the netlist check (auto mode runs
            # it because the verdict is not proven)
            c["acc_unknown"] += (not o.sim_caught and o.verdict != "refuted"
                                 and not o.structure and not o.netlist_caught)
        total.update(c)
        rows.append(_nrow(name, c))
    rows.append(_nrow("**total**", total))
    return "\n".join(rows)


def _nrow(name: str, c: Counter[str]) -> str:
    return (f"| {name} | {c['nonequiv']} | {c['sim']} | {c['netlist']} | {c['formal']} | "
            f"{c['disagree']} | {c['acc_unknown']} | "
            f"{c['false_alarm']} |")


def _row(name: str, c: Counter[str]) -> str:
    missed = c["nonequiv"] - c["sim"] - c["formal_only"] - c["undecided"]
    return (f"| {name} | {c['mutants']} | {c['equivalent']} | {c['nonequiv']} | {c['sim']} | "
            f"{c['formal']} | {c['formal_only']} | {c['sim_only']} | {c['undecided']} | "
            f"{missed} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--designs", default=",".join(DEFAULT_DESIGNS))
    ap.add_argument("--per-design", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--netlist", action="store_true",
                    help="also synthesize each mutant and simulate its netlist")
    args = ap.parse_args()
    start = time.monotonic()
    outcomes = run(args.designs.split(","), args.per_design, args.seed, args.workers,
                   netlist=args.netlist)
    print(table(outcomes))
    if args.netlist:
        print("\n" + netlist_table(outcomes))
    kinds = Counter(o.mutant.kind for o in outcomes if o.verdict != "proven")
    print("\nnon-equivalent mutants by kind:", dict(sorted(kinds.items())))
    undecided = [o for o in outcomes if not o.sim_caught and o.verdict not in ("refuted",
                                                                               "proven")]
    for o in undecided:
        print(f"undecided: {o.mutant.design}:{o.mutant.line} {o.mutant.description} "
              f"({o.formal_reason})")
    eq = [o for o in outcomes if o.verdict == "proven"]
    for o in eq:
        print(f"equivalent: {o.mutant.design}:{o.mutant.line} {o.mutant.kind} "
              f"{o.mutant.description}{' (sim disagreed!)' if o.sim_caught else ''}")
    n = len(outcomes)
    print(f"\n{n} compiled mutants in {time.monotonic() - start:.0f}s "
          f"({(time.monotonic() - start) / max(1, n):.2f}s per mutant, both gates)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
