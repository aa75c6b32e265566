"""Profile a design: hierarchical synthesis (modules kept), OpenSTA per-instance power and the
worst paths, then per-module attribution. Results are cached by everything that can change them.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from rtlopt import __version__
from rtlopt.errors import DesignError, ToolFailed
from rtlopt.frontend.model import Design
from rtlopt.pdk import PdkInfo, liberty_cells
from rtlopt.profile._attribute import (
    Hierarchy,
    module_of_instance,
    parse_paths,
    parse_power,
    parse_top_area,
    read_hierarchy,
)
from rtlopt.profile._model import ModuleProfile, PathProfile, Profile, base_name
from rtlopt.profile._sv import (
    may_read_through_slang,
    needs_slang,
    slang_files,
    slang_hierarchy,
    slang_version,
    view_read_lines,
)
from rtlopt.tools import (
    Limits,
    require_tool,
    run_tool,
    script_path,
    tcl_word,
    tool_versions,
    yosys_id,
    yosys_read_lines,
)

__all__ = ["ProfileSettings", "profile_design", "profile_cache_dir"]

log = logging.getLogger(__name__)

#: Bumped when the attribution or the scripts change, so older cache entries are not served.
_FORMAT = 3


@dataclass(frozen=True)
class ProfileSettings:
    """How a profile is made.

    Attributes:
        paths: How many of the worst endpoints' paths are attributed.
        clock_period_ns: Clock period of the constraints (the PDK's default when None).
        timeout_s: Wall-clock limit of each tool run.
        memory_mb: Address-space limit of each tool run.
        systemverilog: ``flow.systemverilog``: ``slang`` reads the sources through the slang
            frontend (``read_slang --keep-hierarchy``), ``native`` with Yosys's own reader,
            ``auto`` through slang when Yosys cannot read a design with ``.sv`` files.
    """

    paths: int = 10
    clock_period_ns: float | None = None
    timeout_s: float = 1800.0
    memory_mb: int | None = None
    systemverilog: str = "auto"


def profile_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/rtlopt/profile`` (``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rtlopt" / "profile"


def _files(design: Design) -> list[Path]:
    return [*design.prelude, *design.closure]


def _key(design: Design, pdk: PdkInfo, settings: ProfileSettings) -> str:
    h = hashlib.sha256()
    h.update(f"{_FORMAT}\0{__version__}\0{design.target.name}\0{pdk.md5}\0".encode())
    h.update(json.dumps(tool_versions(("yosys", "sta")), sort_keys=True).encode())
    h.update(repr((settings.paths, settings.clock_period_ns, settings.systemverilog)).encode())
    h.update(json.dumps(dict(design.defines), sort_keys=True).encode())
    for d in design.include_dirs:
        h.update(f"I{d}\0".encode())
    files = _files(design)
    if may_read_through_slang(design, settings.systemverilog):
        h.update(f"slang {slang_version()}\0".encode())
        files = [*files, *(f for f in slang_files(design) if f not in files)]  # + packages
    for f in files:
        h.update(f"F{f}\0".encode())
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()[:32]


def _synth_script(design: Design, pdk: PdkInfo, wd: Path, view: Path | None = None) -> str:
    """The hierarchical synthesis, from the sources or from slang's hierarchical ``view``."""
    lib = script_path(pdk.liberty_plain)
    top = yosys_id(design.target.name)
    lines = [
        *(
            view_read_lines(view, design.target.name)
            if view is not None
            else yosys_read_lines(_files(design), design.include_dirs, dict(design.defines))
        ),
        f"hierarchy -check -top {top}",
        f"synth -top {top}",
        f"dfflibmap -liberty {lib}",
        f"abc -liberty {lib}",
        "opt_clean -purge",
    ]
    if pdk.tie_hi is not None and pdk.tie_lo is not None:
        lines += [
            "setundef -zero",
            "splitnets -ports",
            "opt_clean -purge",
            f"hilomap -singleton -hicell {yosys_id(pdk.tie_hi[0])} {yosys_id(pdk.tie_hi[1])} "
            f"-locell {yosys_id(pdk.tie_lo[0])} {yosys_id(pdk.tie_lo[1])}",
        ]
    lines += [
        f"tee -q -o {script_path(wd / 'stat.txt')} stat -liberty {lib}",
        f"write_json {script_path(wd / 'netlist.json')}",
        f"write_verilog -noattr -noexpr -simple-lhs {script_path(wd / 'netlist.v')}",
    ]
    return "\n".join(lines) + "\n"


def _sta_script(
    design: Design, pdk: PdkInfo, wd: Path, settings: ProfileSettings, global_activity: bool
) -> str:
    period = settings.clock_period_ns or pdk.default_clock_period_ns
    clocks = [c for c in design.target.clocks if any(p.name == c for p in design.target.ports)]
    lines = [
        f"read_liberty {tcl_word(str(pdk.liberty_plain))}",
        f"read_verilog {tcl_word(str(wd / 'netlist.v'))}",
        f"link_design {tcl_word(design.target.name)}",
    ]
    if clocks:
        ports = " ".join(tcl_word(c) for c in clocks)
        lines += [
            f"create_clock -name rtlopt_clk -period {period} [get_ports [list {ports}]]",
            "set inputs [all_inputs]",
            f"foreach c [list {ports}] {{ set inputs [delete_from_list $inputs [get_ports $c]] }}",
        ]
    else:
        lines += _netlist_clocks(period)
    lines += [
        "set_input_delay 0 -clock rtlopt_clk $inputs",
        "set_output_delay 0 -clock rtlopt_clk [all_outputs]",
        f"report_checks -path_delay max -group_count {settings.paths} -endpoint_count 1 "
        f"-format full -digits 4 > {tcl_word(str(wd / 'paths.txt'))}",
        *(["set_power_activity -global -activity 0.1 -duty 0.5"] if global_activity else []),
        "report_power -instances [get_cells -hierarchical *] -digits 8 > "
        + tcl_word(str(wd / "instance_power.txt")),
    ]
    return "\n".join(lines) + "\n"


#: Clocks from the netlist when the frontend found none on the top (a top with no process of
#: its own, as SystemVerilog tops often are): the input ports whose fan-out reaches a
#: register's clock pin (through clock buffers and gates); a virtual clock when there is none.
_NETLIST_CLOCKS_TCL = """\
array set rtlopt_isclk {{}}
foreach rtlopt_p [all_registers -clock_pins] {{ set rtlopt_isclk([get_full_name $rtlopt_p]) 1 }}
set rtlopt_clocks {{}}
foreach rtlopt_port [all_inputs] {{
  foreach rtlopt_p [get_fanout -from $rtlopt_port -flat -trace_arcs all] {{
    if {{[info exists rtlopt_isclk([get_full_name $rtlopt_p])]}} {{
      lappend rtlopt_clocks $rtlopt_port
      break
    }}
  }}
}}
set inputs [all_inputs]
if {{[llength $rtlopt_clocks]}} {{
  create_clock -name rtlopt_clk -period {period} $rtlopt_clocks
  foreach c $rtlopt_clocks {{ set inputs [delete_from_list $inputs $c] }}
}} else {{
  create_clock -name rtlopt_clk -period {period}
}}"""


def _netlist_clocks(period: float) -> list[str]:
    return _NETLIST_CLOCKS_TCL.format(period=period).splitlines()


def _run(argv: Sequence[str], wd: Path, name: str, settings: ProfileSettings) -> None:
    run = run_tool(
        argv,
        cwd=wd,
        log_path=wd / f"{name}.log",
        limits=Limits(settings.timeout_s, settings.memory_mb),
    )
    if run.returncode != 0:
        raise ToolFailed(
            f"{name} exited with {run.returncode} while profiling",
            command=list(run.argv),
            returncode=run.returncode,
            log_path=wd / f"{name}.log",
            stderr_tail=run.tail(),
        )


def _slang_view(
    design: Design,
    workdir: Path,
    settings: ProfileSettings,
    step: Callable[[str], None],
    times: dict[str, float],
) -> Path | None:
    """slang's hierarchical view when the design is read through slang, else None."""
    t0 = time.monotonic()
    if not needs_slang(design, settings.systemverilog, workdir / "probe", settings.timeout_s):
        return None
    step(f"elaborating {design.target.name} with slang (SystemVerilog)")
    view = slang_hierarchy(design, workdir / "slang", settings.timeout_s)
    times["slang_s"] = time.monotonic() - t0
    return view


def _sta(design: Design, pdk: PdkInfo, wd: Path, settings: ProfileSettings) -> str:
    """Run OpenSTA: the worst paths and per-instance power. Returns "" or, when OpenSTA 2.0.17
    crashed propagating the vectorless activity (it does on ibex_top's netlist), how the power
    was measured instead: every net at activity 0.1, duty 0.5."""
    argv = require_tool("sta").argv("-no_splash", "-exit", "profile.tcl")
    (wd / "profile.tcl").write_text(_sta_script(design, pdk, wd, settings, False))
    try:
        _run(argv, wd, "sta", settings)
        return ""
    except ToolFailed as exc:
        if exc.returncode is None or exc.returncode >= 0:
            raise
        log.warning("OpenSTA crashed (%s); measuring power with a global activity", exc.returncode)
    (wd / "profile.tcl").write_text(_sta_script(design, pdk, wd, settings, True))
    _run(argv, wd, "sta", settings)
    return (
        "OpenSTA report_power -instances, every net at activity 0.1 and duty 0.5 (OpenSTA "
        "crashed propagating the vectorless activity), leaf cells summed"
    )


def profile_design(
    design: Design,
    pdk: PdkInfo,
    workdir: Path,
    settings: ProfileSettings | None = None,
    *,
    on_step: Callable[[str], None] | None = None,
    use_cache: bool = True,
) -> Profile:
    """Synthesize ``design`` from its target (the top) with modules kept and attribute area,
    power and the worst paths to every module.

    Raises:
        ToolFailed: Yosys or OpenSTA failed (their logs are in ``workdir``).
        DesignError: the netlist lacks the top.
    """
    settings = settings or ProfileSettings()
    step = on_step or (lambda _msg: None)
    key = _key(design, pdk, settings)
    cached = profile_cache_dir() / f"{key}.json"
    if use_cache and cached.is_file():
        try:
            return Profile.from_json(json.loads(cached.read_text()))
        except (ValueError, KeyError, TypeError):
            log.warning("ignoring an unreadable profile cache entry %s", cached)
    workdir.mkdir(parents=True, exist_ok=True)
    times: dict[str, float] = {}
    view = _slang_view(design, workdir, settings, step, times)
    t0 = time.monotonic()
    step(f"synthesizing {design.target.name} with its hierarchy kept")
    (workdir / "profile.ys").write_text(_synth_script(design, pdk, workdir, view))
    _run(require_tool("yosys").argv("-q", "-s", "profile.ys"), workdir, "yosys", settings)
    times["synthesis_s"] = time.monotonic() - t0
    t1 = time.monotonic()
    step("timing and power per instance (OpenSTA)")
    power = _sta(design, pdk, workdir, settings)
    times["sta_s"] = time.monotonic() - t1
    step("attributing to modules")
    result = attribute(design, pdk, workdir, settings, times)
    reader = "slang (read_slang --keep-hierarchy)" if view else "yosys read_verilog -sv"
    prov = {**result.provenance, "reader": reader, **({"power": power} if power else {})}
    result = replace(result, provenance=prov)
    if use_cache:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(result.to_json()))
        tmp.replace(cached)
    return result


