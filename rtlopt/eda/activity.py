"""Power from switching activity: simulation models of the liberty's cells, net activity read
from a VCD, and OpenSTA's power with that activity annotated per pin.

Activity is OpenSTA's unit: transitions per clock period (a net that changes every cycle has
1.0, a clock 2.0); duty is the fraction of the time a net is 1. The waveform is read with
``pywellen`` (the reader behind the Surfer viewer).

What OpenSTA 2.0.17 (Debian's build, git c018cb2) does with the numbers: ``set_power_activity
-pins`` fails in that build (its Tcl reads an unset ``$pins``), so every pin is annotated with
``sta::set_power_pin_activity`` and every input port with ``sta::set_power_input_port_activity``
before the first power query. Its propagation then recomputes the pins in the combinational
fan-out of the input ports from their inputs' annotated values (its probabilistic model of the
cell function); register outputs and the logic they alone drive keep the simulated numbers.
Its propagation also crosses a register's asynchronous set/clear arc and makes the register's
output constant: an input port driving set/clear pins is therefore a clock of the power run
(see ``_ASYNC_TCL``). Clock pins keep OpenSTA's clock activity (2.0 per period).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.errors import ConfigError, ToolFailed
from rtlopt.pdk._liberty import cache_dir, file_md5
from rtlopt.tools import Limits, require_tool, run_tool, script_path, sta_cell_name, tcl_word

__all__ = [
    "ActivityPower",
    "MappedForSimulation",
    "mapped_wrapper",
    "NetActivity",
    "bus_ranges",
    "activity_power",
    "activity_tcl",
    "cell_models",
    "read_activity",
]

log = logging.getLogger(__name__)

_RANGE = re.compile(
    r"^\s*(?:input|output|inout|wire|reg)\s+(?:signed\s+)?\[\s*(-?\d+)\s*:\s*(-?\d+)\s*\]\s*"
    r"(\\\S+|[A-Za-z_][\w$]*)\s*;",
    re.M,
)
_POWER = re.compile(r"^RTLOPT_ACT_POWER_W\s+(\S+)\s+(\S+)", re.M)
_ANNOTATED = re.compile(r"^RTLOPT_ACT_ANNOTATED\s+(\d+)\s+(\d+)", re.M)


@dataclass(frozen=True)
class NetActivity:
    """Switching of one net bit over a simulation.

    Attributes:
        activity: Transitions per clock period (cycle of the stimulus).
        duty: Fraction of the simulated time at 1 (x and z count as 0).
    """

    activity: float
    duty: float


@dataclass(frozen=True)
class ActivityPower:
    """OpenSTA's power with simulated activity.

    Attributes:
        total_uw: Total power (internal + switching + leakage), uW.
        dynamic_uw: Internal + switching power, uW.
        annotated: Nets whose activity came from the simulation.
        nets: Nets in the netlist.
    """

    total_uw: float
    dynamic_uw: float
    annotated: int
    nets: int


def cell_models(liberty: Path, *, timeout: float = 300.0, memory_mb: int | None = None) -> Path:
    """Verilog simulation models of the liberty's cells (Yosys ``read_liberty`` without
    ``-lib`` turns each cell's ``function``, ``ff`` and ``latch`` groups into logic), written
    once per liberty content into rtlopt's liberty cache.

    Raises:
        ToolFailed: Yosys could not read the liberty.
    """
    out = cache_dir() / "models" / f"{file_md5(liberty)}.v"
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.stem}.{uuid.uuid4().hex[:8]}")
    tmp.mkdir()
    script = tmp / "models.ys"
    script.write_text(
        "read_liberty -ignore_miss_func -ignore_miss_dir -ignore_miss_data_latch "
        f"{script_path(liberty)}\nwrite_verilog -noattr {script_path(tmp / 'models.v')}\n"
    )
    run = run_tool(
        require_tool("yosys").argv("-q", "-s", str(script)),
        cwd=tmp,
        log_path=tmp / "models.log",
        limits=Limits(timeout, memory_mb),
        sandbox=False,  # the PDK's own liberty: no candidate text
    )
    if run.returncode != 0 or not (tmp / "models.v").is_file():
        raise ToolFailed(
            "Yosys could not turn the liberty into simulation models",
            command=list(run.argv),
            returncode=run.returncode,
            log_path=tmp / "models.log",
            stderr_tail=run.tail(),
        )
    os.replace(tmp / "models.v", out)
    shutil.rmtree(tmp, ignore_errors=True)
    return out


def bus_ranges(netlist_text: str) -> dict[str, tuple[int, int]]:
    """``name -> (msb, lsb)`` of every vector a Yosys netlist declares."""
    return {m.group(3): (int(m.group(1)), int(m.group(2))) for m in _RANGE.finditer(netlist_text)}


_PORT = re.compile(
    r"^\s*(input|output|inout)\s+(?:signed\s+)?(?:\[\s*(-?\d+)\s*:\s*(-?\d+)\s*\]\s*)?"
    r"(\\\S+|[A-Za-z_][\w$]*)\s*;",
    re.M,
)
MAPPED_SUFFIX = "__rtlopt_mapped"
MAPPED_INSTANCE = "u_mapped"


@dataclass(frozen=True)
class MappedForSimulation:
    """The mapped netlist made ready for a testbench (:func:`mapped_wrapper`).

    Attributes:
        text: The renamed netlist and its wrapper.
        ranges: The wrapper's vector ports, ``name -> (msb, lsb)``.
        names: Plain identifier in ``text`` -> the net's name in the netlist (OpenSTA's).
    """

    text: str
    ranges: dict[str, tuple[int, int]]
    names: dict[str, str]


_ESCAPED = re.compile(r"\\(\S+)\s")


def mapped_wrapper(netlist_text: str, top: str) -> MappedForSimulation:
    """The mapped netlist with its top renamed ``<top>__rtlopt_mapped`` and its escaped
    identifiers (``\\s[3]``: the flow splits ports and nets into bits for OpenSTA) made plain
    (``rtlopt_e7``: pywellen reads the ``[3]`` of an escaped scalar as a bit index and drops
    it), plus a module ``<top>`` with the RTL's vector ports around it (a testbench connects
    ``.a(...)``)."""
    from rtlopt.verilog import rename_modules

    plain: dict[str, str] = {}  # escaped name (without the backslash) -> plain identifier

    def unescape(m: re.Match[str]) -> str:
        return plain.setdefault(m.group(1), f"rtlopt_e{len(plain)}") + " "

    text = _ESCAPED.sub(unescape, netlist_text)
    names = {v: k for k, v in plain.items()}
    ports: dict[str, tuple[str, list[int] | None, tuple[int, int] | None]] = {}
    conns: list[str] = []
    for m in _PORT.finditer(text):
        d, msb, lsb, name = m.group(1), m.group(2), m.group(3), m.group(4)
        bit = re.fullmatch(r"(.+)\[(-?\d+)\]", names.get(name, ""))
        if bit is not None:
            base, idx = bit.group(1), int(bit.group(2))
            ports.setdefault(base, (d, [], None))[1].append(idx)  # type: ignore[union-attr]
            conns.append(f".{name}({base}[{idx}])")
            continue
        rng = (int(msb), int(lsb)) if msb is not None else None
        ports[name] = (d, None, rng)
        conns.append(f".{name}({name})")
    decls: list[str] = []
    ranges: dict[str, tuple[int, int]] = {}
    for name, (d, bits, rng) in ports.items():
        if bits:
            rng = (max(bits), min(bits))
        if rng is not None:
            ranges[name] = rng
        decls.append(f"  {d} {'' if rng is None else f'[{rng[0]}:{rng[1]}] '}{name};")
    mapped = top + MAPPED_SUFFIX
    wrapper = (
        f"module {top}({', '.join(ports)});\n"
        + "\n".join(decls)
        + f"\n  {mapped} {MAPPED_INSTANCE}({', '.join(conns)});\nendmodule\n"
    )
    text = rename_modules(text, {top: mapped}) + "\n" + wrapper
    return MappedForSimulation(text, {**bus_ranges(text), **ranges}, names)


def read_activity(
    vcd: Path,
    scopes: Sequence[str],
    cycles: int,
    ranges: Mapping[str, tuple[int, int]],
    names: Mapping[str, str] | None = None,
) -> dict[str, NetActivity]:
    """Toggle rate and duty of every net bit declared directly in ``scopes`` of a VCD.

    Args:
        vcd: The waveform (VCD or FST).
        scopes: Dotted paths of instances (e.g. ``tb.u_cand``); their sub-scopes are not read.
            Escaped names (``\\a[3]``) are skipped: pywellen reads the ``[3]`` as a bit index
            and drops it (the wrapper's vector ``a`` carries those bits).
        cycles: Clock periods the simulation spans (the activity's denominator).
        ranges: Declared ``(msb, lsb)`` of vector nets (default ``[width-1:0]``).
        names: Identifier in the VCD -> the name to report (:class:`MappedForSimulation`).

    Returns:
        Net bit name (``q[3]``, ``_12_``) -> activity. Several changes at one time step count
        as one transition from the value before to the value after it (zero-delay glitches
        are not power).

    Raises:
        ConfigError: pywellen is not installed.
    """
    try:
        import pywellen
    except ImportError:
        raise ConfigError(
            "flow.power_mode = 'activity' needs the pywellen package",
            hint="pip install pywellen, or set flow.power_mode = 'vectorless'",
        ) from None
    wave = pywellen.Waveform(str(vcd))
    chosen = [
        v
        for v in wave.all_vars()
        if not v.name.startswith("\\") and v.full_name.rpartition(".")[0] in scopes
    ]
    by_id: dict[str, list[tuple[str, int]]] = {}
    for v in chosen:
        by_id.setdefault(str(v.signal_ref), []).append((v.name, v.bitwidth))
    changes: dict[str, list[tuple[int, object]]] = {k: [] for k in by_id}
    wave.stream_changes(lambda t, sid, val: changes[str(sid)].append((t, val)), chosen)
    end = max((c[-1][0] for c in changes.values() if c), default=0)
    out: dict[str, NetActivity] = {}
    rename = names or {}
    for sid, aliases in by_id.items():
        width = aliases[0][1]
        per_bit = _bit_activity(changes[sid], width, end, cycles)
        for name, _w in aliases:
            msb, lsb = ranges.get(name, (width - 1, 0))
            for i, act in enumerate(per_bit):  # i counts from the MSB, as the value's digits
                if width == 1 and name not in ranges:
                    out[rename.get(name, name)] = act
                else:
                    idx = msb - i if msb >= lsb else msb + i
                    out[f"{name}[{idx}]"] = act
    return out


def _bits(val: object, width: int) -> str:
    """A value from pywellen (int, or a string of 0/1/x/z digits) as ``width`` digits."""
    if isinstance(val, int):
        return format(val, f"0{width}b")[-width:]
    return str(val).rjust(width, "0")[-width:]


def _bit_activity(
    changes: Sequence[tuple[int, object]], width: int, end: int, cycles: int
) -> list[NetActivity]:
    """Per bit (MSB first): transitions between defined values per cycle, and time at 1."""
    toggles = [0] * width
    high = [0] * width
    prev: str | None = None
    prev_t = 0
    final: list[tuple[int, str]] = []
    for t, val in changes:  # the last value of each time step
        b = _bits(val, width)
        if final and final[-1][0] == t:
            final[-1] = (t, b)
        else:
            final.append((t, b))
    for t, b in final:
        if prev is not None:
            for i in range(width):
                if prev[i] == "1":
                    high[i] += t - prev_t
                if b[i] != prev[i] and b[i] in "01" and prev[i] in "01":
                    toggles[i] += 1
        prev, prev_t = b, t
    if prev is not None:
        for i in range(width):
            if prev[i] == "1":
                high[i] += end - prev_t
    n = max(1, cycles)
    span = max(1, end)
    return [NetActivity(toggles[i] / n, high[i] / span) for i in range(width)]


# An input port that drives asynchronous set/clear pins (directly or through buffers and
# inverters): OpenSTA 2.0.17's activity propagation would cross a register's set/clear arc and
# make its output constant, overwriting the simulated activity of the register and of its
# fan-out. Such a port becomes a clock of the power run (propagation never starts at a clock);
# its period makes the clock's 2 transitions per period the simulated transitions per second.
_ASYNC_TCL = """\
proc rtlopt_reaches_setclr {pin depth} {
  foreach rtlopt_e [get_timing_edges -from $pin] {
    if {[$rtlopt_e role] eq "Reg Set/Clr"} { return 1 }
  }
  if {$depth == 0 || [$pin is_top_level_port]} { return 0 }
  set rtlopt_inst [get_cells -of_objects $pin]
  if {[llength [get_pins -of_objects $rtlopt_inst -filter "direction == input"]] != 1} {
    return 0
  }
  foreach rtlopt_o [get_pins -of_objects $rtlopt_inst -filter "direction == output"] {
    set rtlopt_net [get_nets -of_objects $rtlopt_o]
    if {$rtlopt_net in {"" NULL}} { continue }
    foreach rtlopt_l [get_pins -of_objects $rtlopt_net] {
      if {[get_property $rtlopt_l direction] eq "input"
          && [rtlopt_reaches_setclr $rtlopt_l [expr {$depth - 1}]]} { return 1 }
    }
  }
  return 0
}
proc rtlopt_async_source {net} {
  foreach rtlopt_l [get_pins -of_objects $net] {
    if {[get_property $rtlopt_l direction] eq "input"
        && [rtlopt_reaches_setclr $rtlopt_l 4]} { return 1 }
  }
  return 0
}"""


def activity_tcl(
    netlist: Path,
    top: str,
    clocks: Sequence[str],
    period_ns: float,
    activities: Mapping[str, NetActivity],
) -> str:
    """A standalone OpenSTA script: read the netlist (the liberty is read first by the
    caller), create the clocks as the timing run does, annotate every net's pins and every
    input port with its simulated activity, then print the total and dynamic power."""
    acts = " ".join(
        f"{tcl_word(name)} {{{a.activity:.6g} {a.duty:.6g}}}" for name, a in activities.items()
    )
    p = f"{period_ns:.6g}"
    clock_list = " ".join(tcl_word(c) for c in clocks)
    return f"""\
read_verilog {tcl_word(script_path(netlist))}
link_design {tcl_word(sta_cell_name(top))}
set rtlopt_clks {{}}
foreach rtlopt_c [list {clock_list}] {{
  foreach rtlopt_port [all_inputs] {{
    if {{[get_full_name $rtlopt_port] eq $rtlopt_c}} {{
      create_clock -name $rtlopt_c -period {p} $rtlopt_port
      lappend rtlopt_clks $rtlopt_c
      break
    }}
  }}
}}
if {{[llength $rtlopt_clks] == 0}} {{ create_clock -name vclk -period {p}; set rtlopt_clks vclk }}
set rtlopt_ref [lindex $rtlopt_clks 0]
set rtlopt_acts [dict create {acts}]
{_ASYNC_TCL}
set rtlopt_nets [dict create]
foreach rtlopt_net [get_nets *] {{ dict set rtlopt_nets [get_full_name $rtlopt_net] $rtlopt_net }}
set rtlopt_nasync 0
foreach rtlopt_p [all_inputs] {{
  set rtlopt_name [get_full_name $rtlopt_p]
  if {{[lsearch -exact $rtlopt_clks $rtlopt_name] >= 0}} {{ continue }}
  if {{![dict exists $rtlopt_nets $rtlopt_name]}} {{ continue }}
  set rtlopt_net [dict get $rtlopt_nets $rtlopt_name]
  if {{[catch {{rtlopt_async_source $rtlopt_net}} rtlopt_async] || !$rtlopt_async}} {{ continue }}
  set rtlopt_a 0.0
  if {{[dict exists $rtlopt_acts $rtlopt_name]}} {{
    set rtlopt_a [lindex [dict get $rtlopt_acts $rtlopt_name] 0]
  }}
  # a clock of 2 transitions per its period: the same transitions per second as simulated
  set rtlopt_per [expr {{$rtlopt_a > 0 ? {p} * 2.0 / $rtlopt_a : {p} * 1e6}}]
  create_clock -name rtlopt_async_$rtlopt_nasync -period $rtlopt_per $rtlopt_p
  lappend rtlopt_clks $rtlopt_name
  incr rtlopt_nasync
}}
puts "RTLOPT_ACT_ASYNC_SOURCES $rtlopt_nasync"
set rtlopt_n 0
set rtlopt_all 0
foreach rtlopt_p [all_inputs] {{
  set rtlopt_name [get_full_name $rtlopt_p]
  if {{[lsearch -exact $rtlopt_clks $rtlopt_name] >= 0}} {{ continue }}
  set_input_delay 0 -clock $rtlopt_ref $rtlopt_p
  if {{[dict exists $rtlopt_acts $rtlopt_name]}} {{
    lassign [dict get $rtlopt_acts $rtlopt_name] rtlopt_a rtlopt_d
    sta::set_power_input_port_activity $rtlopt_p $rtlopt_a $rtlopt_d
  }}
}}
foreach rtlopt_net [get_nets *] {{
  incr rtlopt_all
  set rtlopt_name [get_full_name $rtlopt_net]
  if {{![dict exists $rtlopt_acts $rtlopt_name]}} {{ continue }}
  if {{[lsearch -exact $rtlopt_clks $rtlopt_name] >= 0}} {{ continue }}
  incr rtlopt_n
  lassign [dict get $rtlopt_acts $rtlopt_name] rtlopt_a rtlopt_d
  foreach rtlopt_pin [get_pins -of_objects $rtlopt_net] {{
    sta::set_power_pin_activity $rtlopt_pin $rtlopt_a $rtlopt_d
  }}
}}
puts "RTLOPT_ACT_ANNOTATED $rtlopt_n $rtlopt_all"
set rtlopt_pw [sta::design_power [sta::cmd_corner]]
set rtlopt_dyn [expr {{[lindex $rtlopt_pw 0] + [lindex $rtlopt_pw 1]}}]
puts "RTLOPT_ACT_POWER_W [lindex $rtlopt_pw 3] $rtlopt_dyn"
"""


def activity_power(
    liberty: Path,
    netlist: Path,
    top: str,
    clocks: Sequence[str],
    period_ns: float,
    activities: Mapping[str, NetActivity],
    workdir: Path,
    *,
    timeout: float = 120.0,
    memory_mb: int | None = None,
) -> ActivityPower:
    """OpenSTA's power of ``netlist`` with ``activities`` annotated, in a fresh process (a
    long-lived session keeps activity state across designs in 2.0.17).

    Raises:
        ToolFailed: OpenSTA crashed or printed no power.
        EvaluationTimeout: past ``timeout`` seconds.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    script = workdir / "sta_activity.tcl"
    script.write_text(
        f"read_liberty {tcl_word(script_path(liberty))}\n"
        + activity_tcl(netlist, top, clocks, period_ns, activities)
        + "exit\n"
    )
    log_path = workdir / "sta_activity.log"
    run = run_tool(
        require_tool("sta").argv("-no_init", "-no_splash", "-exit", script_path(script)),
        cwd=workdir,
        log_path=log_path,
        limits=Limits(timeout, memory_mb),
        env={"HOME": str(workdir)},
    )
    text = run.output()
    m, n = _POWER.search(text), _ANNOTATED.search(text)
    if m is None or n is None:
        raise ToolFailed(
            "OpenSTA printed no activity power",
            command=list(run.argv),
            returncode=run.returncode,
            log_path=log_path,
            stderr_tail=run.tail(),
        )
    return ActivityPower(
        float(m.group(1)) * 1e6, float(m.group(2)) * 1e6, int(n.group(1)), int(n.group(2))
    )
