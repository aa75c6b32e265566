#!/usr/bin/env python3
"""The PPA flow's noise floor: how far the figure of merit moves on designs that are the same.

Each design's reference module is measured as written and as equivalent re-writings that no
optimizer should be credited for: comments stripped, whitespace re-flowed, internal signals
renamed, top-level ``assign`` statements in reverse order, operands of commutative operators
swapped, and all of these together.
Whether Yosys and ABC depend on names, formatting and statement order is what this measures
(``self`` is measured twice: the same bytes). The reference is also measured again after all
variants (``self-last``: the long-lived ABC and OpenSTA workers carry nothing over) and with one
process per tool and the full liberty (``self-fresh-tools``, ``flow.persistent = false``).
Prints area, delay and the figures of merit of every variant, then per
design the spread ``max / min - 1`` of ADP and of the configured metric, and the largest.

The default of ``train.ppa_tie`` (answers of a group whose figure of merit differs by less than
this relative amount are tied before the advantage is computed) comes from this measurement. At
the commit that added it, every design measured 0.00 % over the same bytes, fresh tools, comments,
whitespace, renamed signals and reordered assigns; swapping the operands of ``& | ^`` moved
adder_32bit's ADP by 11.9 % (a different, reproducible netlist) and no other design.

    python bench/noise_floor.py [--only c910_lza adder_8bit ...] [--limit 10]

Data by path: RTLOPT_BENCH_PATH (default ../shared/bench) and RTLOPT_PDK_PATH (default
../shared/pdk). The C910 LZA runs on sky130hd (ADP, as the TTT-RTL paper's C910 rows), the RTLLM
designs on nangate45 (the paper's RTLLM flow).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from _designs import lza_and_rtllm  # noqa: E402

from rtlopt.config import FlowConfig, ProjectConfig, SandboxConfig  # noqa: E402
from rtlopt.eda.flow import PpaFlow  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.pdk import resolve_pdk  # noqa: E402
from rtlopt.verilog import module_spans  # noqa: E402

DEFAULT_DESIGNS = (
    "c910_lza",
    "adder_8bit",
    "adder_16bit",
    "adder_32bit",
    "alu",
    "multi_16bit",
    "calendar",
    "comparator_3bit",
    "pe",
)

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DECL = re.compile(r"^\s*(?:wire|reg|logic)\b([^;]*);", re.M)
_ASSIGN = re.compile(r"^[ \t]*assign\b[^;]*;[ \t]*\n", re.M)
_PORT_DECL = re.compile(r"^\s*(?:input|output|inout)\b([^;]*);", re.M)
_HEADER = re.compile(r"\bmodule\s+\w+\s*(?:#\s*\(.*?\)\s*)?\((.*?)\)\s*;", re.S)


def _names(decl_body: str) -> list[str]:
    """Identifiers declared by the text between ``wire``/``reg`` and ``;``."""
    body = re.sub(r"\[[^\]]*\]", " ", decl_body)
    body = re.sub(r"\b(?:signed|unsigned|wire|reg|logic|input|output|inout)\b", " ", body)
    out = []
    for part in body.split(","):
        m = re.match(r"\s*([A-Za-z_]\w*)", part)
        if m:
            out.append(m.group(1))
    return out


def strip_comments(mod: str) -> str:
    return _COMMENT.sub("", mod)


def reflow(mod: str) -> str:
    """Whitespace only: runs of blanks to one space, blank lines dropped, no indentation."""
    lines = (re.sub(r"[ \t]+", " ", ln).strip() for ln in strip_comments(mod).splitlines())
    return "\n".join(ln for ln in lines if ln) + "\n"


def rename(mod: str) -> str:
    """Every internal (non-port) wire/reg renamed ``sig<k>_rn`` (k in order of declaration)."""
    ports = set()
    for m in _PORT_DECL.finditer(mod):
        ports.update(_names(m.group(1)))
    h = _HEADER.search(mod)
    if h:
        ports.update(re.findall(r"([A-Za-z_]\w*)\s*(?:,|$)", h.group(1).strip() + ","))
    internal: list[str] = []
    for m in _DECL.finditer(mod):
        internal += [n for n in _names(m.group(1)) if n not in ports and n not in internal]
    out = mod
    for k, name in enumerate(internal):
        out = re.sub(rf"(?<![\w$.`]){re.escape(name)}(?![\w$])", f"sig{k}_rn", out)
    return out


def reorder(mod: str) -> str:
    """Top-level continuous assignments in reverse order (their order means nothing)."""
    spans = [(m.start(), m.end()) for m in _ASSIGN.finditer(mod)]
    if len(spans) < 2:
        return mod
    texts = [mod[a:b] for a, b in spans][::-1]
    out, last = [], 0
    for (a, b), t in zip(spans, texts, strict=True):
        out += [mod[last:a], t]
        last = b
    return "".join([*out, mod[last:]])


_OPERAND = r"~?[A-Za-z_]\w*(?:\[[^\]]*\])?"
_PAREN_PAIR = re.compile(rf"\(\s*({_OPERAND})\s*(&&|\|\||[&|^])\s*({_OPERAND})\s*\)")
_RHS_PAIR = re.compile(rf"=\s*({_OPERAND})\s*(&&|\|\||[&|^])\s*({_OPERAND})\s*;")


def commute(mod: str) -> str:
    """Operands of a commutative operator swapped where the pair stands alone (in parentheses,
    or as the whole right-hand side): ``(a | b)`` -> ``(b | a)``."""
    out = _PAREN_PAIR.sub(lambda m: f"({m.group(3)} {m.group(2)} {m.group(1)})", mod)
    return _RHS_PAIR.sub(lambda m: f"= {m.group(3)} {m.group(2)} {m.group(1)};", out)


STRUCTURAL = ("commuted", "all")
"""Variants that change the expression structure Yosys hands ABC, not only names and layout."""

VARIANTS = {
    "self": lambda m: m,
    "self-again": lambda m: m,
    "no-comments": strip_comments,
    "reflowed": reflow,
    "renamed": lambda m: rename(strip_comments(m)),
    "reordered": reorder,
    "renamed+reordered": lambda m: reorder(rename(strip_comments(m))),
    "commuted": commute,
    "all": lambda m: commute(reorder(rename(strip_comments(m)))),
}


def measure(name: str, file: Path, top: str | None, work: Path) -> list[tuple[Any, ...]]:
    pdk_name = "sky130hd" if name == "c910_lza" else "nangate45"
    design = load_design(file, top, ProjectConfig())
    tgt = design.target
    text = tgt.file.read_text(errors="replace")
    span = next(s for s in module_spans(text) if s.name == tgt.name)
    cfg = replace(FlowConfig(pdk=pdk_name), persistent=True)
    rows = []
    with PpaFlow(resolve_pdk(pdk_name), cfg, SandboxConfig()) as flow:
        others = [f for f in design.closure if f != tgt.file]
        seen: dict[str, str] = {}
        for kind, make in VARIANTS.items():
            mod = make(text[span.start : span.end])
            var = text[: span.start] + mod + text[span.end :]
            if var in seen.values() and kind not in ("self", "self-again"):
                continue  # the re-writing changes nothing on this design
            seen[kind] = var
            f = work / name / kind / tgt.file.name
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(var)
            m = flow.measure([*others, f], tgt.name, tgt.clocks, f.parent / "ppa")
            p = m.ppa
            ppa = p.ppa_product if p.ppa_product is not None else float("nan")
            rows.append((kind, p.area_um2, p.delay_ps, p.adp, ppa, float(p.cells)))
        # the same bytes again after every variant went through the long-lived ABC and OpenSTA
        rows.append(_row("self-last", flow, [*others, tgt.file], tgt, work / name / "last"))
    fresh = replace(cfg, persistent=False)
    with PpaFlow(resolve_pdk(pdk_name), fresh, SandboxConfig()) as flow:
        # one Yosys, ABC and OpenSTA process per run and the full liberty
        rows.append(_row("self-fresh-tools", flow, [*others, tgt.file], tgt, work / name / "f"))
    return rows


def _row(kind: str, flow: PpaFlow, files: list[Path], tgt: Any, work: Path) -> tuple[Any, ...]:
    p = flow.measure(files, tgt.name, tgt.clocks, work).ppa
    ppa = p.ppa_product if p.ppa_product is not None else float("nan")
    return (kind, p.area_um2, p.delay_ps, p.adp, ppa, float(p.cells))


def spread(xs: list[float]) -> float:
    xs = [x for x in xs if x == x and x > 0]
    return max(xs) / min(xs) - 1 if xs else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help=f"designs (default: {' '.join(DEFAULT_DESIGNS)})")
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args(argv)
    os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))
    designs = lza_and_rtllm(set(args.only or DEFAULT_DESIGNS))[: args.limit]
    summary = []
    with tempfile.TemporaryDirectory(prefix="rtlopt-noise-") as tmp:
        for name, file, top in designs:
            rows = measure(name, file, top, Path(tmp))
            print(f"# {name}")
            print(f"{'variant':<20} {'area_um2':>10} {'delay_ps':>9} {'ADP':>12} {'ADPP':>12}")
            for kind, area, delay, adp, ppa, _cells in rows:
                print(f"{kind:<20} {area:10.2f} {delay:9.1f} {adp:12.5g} {ppa:12.5g}")
            same = [r for r in rows if r[0] not in STRUCTURAL]
            summary.append(
                (
                    name,
                    len(rows),
                    spread([r[3] for r in same]),
                    spread([r[4] for r in same]),
                    spread([r[3] for r in rows]),
                    spread([r[4] for r in rows]),
                )
            )
            print(f"spread: ADP {100 * summary[-1][4]:.2f} %, ADPP {100 * summary[-1][5]:.2f} %\n")
    print("spread = max / min - 1 of the figure of merit over the variants;")
    print("'names/format/order/tools': without the commuted variants; 'all': with them")
    print(
        f"{'design':<18} {'variants':>8}  names/format/order/tools: ADP    ADPP   all: ADP    ADPP"
    )
    for name, n, a1, p1, a2, p2 in summary:
        print(
            f"{name:<18} {n:8d} {100 * a1:32.2f}% {100 * p1:6.2f}% "
            f"{100 * a2:9.2f}% {100 * p2:6.2f}%"
        )
    for label, cols in (("names/format/order/tools", (2, 3)), ("all variants", (4, 5))):
        vals = [x for s in summary for x in (s[cols[0]], s[cols[1]]) if x == x]
        print(f"largest spread, {label}: {100 * max(vals, default=0.0):.2f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
