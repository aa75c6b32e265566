"""The latch row of ``formal/xfaith_model.py``: a latch with a defined enable passes or holds
its data's x in Yosys (``proc -ifx``, then ``async2sync`` or ``clk2fflogic``, ``sat
-enable_undef`` from an x power-up) as iverilog simulates it, for every 3-step sequence of
enable 0/1 and data 0/1/x. (An x reaching the enable stays refused: a latch cell's enable
need not come from an ``if`` that ``proc -ifx`` compares with ``===``.)"""

from __future__ import annotations

import itertools
import re
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.tools

LATCH = "module l(input en, input d, output reg q);\n  always @* if (en) q = d;\nendmodule\n"
STEPS = 3
SEQUENCES = list(itertools.product([(e, d) for e in "01" for d in "01x"], repeat=STEPS))


def _simulated(tmp: Path) -> list[list[str]]:
    """q at each step of every sequence, in iverilog (one instance per sequence)."""
    n = len(SEQUENCES)
    tb = ["module tb;"]
    tb += [f"reg en{i}, d{i}; wire q{i}; l u{i}(.en(en{i}), .d(d{i}), .q(q{i}));" for i in range(n)]
    tb.append("initial begin")
    for k in range(STEPS):
        tb += [f"en{i} = 1'b{s[k][0]}; d{i} = 1'b{s[k][1]};" for i, s in enumerate(SEQUENCES)]
        tb.append('#5 $display("%b", {' + ", ".join(f"q{i}" for i in range(n)) + "}); #5;")
    tb += ["end", "endmodule"]
    (tmp / "l.v").write_text(LATCH)
    (tmp / "tb.v").write_text("\n".join(tb) + "\n")
    subprocess.run(["iverilog", "-o", str(tmp / "tb.vvp"), str(tmp / "l.v"), str(tmp / "tb.v")],
                   check=True, capture_output=True)  # fmt: skip
    run = subprocess.run(["vvp", "-n", str(tmp / "tb.vvp")], check=True, capture_output=True,
                         text=True)  # fmt: skip
    rows = run.stdout.split()[-STEPS:]
    return [[rows[k][i] for k in range(STEPS)] for i in range(n)]


def _proven(tmp: Path, model: str) -> list[list[str]]:
    """q at each step of every sequence, as ``sat -seq`` finds it after ``model``."""
    script = [f"read_verilog {tmp / 'l.v'}", "proc -ifx -noopt", model, "opt_clean"]
    for s in SEQUENCES:
        sets = " ".join(f"-set-at {k + 1} en 1'b{s[k][0]} -set-at {k + 1} d 1'b{s[k][1]}"
                        for k in range(STEPS))  # fmt: skip
        script.append(f"sat -seq {STEPS} -enable_undef -set-init-undef {sets} -show q l")
    (tmp / "l.ys").write_text("\n".join(script) + "\n")
    run = subprocess.run(["yosys", "-s", str(tmp / "l.ys")], check=True, capture_output=True,
                         text=True)  # fmt: skip
    found = re.findall(r"^\s+\d+\s+\\q\s+\S+\s+\S+\s+(\S+)\s*$", run.stdout, re.M)
    return [found[i * STEPS : (i + 1) * STEPS] for i in range(len(SEQUENCES))]


@pytest.mark.parametrize("model", ["async2sync", "clk2fflogic"])
def test_a_latch_with_a_defined_enable_reads_x_as_iverilog(tmp_path: Path, model: str) -> None:
    simulated = _simulated(tmp_path)
    proven = _proven(tmp_path, model)
    assert len(proven) == len(SEQUENCES) == len(simulated)
    differ = [(s, a, b) for s, a, b in zip(SEQUENCES, simulated, proven, strict=True) if a != b]
    assert not differ, differ[:4]
    assert any("x" in q for q in simulated)  # the x is there to be read
