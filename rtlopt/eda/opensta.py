"""OpenSTA timing and power of a mapped netlist.

Delay is the worst data arrival time over every constrained path to an endpoint (register
inputs and outputs), measured from the launching clock edge, in ps. Clocked designs get
``create_clock`` on each clock port at the configured period; combinational ones a virtual
clock ``vclk``. Inputs and outputs get delay 0
relative to the first clock, so input-to-register, register-to-register, register-to-output and
input-to-output paths are all timed. Power is OpenSTA's ``design_power`` total with every net
at activity 0.1 (transitions per clock period) and duty 0.5, clocks at their own activity (set
explicitly: a long-lived session otherwise keeps stale activities after a new ``link_design``).

Not OpenSTA's propagation from the inputs: its probabilistic model adds the transition densities
of an XOR's inputs, so reconvergent XOR logic multiplies them at every level. On a GF(2^8)
S-box (1,259 sky130hd cells, 60 levels) it gave one net 4e11 transitions per second (4,000 per
10 ns cycle) and the design 1.07 W against 213 uW for the 256-entry table of the same
function; with every net at 0.1 the two are 458 uW and 129 uW. The figure stays comparable
between a reference and a rewrite (the same activity for every net: power follows the switched
capacitance and the cells' internal energy); ``flow.power_mode = "activity"`` measures the
activity the harness stimulus really causes.

Numbers are printed as tagged lines (``RTLOPT_DELAY_S``, ``RTLOPT_POWER_W``, ...) through the
OpenSTA Tcl API (``find_timing_paths``, ``PathEnd data_arrival_time``, ``sta::design_power``,
all present in 2.0.17), in SI units, so nothing depends on report formatting or liberty units.
Debian's OpenSTA 2.0.17 cannot read gzip'd liberty files: pass the decompressed file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.errors import ToolFailed, UsageError
from rtlopt.results import CriticalPath
from rtlopt.tools import Limits, require_tool, run_tool, script_path, sta_cell_name, tcl_word

__all__ = [
    "StaResult",
    "parse_critical_path",
    "candidate_tcl",
    "parse_sta_output",
    "run_sta",
    "sta_script",
]

_TAG = re.compile(r"^RTLOPT_([A-Z_]+)\s?(.*)$", re.M)


@dataclass(frozen=True)
class StaResult:
    """Timing and power of one netlist.

    Attributes:
        delay_ps: Worst arrival time over all timed paths (0 when there is none).
        power_uw: Total power, or None when not measured.
        paths: Number of timed endpoints seen.
        registers: Number of registers in the netlist.
        clocks: Clock names created (``vclk`` for a virtual clock).
        warnings: Notes about the analysis (e.g. no timed path).
        critical_path: The worst path's start, end and cells (None when not reported).
    """

    delay_ps: float
    power_uw: float | None
    paths: int
    registers: int
    clocks: tuple[str, ...]
    warnings: tuple[str, ...] = ()
    critical_path: CriticalPath | None = None


# The worst path's points for the feedback (one extra report in the same session): every pin
# with its cell and net, and the capturing register's output nets (the endpoint's RTL name).
# In its own catch: a failure here loses the details, never the numbers.
_CRITICAL_PATH_TCL = """\
  catch {
    if {[info exists rtlopt_wpe]} {
      set rtlopt_pts [get_property $rtlopt_wpe points]
      foreach rtlopt_pt $rtlopt_pts {
        set rtlopt_pin [get_property $rtlopt_pt pin]
        set rtlopt_nn [get_full_name $rtlopt_pin]
        set rtlopt_ref "-"
        if {![$rtlopt_pin is_top_level_port]} {
          set rtlopt_ref [get_property [get_cells -of_objects $rtlopt_pin] ref_name]
          set rtlopt_net [get_nets -of_objects $rtlopt_pin]
          set rtlopt_nn [expr {$rtlopt_net in {"" NULL} ? "-" : [get_full_name $rtlopt_net]}]
        }
        puts "RTLOPT_PATH_POINT [get_full_name $rtlopt_pin]\t$rtlopt_ref\t$rtlopt_nn"
      }
      set rtlopt_ep [get_property [lindex $rtlopt_pts end] pin]
      if {![$rtlopt_ep is_top_level_port]} {
        set rtlopt_cell [get_cells -of_objects $rtlopt_ep]
        foreach rtlopt_q [get_pins -of_objects $rtlopt_cell -filter "direction == output"] {
          set rtlopt_net [get_nets -of_objects $rtlopt_q]
          if {$rtlopt_net ni {"" NULL}} { puts "RTLOPT_PATH_ENDNET [get_full_name $rtlopt_net]" }
        }
      }
    }
  }