def attribute(
    design: Design,
    pdk: PdkInfo,
    wd: Path,
    settings: ProfileSettings,
    times: Mapping[str, float],
) -> Profile:
    """The profile from the files the two tool runs wrote into ``wd``."""
    cells = liberty_cells(pdk.liberty_plain, pdk.md5)
    areas = {name: info.area for name, info in cells.items()}
    try:
        tree = read_hierarchy(
            json.loads((wd / "netlist.json").read_text()), design.target.name, areas
        )
    except ValueError as exc:
        raise DesignError(f"profile: {exc}", path=design.target.file) from None
    power_rows = parse_power((wd / "instance_power.txt").read_text(errors="replace"))
    power: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for row in power_rows:
        if row.path.replace("\\", "") in tree.nodes:
            continue  # a hierarchical instance: its cells have rows of their own
        acc = power[base_name(module_of_instance(row.path, tree.nodes))]
        for i, v in enumerate((row.internal, row.switching, row.leakage, row.total)):
            acc[i] += v
    # the sum of the leaf cells' rows (OpenSTA 2.0.17's design-level report_power fails with
    # a NaN on some hierarchical netlists; the per-instance rows do not)
    total_w = sum(acc[3] for acc in power.values())
    paths = parse_paths((wd / "paths.txt").read_text(errors="replace"), tree.nodes, cells)
    paths = paths[: settings.paths]  # report_checks gives that many per path group
    top_area = tree.total_area()
    modules = _modules(design, tree, power, paths, top_area, total_w)
    return Profile(
        top=design.target.name,
        area_um2=top_area,
        yosys_area_um2=parse_top_area((wd / "stat.txt").read_text(errors="replace")),
        power_mw=total_w * 1e3,
        arrival_ns=paths[0].arrival_ns if paths else 0.0,
        modules=modules,
        tree=tuple(
            (path, base_name(mod), tree.own_area.get(mod, 0.0)) for path, mod in tree.nodes.items()
        ),
        paths=tuple(paths),
        provenance={
            "tools": tool_versions(("yosys", "sta")),
            "liberty": str(pdk.liberty),
            "liberty_md5": pdk.md5,
            "pdk": pdk.name,
            "corner": pdk.corner,
            "clock_period_ns": settings.clock_period_ns or pdk.default_clock_period_ns,
            "paths": settings.paths,
            "power": "OpenSTA report_power -instances, vectorless, leaf cells summed",
            **{k: round(v, 3) for k, v in times.items()},
        },
    )


