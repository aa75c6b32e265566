"""Benchmark suites: loading designs from disk and running a suite's own testbench.

Two layouts are built in (a table of loaders, :data:`SUITE_KINDS`):

* ``rtllm``: RTLLM v2.0, one folder per design holding ``design_description.txt``,
  ``testbench.v``, the reference ``verified_*.v`` and any data files the testbench reads. The
  module to optimize is the reference module that the testbench instantiates once a
  ``verified_`` prefix is dropped; when no name matches (two designs, e.g. ``adder_pipe_64bit``
  whose reference is ``verified_adder_64bit``) it is the reference's top module and the
  testbench's instantiated name is used for the rename.
* ``folder``: a folder of modules, one ``.v``/``.sv`` per design; the module is the one named
  like the file stem, else the only (or only top) module of the file. An optional testbench
  ``<stem>_tb.v`` or ``tb_<stem>.v`` beside it is picked up.

:func:`run_suite_testbench` simulates a candidate against the suite's own testbench with Icarus
Verilog and judges the testbench's messages.
"""

from __future__ import annotations

import logging
import re
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.eda.iverilog import compile_sources, run_vvp
from rtlopt.errors import DesignError, EvaluationTimeout, UsageError
from rtlopt.tools import Limits, require_tools
from rtlopt.verilog import IDENTIFIER, blank_comments, module_declarations, rename_declaration

__all__ = [
    "RTLLM_SYNTH_FAILURES",
    "RTLLM_TB_FAILURES",
    "SUITE_KINDS",
    "SuiteDesign",
    "SuiteTbResult",
    "judge_testbench_output",
    "load_suite",
    "module_names",
    "rename_top_module",
    "run_suite_testbench",
    "top_modules",
]

log = logging.getLogger(__name__)

RTLLM_TB_FAILURES: Mapping[str, str] = {
    "asyn_fifo": "testbench uses the SystemVerilog `break` (needs iverilog >= 12)",
    "clkgenerator": "behavioural clock source (`#` delays), not synthesizable; its testbench "
    "reports a failure under iverilog 11",
    "radix2_div": "the reference fails its own testbench under iverilog 11",
    "ring_counter": "testbench uses an unpacked-array initializer, rejected by iverilog 11",
}
"""RTLLM v2.0 designs whose reference does not pass its own testbench under iverilog 11
(from the benchmark's README)."""

RTLLM_SYNTH_FAILURES: Mapping[str, str] = {
    "float_multi": "Yosys cannot synthesize the reference (`always @(posedge clk or rst)` "
    "with level-sensitive blocks)",
    "synchronizer": "Yosys cannot synthesize the reference (multiple edge events)",
}
"""RTLLM v2.0 designs whose reference Yosys cannot synthesize (from the benchmark's README)."""


@dataclass(frozen=True)
class SuiteDesign:
    """One design of a benchmark suite.

    Attributes:
        name: Design name (folder name or file stem).
        path: The design's folder.
        reference_file: The reference Verilog file.
        module: Name of the module to optimize, as declared in ``reference_file``.
        tb_module_name: Name under which the suite's testbench instantiates that module.
        description: Natural-language specification ("" if none).
        testbench: The suite's own testbench, if any.
        data_files: Files the testbench reads at simulation time (copied beside it).
        known_issue: Why this design is known not to work with our tools, if it is.
    """

    name: str
    path: Path
    reference_file: Path
    module: str
    tb_module_name: str
    description: str
    testbench: Path | None
    data_files: tuple[Path, ...]
    known_issue: str | None


@dataclass(frozen=True)
class SuiteTbResult:
    """Outcome of a suite testbench run: passed, and why (or why not)."""

    passed: bool
    detail: str


# ---------------------------------------------------------------------------------------------
# Light Verilog scanning on rtlopt.verilog (enough for benchmark layouts; the frontend parses)

_IDENT = IDENTIFIER
# "<type> [#(...)] <instance> (" at the start of a statement.
_INSTANCE = re.compile(
    rf"(?m)^\s*({_IDENT})\s*(?:#\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\s*|\s+)"
    rf"({_IDENT})\s*(?:\[[^\]]*\]\s*)?\("
)
_KEYWORDS = frozenset(
    "module macromodule endmodule input output inout wire reg logic integer real time genvar "
    "parameter localparam assign always always_ff always_comb always_latch initial begin end if "
    "else for while case casez casex endcase default function endfunction task endtask return "
    "repeat forever fork join posedge negedge or and not wait disable generate endgenerate "
    "signed unsigned tri supply0 supply1 bit byte int shortint longint".split()
)