"""


def _tcl_list(items: Sequence[str]) -> str:
    return "[list " + " ".join(tcl_word(i) for i in items) + "]" if items else "{}"


def candidate_tcl(
    netlist: Path, top: str, clocks: Sequence[str], period_ns: float, *, power: bool, token: str
) -> str:
    """Tcl that times one netlist in a session whose liberty is already loaded.

    Every step runs inside ``catch``; the script always ends with ``RTLOPT_DONE <token>``, and
    an error prints ``RTLOPT_ERROR <message>`` instead of the numbers.
    """
    p = f"{period_ns:.6g}"
    if not re.fullmatch(r"[A-Za-z0-9_]+", token):
        raise ValueError(f"token {token!r} is not alphanumeric")
    for c in clocks:
        if re.search(r"[\[\]/\\]", c):  # OpenSTA 2.0.17 crashes on create_clock for these
            raise UsageError(
                f"OpenSTA cannot time a clock port named {c!r}",
                hint="rename the port to a simple identifier",
            )
    # Names and paths come from the user's repository: every one is a single escaped Tcl word
    # (no substitution can happen), and clock ports are found by exact name, not by a
    # get_ports pattern (where '*' and '[3]' have meanings).
    return f"""\
set rtlopt_status [catch {{
  read_verilog {tcl_word(script_path(netlist))}
  link_design {tcl_word(sta_cell_name(top))}
  set rtlopt_clks {{}}
  set rtlopt_clock_names {_tcl_list(list(clocks))}
  foreach rtlopt_c $rtlopt_clock_names {{
    foreach rtlopt_port [all_inputs] {{
      if {{[get_full_name $rtlopt_port] eq $rtlopt_c}} {{
        create_clock -name $rtlopt_c -period {p} $rtlopt_port
        lappend rtlopt_clks $rtlopt_c
        break
      }}
    }}
  }}
  if {{[llength $rtlopt_clks] == 0}} {{
    create_clock -name vclk -period {p}
    set rtlopt_clks {{vclk}}
  }}
  set rtlopt_ref [lindex $rtlopt_clks 0]
  set rtlopt_ins {{}}
  foreach rtlopt_p [all_inputs] {{
    if {{[lsearch -exact $rtlopt_clks [get_full_name $rtlopt_p]] < 0}} {{
      lappend rtlopt_ins $rtlopt_p
    }}
  }}
  if {{[llength $rtlopt_ins] > 0}} {{ set_input_delay 0 -clock $rtlopt_ref $rtlopt_ins }}
  if {{[llength [all_outputs]] > 0}} {{ set_output_delay 0 -clock $rtlopt_ref [all_outputs] }}
  puts "RTLOPT_CLOCKS [join $rtlopt_clks {{ }}]"
  puts "RTLOPT_REGISTERS [llength [all_registers]]"
  set rtlopt_worst 0.0
  set rtlopt_n 0
  foreach rtlopt_pe [find_timing_paths -path_delay max -group_count 1000000 \\
                     -endpoint_count 1 -unique_paths_to_endpoint] {{
    # measured from the launching edge: a falling-edge launch starts at period/2 (every clock
    # has the same 50% waveform; clock-to-Q is far below half a period)
    set rtlopt_a [$rtlopt_pe data_arrival_time]
    set rtlopt_s [[lindex [get_property $rtlopt_pe points] 0] arrival]
    if {{$rtlopt_s >= {period_ns * 0.5e-9!r}}} {{
      set rtlopt_a [expr {{$rtlopt_a - {period_ns * 0.5e-9!r}}}]
    }}
    incr rtlopt_n
    if {{$rtlopt_a > $rtlopt_worst}} {{ set rtlopt_worst $rtlopt_a; set rtlopt_wpe $rtlopt_pe }}
  }}
  puts "RTLOPT_PATHS $rtlopt_n"
  puts "RTLOPT_DELAY_S $rtlopt_worst"
{_CRITICAL_PATH_TCL}  if {{{1 if power else 0}}} {{
    set_power_activity -input -activity 0.1 -duty 0.5
    set_power_activity -global -activity 0.1 -duty 0.5
    puts "RTLOPT_POWER_W [lindex [sta::design_power [sta::cmd_corner]] 3]"
  }}
}} rtlopt_err]
if {{$rtlopt_status}} {{ puts "RTLOPT_ERROR [string map {{"\\n" " "}} $rtlopt_err]" }}
puts "RTLOPT_DONE {token}"
"""


def sta_script(
    liberty: Path, netlist: Path, top: str, clocks: Sequence[str], period_ns: float, *, power: bool
) -> str:
    """A standalone OpenSTA script: read the liberty, then time one netlist."""
    return (
        f"read_liberty {tcl_word(script_path(liberty))}\n"
        + candidate_tcl(netlist, top, clocks, period_ns, power=power, token="oneshot")
        + "exit\n"
    )


def parse_sta_output(text: str, *, power: bool, log_path: Path | None = None) -> StaResult:
    """Numbers from the tagged lines of :func:`candidate_tcl`'s output.

    Raises:
        ToolFailed: an ``RTLOPT_ERROR`` line, or a missing tagged line.
    """
    tags: dict[str, str] = {}
    for m in _TAG.finditer(text):
        tags[m.group(1)] = m.group(2).strip()
    if "ERROR" in tags:
        raise ToolFailed(
            f"OpenSTA: {tags['ERROR']}",
            log_path=log_path,
            stderr_tail="\n".join(text.splitlines()[-20:]),
        )
    needed = ["DONE", "DELAY_S", "PATHS", "REGISTERS", "CLOCKS"] + (["POWER_W"] if power else [])
    missing = [k for k in needed if k not in tags]
    if missing:
        raise ToolFailed(
            f"OpenSTA output lacks {', '.join('RTLOPT_' + k for k in missing)}",
            log_path=log_path,
            stderr_tail="\n".join(text.splitlines()[-20:]),
        )
    try:
        delay_ps = float(tags["DELAY_S"]) * 1e12
        paths = int(tags["PATHS"])
        registers = int(tags["REGISTERS"])
        power_uw = float(tags["POWER_W"]) * 1e6 if power else None
    except ValueError as exc:
        raise ToolFailed(f"OpenSTA printed an unreadable number: {exc}", log_path=log_path) from exc
    clocks = tuple(tags["CLOCKS"].split())
    warnings: list[str] = []
    if paths == 0:
        warnings.append("no timed path: delay is 0")
    if registers and clocks == ("vclk",):
        warnings.append(
            f"{registers} registers but no clock port: register-to-register paths are not timed"
        )
    return StaResult(
        delay_ps,
        power_uw,
        paths,
        registers,
        clocks,
        tuple(warnings),
        parse_critical_path(text, delay_ps),
    )


_ANON_NET = re.compile(r"^_\d+_(\[\d+\])?$")


def _named(net: str) -> bool:
    """A net the RTL named (Yosys calls the others ``_123_``)."""
    return net not in ("", "-") and not _ANON_NET.match(net)


def parse_critical_path(text: str, delay_ps: float) -> CriticalPath | None:
    """The worst path from the ``RTLOPT_PATH_POINT`` / ``RTLOPT_PATH_ENDNET`` lines, or None.

    The start point is the net the first pin drives (a register's output or an input port), the
    end point the capturing register's first named output net, else the last pin's net (an
    output port). Cells are listed once per instance, in path order. ``delay_ps`` is the
    measured worst delay (the path's arrival, from the launching edge).
    """
    points: list[tuple[str, str, str]] = []
    endnets: list[str] = []
    for m in _TAG.finditer(text):
        tag, rest = m.group(1), m.group(2).rstrip("\r")
        if tag == "PATH_POINT":
            f = rest.split("\t")
            if len(f) >= 3:
                points.append((f[0], f[1], f[2]))
        elif tag == "PATH_ENDNET":
            endnets.append(rest.strip())
    if not points:
        return None
    cells: list[str] = []
    last_inst = None
    for pin, ref, _net in points:
        inst = pin.rsplit("/", 1)[0] if "/" in pin else None
        if ref != "-" and inst != last_inst:
            cells.append(ref)
        last_inst = inst
    signals: list[str] = []
    for _pin, _ref, net in points:
        if _named(net) and net not in signals:
            signals.append(net)
    start = points[0][2] if _named(points[0][2]) else points[0][0]
    named_end = [n for n in endnets if _named(n)]
    end = named_end[0] if named_end else (points[-1][2] if _named(points[-1][2]) else points[-1][0])
    if named_end and named_end[0] not in signals:
        signals.append(named_end[0])
    return CriticalPath(
        startpoint=start,
        endpoint=end,
        delay_ps=delay_ps,
        cells=tuple(cells),
        signals=tuple(signals),
    )


def run_sta(
    liberty: Path,
    netlist: Path,
    top: str,
    clocks: Sequence[str],
    period_ns: float,
    workdir: Path,
    *,
    power: bool,
    timeout: float = 120.0,
    memory_mb: int | None = None,
) -> StaResult:
    """One fresh OpenSTA process for one netlist (reads the liberty again).

    Raises:
        ToolFailed: a crash, an error, or missing tagged lines.
        EvaluationTimeout: past ``timeout`` seconds.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    script = workdir / "sta.tcl"
    script.write_text(sta_script(liberty, netlist, top, clocks, period_ns, power=power))
    log_path = workdir / "sta.log"
    # sta sources the -exit file through Tcl, where a space in its path breaks the name
    argv = require_tool("sta").argv("-no_init", "-no_splash", "-exit", script_path(script))
    run = run_tool(
        argv,
        cwd=workdir,
        log_path=log_path,
        limits=Limits(timeout, memory_mb),
        env={"HOME": str(workdir)},
    )
    text = run.output()
    if run.returncode != 0 and "RTLOPT_DONE" not in text:
        raise ToolFailed(
            f"sta exited with {run.returncode}",
            command=list(run.argv),
            returncode=run.returncode,
            log_path=log_path,
            stderr_tail=run.tail(),
        )
    return parse_sta_output(text, power=power, log_path=log_path)
