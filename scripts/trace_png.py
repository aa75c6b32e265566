#!/usr/bin/env python3
"""Render a counterexample VCD written by rtlopt (``trace/trace.vcd``) as a PNG waveform.

Reads the VCD with pywellen (the reader behind the Surfer viewer) and draws it with matplotlib,
headless: the inputs, the clock, each output's reference and candidate values (the candidate's
differing samples in red) and the ``mismatch`` marker, over the last cycles up to the first
mismatch.

    python scripts/trace_png.py TRACE.vcd OUT.png [--cycles 12]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pywellen  # noqa: E402

HALF = 5  # ns between samples (rtlopt.evaluate._trace: STEP_NS // 2)


def _text(v: Any, width: int) -> str:
    if v is None:
        return "?"
    if isinstance(v, str):
        return v if width <= 8 or any(c not in "01" for c in v) else f"{int(v, 2):x}"
    return format(v, f"0{width}b") if width <= 8 else f"{v:x}"


def render(vcd: Path, out: Path, cycles: int = 12) -> None:
    wv = pywellen.Waveform(str(vcd))
    sig = {v.full_name: v for v in wv.all_vars()}
    step = sig["rtlopt.step"].signal
    first, last = int(step.value_at(0)), int(step.value_at(10**12))
    times = list(range(0, 10 * (last - first) + 2 * HALF, HALF))
    mark = sig["rtlopt.mismatch"].signal
    fail = next((t for t in times if mark.value_at(t) == 1), times[-1])
    times = [t for t in times if fail - 10 * cycles < t <= fail]
    t0, t1 = times[0], times[-1] + HALF
    rows = [n for n in sig if n.startswith("rtlopt.inputs.")]
    for n in sig:
        if n.startswith("rtlopt.reference."):
            o = n.rsplit(".", 1)[1]
            rows += [n, f"rtlopt.candidate.{o}"]
    rows.append("rtlopt.mismatch")
    fig, ax = plt.subplots(figsize=(11, 0.55 * len(rows) + 0.8), dpi=110)
    for r, name in enumerate(rows):
        y = len(rows) - 1 - r
        var = sig[name]
        w = var.bitwidth
        vals = [var.signal.value_at(t) for t in times]
        ax.text(t0 - 1, y + 0.3, name.removeprefix("rtlopt."), ha="right", va="center", fontsize=9)
        if w == 1:
            xs, ys = [], []
            for t, v in zip(times, vals, strict=True):
                level = 0.6 if str(v) == "1" else 0.0
                xs += [t, t + HALF]
                ys += [y + level, y + level]
            color = "red" if name == "rtlopt.mismatch" else "tab:blue"
            ax.plot(xs, ys, color=color, lw=1.6, drawstyle="steps-post")
            continue
        ref_name = name.replace("candidate", "reference")
        ref = sig[ref_name].signal if name.startswith("rtlopt.candidate.") else None
        start = 0
        for i in range(1, len(times) + 1):
            if i < len(times) and vals[i] == vals[start]:
                continue
            a, b = times[start], times[i - 1] + HALF
            bad = ref is not None and any(
                _text(ref.value_at(times[k]), w) != _text(vals[k], w)
                and "x" not in _text(ref.value_at(times[k]), w)
                for k in range(start, i)
            )
            ax.fill_between([a, b], y, y + 0.6, color="#f4c7c3" if bad else "#e8eef7", lw=0)
            ax.plot([a, b, b, a, a], [y, y, y + 0.6, y + 0.6, y], color="tab:blue", lw=0.8)
            ax.text(
                (a + b) / 2, y + 0.3, _text(vals[start], w), ha="center", va="center", fontsize=8
            )
            start = i
    for t in range(t0 - t0 % 10, t1, 10):
        ax.axvline(t, color="#dddddd", lw=0.5, zorder=0)
        ax.text(
            t + HALF, len(rows) - 0.2, str(first + t // 10), ha="center", fontsize=7, color="gray"
        )
    ax.axvline(fail, color="red", lw=1, ls="--")
    ax.set_xlim(t0 - 0.5, t1 + 0.5)
    ax.set_ylim(-0.3, len(rows) + 0.1)
    ax.set_yticks([])
    ax.set_xlabel("ns (cycle numbers on top; clock rises mid-cycle)")
    ax.set_title(f"counterexample: first mismatch at {fail} ns", fontsize=10, loc="left")
    for s in ("top", "right", "left"):
        ax.spines[s].set_visible(False)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("vcd", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--cycles", type=int, default=12)
    a = p.parse_args()
    render(a.vcd, a.out, a.cycles)


if __name__ == "__main__":
    main()