def _modules(
    design: Design,
    tree: Hierarchy,
    power: Mapping[str, Sequence[float]],
    paths: Sequence[PathProfile],
    top_area: float,
    total_w: float,
) -> tuple[ModuleProfile, ...]:
    counts = tree.instances()
    grouped: dict[str, list[str]] = defaultdict(list)
    for variant in counts:
        grouped[base_name(variant)].append(variant)
    worst = dict(paths[0].modules) if paths else {}
    worst_cells = sum(worst.values()) or 1.0
    out: list[ModuleProfile] = []
    for name, variants in grouped.items():
        n = sum(counts[v] for v in variants)
        own = sum(tree.own_area.get(v, 0.0) * counts[v] for v in variants)
        total = sum(
            tree.total_area(path) for path, mod in tree.nodes.items() if base_name(mod) == name
        )
        cells = sum(tree.own_cells.get(v, 0) * counts[v] for v in variants)
        pw = power.get(name, (0.0, 0.0, 0.0, 0.0))
        evaluable, why = _evaluable(design, name, cells, tree, variants)
        src = design.modules.get(name)
        out.append(
            ModuleProfile(
                name=name,
                variants=tuple(sorted(variants)),
                instances=n,
                cells=cells // max(1, n),
                own_area=own,
                total_area=total,
                area_share=own / top_area if top_area else 0.0,
                power_mw=pw[3] * 1e3,
                leakage_mw=pw[2] * 1e3,
                switching_mw=pw[1] * 1e3,
                internal_mw=pw[0] * 1e3,
                power_share=pw[3] / total_w if total_w else 0.0,
                paths=sum(1 for p in paths if any(m == name for m, _ in p.modules)),
                worst_path_share=worst.get(name, 0.0) / worst_cells,
                on_critical_path=name in worst,
                file=str(src.file) if src else "",
                line=src.line if src else 0,
                evaluable=evaluable,
                why_not=why,
            )
        )
    return tuple(sorted(out, key=lambda m: (-m.own_area, m.name)))


def _evaluable(
    design: Design, name: str, cells: int, tree: Hierarchy, variants: Sequence[str]
) -> tuple[bool, str]:
    """Can ``rtlopt optimize`` take this module, and if not, why."""
    src = design.modules.get(name)
    if src is None:
        return False, "defined in no source file rtlopt read (a library or generated cell)"
    odd = sorted({k for v in variants for k in tree.unmapped.get(v, ())})
    if odd:
        return False, f"holds cells that are not in the liberty: {', '.join(odd[:3])}"
    if any(p.direction == "inout" for p in src.ports):
        return False, "inout ports: the equivalence proof's miter does not model them"
    if cells == 0:
        return False, "no cells of its own (only submodules): optimize those instead"
    return True, ""