def module_names(text: str) -> list[str]:
    """Names of the modules declared in ``text``, in order."""
    return [name for name, _ in module_declarations(text)]


def _instantiated(code: str) -> set[str]:
    """Type names that ``code`` (comments blanked) instantiates (``T [#(...)] inst (``)."""
    return {m.group(1) for m in _INSTANCE.finditer(code)} - _KEYWORDS


def _module_bodies(text: str) -> dict[str, str]:
    clean = blank_comments(text)
    bodies: dict[str, str] = {}
    for name, at in module_declarations(text):
        start = at + len(name)
        end = clean.find("endmodule", start)
        bodies[name] = clean[start : end if end >= 0 else len(clean)]
    return bodies


def top_modules(text: str) -> list[str]:
    """Modules of ``text`` that no other module of ``text`` instantiates."""
    bodies = _module_bodies(text)
    used: set[str] = set()
    for name, body in bodies.items():
        used |= {n for n in _instantiated(body) if n != name}
    return [n for n in bodies if n not in used]


def rename_top_module(text: str, new_name: str, prefer: Sequence[str] = ()) -> str:
    """Rename the top module of ``text`` to ``new_name`` (declaration only).

    Args:
        text: Verilog source.
        new_name: The new module name.
        prefer: Names to pick among several top modules, in order of preference.

    Raises:
        DesignError: ``text`` declares no module, or several top modules none of which is
            preferred.
    """
    tops = top_modules(text)
    if not tops:
        raise DesignError("the candidate declares no module")
    chosen = next((p for p in prefer if p in tops), None)
    if chosen is None:
        if len(tops) > 1:
            raise DesignError(
                f"the candidate has several top modules ({', '.join(tops)})",
                hint="keep one top module",
            )
        chosen = tops[0]
    if chosen == new_name:
        return text
    return rename_declaration(text, chosen, new_name)


# ---------------------------------------------------------------------------------------------
# Suite loaders

SuiteLoader = Callable[[Path], list[SuiteDesign]]

_DATA_SUFFIXES = (".txt", ".dat", ".hex", ".mem")
_NON_DATA = frozenset({"design_description.txt"})


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}", path=path) from None


def _load_rtllm_design(folder: Path) -> SuiteDesign:
    refs = sorted(folder.glob("verified_*.v")) + sorted(folder.glob("verified_*.sv"))
    if not refs:
        raise UsageError(
            f"no verified_*.v reference in {folder}",
            path=folder,
            hint="an RTLLM design folder holds testbench.v and verified_<name>.v",
        )
    ref = refs[0]
    ref_text = _read(ref)
    ref_modules = module_names(ref_text)
    tb = folder / "testbench.v"
    tb_text = _read(tb) if tb.is_file() else ""
    tb_used = _instantiated(blank_comments(tb_text)) - set(module_names(tb_text))

    def plain(name: str) -> str:
        return name.removeprefix("verified_")

    matches = [m for m in ref_modules if plain(m) in tb_used]
    if matches:
        # prefer the one named like the design, then the reference's top module
        tops = top_modules(ref_text)
        matches.sort(key=lambda m: (plain(m) != folder.name, m not in tops))
        module, tb_name = matches[0], plain(matches[0])
    else:
        module = _only_top(ref_text, ref)
        candidates = sorted(tb_used, key=lambda n: n != folder.name)
        tb_name = candidates[0] if candidates else plain(module)
    desc_path = folder / "design_description.txt"
    data = tuple(
        sorted(
            p
            for p in folder.iterdir()
            if p.is_file() and p.suffix in _DATA_SUFFIXES and p.name not in _NON_DATA
        )
    )
    issues = [
        t for t in (RTLLM_TB_FAILURES.get(folder.name), RTLLM_SYNTH_FAILURES.get(folder.name)) if t
    ]
    return SuiteDesign(
        name=folder.name,
        path=folder,
        reference_file=ref,
        module=module,
        tb_module_name=tb_name,
        description=_read(desc_path) if desc_path.is_file() else "",
        testbench=tb if tb.is_file() else None,
        data_files=data,
        known_issue="; ".join(issues) or None,
    )


