"""Test helper: Design objects for the harness tests.

Uses ``rtlopt.frontend.load_design`` when the frontend provides it; otherwise a small regex
reader good enough for the RTLLM references and the C910 LZA (ANSI and non-ANSI ports, clocks
from edge events, resets by name).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.verilog import blank_comments, module_spans

if TYPE_CHECKING:
    from rtlopt.config import HarnessConfig
    from rtlopt.harness import SimReport

BENCH = Path(
    os.environ.get(
        "RTLOPT_BENCH_PATH", Path(__file__).resolve().parents[2].parent / "shared" / "bench"
    )
)
RTLLM = BENCH / "rtllm"
LZA_DIR = BENCH / "c910" / "lza_simd_half"

_RANGE = r"(?:\[\s*([^\]:]+?)\s*:\s*([^\]]+?)\s*\])?"
_DECL = re.compile(
    r"\b(input|output|inout)\b\s*(?:wire|reg|logic|var)?\s*(signed)?\s*"
    + _RANGE
    + r"\s*([A-Za-z_][\w$]*(?:\s*,\s*(?!input|output|inout)[A-Za-z_][\w$]*)*)"
)
_EDGE = re.compile(r"\b(posedge|negedge)\s+([A-Za-z_][\w$]*)")
_RESET = re.compile(r"(rst|reset)", re.I)


def _eval(expr: str, params: dict[str, int]) -> int:
    e = expr
    for k, v in params.items():
        e = re.sub(rf"\b{re.escape(k)}\b", str(v), e)
    e = e.replace("$clog2", "_clog2")
    env = {"__builtins__": {}, "_clog2": lambda v: max(0, (int(v) - 1).bit_length())}
    return int(eval(e, env))  # test helper on trusted benchmark text


def _params(code: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in re.finditer(
        r"\b(?:parameter|localparam)\b\s*(?:integer\s*)?([^;]*?)(?:;|\)\s*\()", code
    ):
        for part in m.group(1).split(","):
            part = re.sub(r"^\s*(?:parameter|localparam)\s*(?:integer\s*)?", "", part)
            kv = re.match(r"\s*(?:\[[^\]]*\]\s*)?([A-Za-z_]\w*)\s*=\s*(.+)", part)
            if kv:
                try:
                    out[kv.group(1)] = _eval(kv.group(2).strip().rstrip(")"), out)
                except (SyntaxError, NameError, TypeError, ValueError, ArithmeticError):
                    pass  # a non-integer parameter (a string, a real, a type) is ignored
    return out


def read_modules(path: Path) -> dict[str, Module]:
    text = path.read_text(errors="replace")
    code = blank_comments(text)
    mods: dict[str, Module] = {}
    spans = module_spans(text)
    names = [s.name for s in spans]
    for s in spans:
        body = code[s.start : s.end]
        params = _params(body)
        ports: list[Port] = []
        seen: set[str] = set()
        for m in _DECL.finditer(body):
            d, signed, msb, lsb, names_txt = m.groups()
            hi = _eval(msb, params) if msb else 0
            lo = _eval(lsb, params) if lsb else 0
            for n in re.split(r"\s*,\s*", names_txt.strip()):
                if n and n not in seen:
                    seen.add(n)
                    ports.append(Port(n, d, abs(hi - lo) + 1, hi, lo, bool(signed)))
        # order ports as in the header when non-ANSI
        hdr = re.match(
            r"module\s+\w+\s*(?:#\s*\((?:[^()]|\([^()]*\))*\)\s*)?\(([^;]*?)\)\s*;", body, re.S
        )
        if hdr:
            order = re.findall(r"([A-Za-z_][\w$]*)\s*(?=,|$)", hdr.group(1).strip())
            rank = {n: i for i, n in enumerate(order)}
            ports.sort(key=lambda p: rank.get(p.name, 10_000))
        inputs = {p.name for p in ports if p.direction == "input"}
        edges = [n for _, n in _EDGE.findall(body) if n in inputs]
        resets = tuple(dict.fromkeys(n for n in inputs if _RESET.match(n)))
        clocks = tuple(dict.fromkeys(n for n in edges if n not in resets))
        low = {r: r.lower().endswith(("n", "_b")) or r.lower().startswith("n") for r in resets}
        inst = tuple(
            dict.fromkeys(
                n
                for n in names
                if n != s.name and re.search(rf"\b{n}\b\s*(#\s*\(.*?\))?\s*\w+\s*\(", body, re.S)
            )
        )
        mods[s.name] = Module(
            s.name,
            path.resolve(),
            s.line,
            s.start,
            s.end,
            tuple(ports),
            clocks=clocks,
            resets=resets,
            reset_active_low=low,
            instances=inst,
        )
    return mods


def design_from_files(files: list[Path], top: str | None = None) -> Design:
    """A Design from explicit files (the last file's first module is the default top)."""
    try:
        from rtlopt.config import ProjectConfig
        from rtlopt.frontend import load_design  # type: ignore[attr-defined]

        if len(files) == 1 or files[0].parent == files[-1].parent:
            return load_design(files[-1], top, ProjectConfig())  # type: ignore[no-any-return]
    except ImportError:
        pass
    modules: dict[str, Module] = {}
    for f in files:
        modules.update(read_modules(f))
    if top is None:
        top = next(iter(read_modules(files[-1])))
    target = modules[top]
    closure: list[str] = []

    def walk(n: str) -> None:
        for i in modules[n].instances:
            if i in modules and i not in closure:
                closure.append(i)
                walk(i)

    walk(top)
    root = files[-1].parent.resolve()
    return Design(
        root,
        target,
        SourceSet(root, tuple(f.resolve() for f in files)),
        modules,
        tuple(f.resolve() for f in files),
        tuple(closure),
    )


def rtllm_design(name: str) -> Design:
    """The RTLLM reference of one design."""
    d = RTLLM / name
    files = sorted(d.glob("verified_*.v"))
    if not files:
        files = [p for p in sorted(d.glob("*.v")) if p.name != "testbench.v"]
    mods = read_modules(files[0])
    # the top is the module no other module instantiates
    inst = {i for m in mods.values() for i in m.instances}
    tops = [n for n in mods if n not in inst]
    return design_from_files(files, tops[-1])


def lza_design() -> Design:
    return design_from_files([LZA_DIR / "ct_vfmau_lza_simd_half.v"], "ct_vfmau_lza_simd_half")


def rtllm_names() -> list[str]:
    return sorted(p.name for p in RTLLM.iterdir() if p.is_dir()) if RTLLM.is_dir() else []


def run_harness(
    design: Design,
    candidate_files: list[Path],
    workdir: Path,
    cfg: HarnessConfig | None = None,
    *,
    timeout: float = 30.0,
    memory_mb: int | None = 2048,
    only: set[str] | None = None,
) -> SimReport:
    """Compile testbench + renamed reference + candidate and simulate; returns the report.

    Args:
        only: Run only these stimulus classes.
    """
    import secrets

    from rtlopt.config import HarnessConfig
    from rtlopt.eda.iverilog import compile_sources, run_simulation
    from rtlopt.harness import SimReport, build_testbench, reference_text

    cfg = cfg or HarnessConfig()
    workdir.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_hex(8)
    tb = build_testbench(design, cfg, secret, only=only)
    (workdir / "rtlopt_tb.v").write_text(tb.text)
    for name, content in tb.extra_files.items():
        (workdir / name).write_text(content)
    (workdir / "reference.v").write_text(reference_text(design))
    comp = compile_sources(
        [workdir / "rtlopt_tb.v", workdir / "reference.v", *candidate_files],
        workdir,
        top="rtlopt_tb",
        out=workdir / "sim.vvp",
        include_dirs=[design.target.file.parent],
        timeout=timeout,
        memory_mb=memory_mb,
    )
    if not comp.ok:
        from rtlopt.results import SimResult

        return SimReport(SimResult(False, 0, 0), "compile failed: " + "; ".join(comp.errors[:3]))
    return run_simulation(
        workdir / "sim.vvp", workdir, timeout=timeout, memory_mb=memory_mb, secret=secret
    )
