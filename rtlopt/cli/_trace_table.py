"""The compact per-cycle table of a replayed counterexample (rich; the CLI only).

Rows: the samples up to and including the first mismatching one (at most ``MAX_ROWS``);
columns: the step, the inputs that change in the rows shown (all of them for a single step),
and for each differing output the reference's and the candidate's value with the differing
digits highlighted. Values up to 16 bits are binary, wider ones hexadecimal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from rtlopt.evaluate import Replay, Sample, load_replay

MAX_ROWS = 16
MAX_INPUTS = 4


def _digits(v: str, width: int) -> str:
    if width <= 16 or any(c not in "01" for c in v):
        return v
    return format(int(v, 2), f"0{(width + 3) // 4}x")


def _marked(ref: str, cand: str, width: int) -> tuple[Text, Text]:
    """The two values, the candidate's differing digits in bold red."""
    a, b = _digits(ref, width), _digits(cand, width)
    t = Text(b)
    if len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y and x != "x":
                t.stylize("bold red reverse", i, i + 1)
    return Text(a), t


def _label(rep: Replay, s: Sample) -> str:
    if not rep.sequential:
        return "-"
    return f"{s.step + rep.first_index}" + ("+" if s.phase else "")


def trace_table(rep: Replay) -> Table:
    """The table of ``rep`` (see the module docstring)."""
    end = rep.first if rep.first >= 0 else len(rep.samples) - 1
    rows = list(rep.samples[max(0, end + 1 - MAX_ROWS) : end + 1])
    inputs = [n for n in rep.inputs if len(rows) == 1 or len({r.inputs.get(n) for r in rows}) > 1][
        :MAX_INPUTS
    ]
    outs = list(rep.samples[end].bad) if rep.first >= 0 else list(rep.outputs)
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    if rep.sequential:
        t.add_column("cycle", justify="right", no_wrap=True)
    for n in inputs:
        t.add_column(n, no_wrap=True, overflow="ellipsis")
    for n in outs[:2]:
        t.add_column(f"{n} ref", no_wrap=True, overflow="ellipsis")
        t.add_column(f"{n} cand", no_wrap=True, overflow="ellipsis")
    for i, s in enumerate(rows):
        cells: list[Text | str] = [_label(rep, s)] if rep.sequential else []
        forced = set(rep.forced) if s.step < rep.forced_steps else set()
        cells += [
            _digits(s.inputs.get(n, "?"), rep.inputs[n]) + ("*" if n in forced else "")
            for n in inputs
        ]
        for n in outs[:2]:
            cells += list(_marked(s.reference.get(n, "?"), s.candidate.get(n, "?"), rep.outputs[n]))
        last = i == len(rows) - 1 and rep.first >= 0
        t.add_row(*cells, style="bold" if last else None)
    return t


def trace_caption(rep: Replay) -> str:
    """Two lines under the table: what it shows, and the VCD."""
    shown = rep.omitted + (rep.first + 1 if rep.first >= 0 else len(rep.samples))
    more = f" (last {MAX_ROWS} of {shown} samples)" if shown > MAX_ROWS else ""
    head = "counterexample" if rep.reproduced else "counterexample NOT reproduced"
    if rep.kind == "netlist":
        head = "synthesized netlist's " + head
    note = f": {rep.note}" if rep.note else ""
    edge = "; '+': after the clock edge" if rep.sequential else ""
    if rep.forced_steps and rep.forced:
        edge += "; '*': the reset the proof starts from (its own first step may show it off)"
    return f"{head}{more}{note}{edge}\nwaveform: {rep.vcd}"


def print_trace(console: Any, path: str) -> None:
    """Print the table and caption of the replay at ``path`` (its ``trace.json``)."""
    from rtlopt.cli._common import escape

    rep = load_replay(Path(path))
    console.print(trace_table(rep))
    console.print(f"[dim]{escape(trace_caption(rep))}[/]", soft_wrap=True)