def _only_top(text: str, path: Path, hint: str | None = None) -> str:
    """The one top module of the file ``path`` (its ``text``).

    Raises:
        UsageError: none or several (``hint``: default, the top modules found).
    """
    tops = top_modules(text)
    if len(tops) != 1:
        raise UsageError(
            f"cannot tell which module of {path.name} to optimize",
            path=path,
            hint=hint or f"top modules: {', '.join(tops) or 'none'}",
        )
    return tops[0]


def _load_rtllm(path: Path) -> list[SuiteDesign]:
    folders = sorted(
        (p for p in path.iterdir() if p.is_dir() and any(p.glob("verified_*"))),
        key=lambda p: p.name.lower(),
    )
    return [_load_rtllm_design(f) for f in folders]


_TB_PATTERNS = ("{stem}_tb", "tb_{stem}")


def _is_tb(stem: str) -> bool:
    return stem.endswith("_tb") or stem.startswith("tb_")


def _load_folder(path: Path) -> list[SuiteDesign]:
    files = sorted(
        (p for p in path.iterdir() if p.suffix in (".v", ".sv") and p.is_file()),
        key=lambda p: p.name.lower(),
    )
    designs = []
    for f in files:
        if _is_tb(f.stem):
            continue
        text = _read(f)
        mods = module_names(text)
        if f.stem in mods:
            module = f.stem
        else:
            module = _only_top(text, f, "name the file after the module, or keep one top module")
        tb = next(
            (
                c
                for pat in _TB_PATTERNS
                for ext in (".v", ".sv")
                if (c := path / (pat.format(stem=f.stem) + ext)).is_file()
            ),
            None,
        )
        desc = f.with_suffix(".txt")
        designs.append(
            SuiteDesign(
                name=f.stem,
                path=path,
                reference_file=f,
                module=module,
                tb_module_name=module,
                description=_read(desc) if desc.is_file() else "",
                testbench=tb,
                data_files=(),
                known_issue=None,
            )
        )
    return designs


SUITE_KINDS: Mapping[str, SuiteLoader] = {
    "rtllm": _load_rtllm,
    "folder": _load_folder,
}
"""Suite layouts by name."""


def load_suite(kind: str, path: Path, designs: Sequence[str] | None = None) -> list[SuiteDesign]:
    """Load the designs of a benchmark suite.

    Args:
        kind: Layout name, a key of :data:`SUITE_KINDS` (``rtllm`` or ``folder``).
        path: The suite's folder (for ``rtllm``, the folder holding one folder per design).
        designs: Names to keep, in this order (default: all, sorted by name). Paper spellings
            are accepted (``fixed_point_subtractor``).

    Raises:
        UsageError: unknown kind, missing folder, or unknown design names (listing some known).
    """
    from rtlopt.benchmark.summary import canonical_design_name

    loader = SUITE_KINDS.get(kind)
    if loader is None:
        raise UsageError(f"unknown suite kind '{kind}'", hint=f"known: {', '.join(SUITE_KINDS)}")
    if not path.is_dir():
        raise UsageError(
            f"benchmark suite folder {path} does not exist",
            path=path,
            hint="set RTLOPT_BENCH_PATH or pass the suite's path",
        )
    found = loader(path)
    if not found:
        raise UsageError(f"no {kind} designs found in {path}", path=path)
    if designs is None:
        return found
    by_name = {d.name: d for d in found}
    wanted = [canonical_design_name(n) for n in designs]
    unknown = [n for n in wanted if n not in by_name]
    if unknown:
        some = ", ".join(sorted(by_name)[:8])
        more = f" (and {len(by_name) - 8} more)" if len(by_name) > 8 else ""
        raise UsageError(
            f"unknown design(s) {', '.join(unknown)} in {path}", hint=f"known: {some}{more}"
        )
    return [by_name[n] for n in wanted]


# ---------------------------------------------------------------------------------------------
# Running the suite's own testbench

_PASS = re.compile(r"your\s+design\s+passed", re.I)
_COMPLETED = re.compile(r"test\s+completed\s+with\s+(\d+)\s*(?:/\s*\d+\s*)?failures?", re.I)
_FAIL = re.compile(r"\b(error|errors|fail|failed|failure|failures|mismatch(?:es)?)\b", re.I)
_TOOL_NOISE = re.compile(r"^(\$ |VCD info:|WARNING:|.*\$finish called)", re.I)


def judge_testbench_output(output: str) -> SuiteTbResult:
    """Judge an RTLLM-style testbench's simulation output.

    Passed means the output holds a "Your Design Passed" message and no failure message. A
    failure message is a "Test completed with N failures" line with N > 0, or any line naming
    an error, a failure or a mismatch ("===========Error===========", "=========== Failed
    ===========", "Test failed: ...", "Failed at ...", "Error: ...", simulator ``ERROR:``).
    Output with neither kind of message is not a pass.
    """
    failures: list[str] = []
    passed = False
    for raw in output.splitlines():
        line = raw.strip()
        if not line or _TOOL_NOISE.match(line):
            continue
        completed = _COMPLETED.search(line)
        if completed:
            if int(completed.group(1)) > 0:
                failures.append(line)
            continue
        if _FAIL.search(line):
            failures.append(line)
        elif _PASS.search(line):
            passed = True
    if failures:
        more = f" (+{len(failures) - 1} more failure lines)" if len(failures) > 1 else ""
        return SuiteTbResult(False, f"testbench reports a failure: {failures[0][:200]}{more}")
    if passed:
        return SuiteTbResult(True, "testbench reports: Your Design Passed")
    tail = " | ".join(ln.strip() for ln in output.strip().splitlines()[-3:])
    return SuiteTbResult(False, f"no pass message in the testbench output (last lines: {tail})")


def run_suite_testbench(
    design: SuiteDesign,
    candidate_text: str,
    workdir: Path,
    timeout: float = 60,
    memory_mb: int | None = None,
) -> SuiteTbResult:
    """Simulate ``candidate_text`` against the suite's own testbench.

    The testbench and its data files are copied into ``workdir`` (a scratch folder, created if
    needed); the candidate's top module is renamed to the name the testbench instantiates;
    ``iverilog -g2012`` compiles both and ``vvp -n`` runs them there, through the evaluator's
    runners (:mod:`rtlopt.eda.iverilog`: the recorded binaries, the time and memory limits).

    Returns:
        Passed or not, with the reason: no testbench, candidate without a usable top module,
        compile errors (first lines), simulation timeout, or the testbench's verdict.

    Raises:
        ToolNotFound: iverilog or vvp is missing.
    """
    if design.testbench is None:
        return SuiteTbResult(False, f"design {design.name} has no testbench")
    require_tools(["iverilog", "vvp"])
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        text = rename_top_module(
            candidate_text, design.tb_module_name, prefer=(design.tb_module_name, design.module)
        )
    except DesignError as exc:
        return SuiteTbResult(False, f"candidate not usable: {exc.message}")
    tb = workdir / design.testbench.name
    shutil.copyfile(design.testbench, tb)
    for f in design.data_files:
        shutil.copyfile(f, workdir / f.name)
    cand = workdir / "candidate.v"
    cand.write_text(text)
    sim = workdir / "suite_tb.vvp"
    # relative names: the compiler's messages (quoted in the verdict) name the files plainly
    try:
        comp = compile_sources(
            [Path(tb.name), Path(cand.name)],
            workdir,
            out=Path(sim.name),
            timeout=timeout,
            memory_mb=memory_mb,
            log_name="iverilog.log",
        )
    except EvaluationTimeout:
        return SuiteTbResult(False, f"iverilog timed out after {timeout:g}s")
    if not comp.ok:
        errs = [ln for ln in comp.output.splitlines()[1:] if ln.strip()][:3]
        return SuiteTbResult(False, "compile failed: " + " | ".join(errs))
    run = run_vvp(Path(sim.name), workdir, limits=Limits(timeout, memory_mb), log_name="vvp.log")
    output = "\n".join(run.output().splitlines()[1:])
    if run.timed_out:
        return SuiteTbResult(False, f"simulation timed out after {timeout:g}s")
    verdict = judge_testbench_output(output)
    if verdict.passed and run.returncode != 0:
        return SuiteTbResult(False, f"vvp exited with {run.returncode}")
    log.debug("%s: %s", design.name, verdict.detail)
    return verdict
