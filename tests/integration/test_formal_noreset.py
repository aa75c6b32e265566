"""Registers without reset in the formal check (issue 16, class 7), real Yosys and yosys-abc.

* Register correspondence does not depend on names: registers renamed (several of one width,
  one stored complemented) are paired by their next-state functions and the rewrite is
  proven from every power-up state of paired registers; the result says so.
* A difference that shows from *every* power-up state is refuted (x power-up model, outputs
  defined on both sides), and its counterexample replays in iverilog from an x power-up.
* A partially reset design whose un-reset carry registers are added in another order (x
  pessimism of the gate-level x model, serv_ctrl's case) is proven from a free power-up
  state.
* Broken designs are never proven.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.results import FormalResult, Verdict

pytestmark = pytest.mark.tools

# two 4-bit shift/accumulate registers of one width and a flag, no reset
PAIR = """module pair(input clk, input en, input [3:0] d, output [3:0] y, output f);
  reg [3:0] a;
  reg [3:0] b;
  reg flag;
  always @(posedge clk) begin
    if (en) a <= a + d;
    b <= a ^ b;
    flag <= en & ~flag;
  end
  assign y = a ^ {b[2:0], b[3]};
  assign f = flag | b[0];
endmodule
"""

# renamed and swapped (a is `u`, b is `t`, declared the other way round); the flag is held
# complemented
PAIR_RENAMED = """module pair(input clk, input en, input [3:0] d, output [3:0] y, output f);
  reg [3:0] t;
  reg [3:0] u;
  reg nflag;
  always @(posedge clk) begin
    t <= t ^ u;
    u <= en ? d + u : u;
    nflag <= ~(en & nflag);
  end
  assign y = {t[2:0], t[3]} ^ u;
  assign f = t[0] | ~nflag;
endmodule
"""

# broken: the second register xors in the input instead of `a` (differs only in state)
PAIR_BROKEN = PAIR_RENAMED.replace("t <= t ^ u;", "t <= t ^ d;")

# a decoder with a 24-stage delay line, no reset: its output depends on the input 24 cycles
# earlier only, so a difference shows whatever the power-up state, deeper than Yosys's bounded
# check (20 cycles) looks
DEC = """module dec(input clk, input [2:0] s, output y);
  reg [23:0] line;
  always @(posedge clk) line <= {line[22:0], s == 3'd5};
  assign y = line[23];
endmodule
"""
DEC_BROKEN = """module dec(input clk, input [2:0] s, output y);
  reg [23:0] pipe;
  always @(posedge clk) pipe <= {pipe[22:0], s[2] & s[0]};
  assign y = pipe[23];
endmodule
"""

# serv_ctrl-like: a program counter shifted in bit-serially from two serial adders whose
# carry registers have no reset (the counter has a synchronous one). The rewrite adds each
# carry first: in the gate-level x model a carry-out is then x where the reference's order
# gives a defined value (x + 1 + 1), so the x power-up model only finds x pessimism
CTL = """module ctl(input clk, input rst, input en, input jump, input c2, input imm, output [7:0] adr, output rd);
  reg cy4, cyo;
  reg [7:0] pc;
  wire [1:0] p4 = pc[0] + c2 + cy4;
  wire [1:0] po = pc[0] + imm + cyo;
  wire nb = jump ? po[0] : p4[0];
  always @(posedge clk) begin
    cy4 <= en & p4[1];
    cyo <= en & po[1];
    if (en | rst) pc <= rst ? 8'd0 : {nb, pc[7:1]};
  end
  assign adr = pc;
  assign rd = p4[0] & jump;
endmodule
"""
CTL_REORDERED = """module ctl(input clk, input rst, input en, input jump, input c2, input imm, output [7:0] adr, output rd);
  reg inc_q, tgt_q;
  reg [7:0] pc;
  wire [1:0] ci = inc_q;
  wire [1:0] ct = tgt_q;
  wire [1:0] inc = ci + c2 + pc[0];
  wire [1:0] tgt = ct + imm + pc[0];
  always @(posedge clk) begin
    tgt_q <= tgt[1] & en;
    inc_q <= inc[1] & en;
    if (rst) pc <= 8'd0;
    else if (en) pc <= {!jump ? inc[0] : tgt[0], pc[7:1]};
  end
  assign adr = pc;
  assign rd = jump & inc[0];
endmodule
"""
# broken: the target adder's carry is kept while disabled
CTL_BROKEN = CTL_REORDERED.replace("tgt_q <= tgt[1] & en;", "tgt_q <= tgt[1];")


def _design(tmp_path: Path, name: str, text: str) -> Design:
    repo = tmp_path / "repo"
    repo.mkdir(exist_ok=True)
    f = repo / f"{name}.v"
    f.write_text(text)
    return load_design(f, name, ProjectConfig())


def _check(tmp_path: Path, design: Design, text: str, timeout: float = 60) -> FormalResult:
    work = tmp_path / f"work_{abs(hash(text)) % 10**8}"
    work.mkdir()
    cand = work / "candidate.v"
    cand.write_text(text)
    return check_equivalence(design, [cand], work / "formal", FormalConfig(timeout_s=timeout))


def test_renamed_registers_of_one_width_are_paired_by_function(tmp_path: Path) -> None:
    d = _design(tmp_path, "pair", PAIR)
    res = _check(tmp_path, d, PAIR_RENAMED)
    assert res.verdict is Verdict.PROVEN, res
    assert "free power-up state" in res.method
    # the result says what was proven and how the registers were paired
    assert res.reason.startswith("equivalent from every power-up state in which paired"), res
    assert "9 of 9 reference register bits paired with candidate bits (9 by next-state" in (
        res.reason
    )


def test_a_state_only_difference_is_never_proven(tmp_path: Path) -> None:
    d = _design(tmp_path, "pair", PAIR)
    res = _check(tmp_path, d, PAIR_BROKEN)
    assert res.verdict is not Verdict.PROVEN, res


def _replay(
    tmp_path: Path, ref: str, cand: str, cex: Mapping[str, str], outputs: list[str]
) -> bool:
    """Simulate both designs in iverilog (registers x at power-up) on the counterexample's
    inputs; True when an output differs (defined on both sides) at the counterexample's
    cycle."""
    cycle = int(cex["cycle"])
    ports = sorted({k.split("@")[0] for k in cex if "@" in k})
    name = re.search(r"module\s+(\w+)", ref)
    assert name is not None
    top = name.group(1)
    widths = {p: len(cex[f"{p}@0"]) for p in ports}
    decl = "".join(f"  reg [{widths[p] - 1}:0] {p};\n" for p in ports)
    conn = ", ".join(f".{p}({p})" for p in ports)
    outs = "".join(f"  wire [63:0] r_{o}, c_{o};\n" for o in outputs)
    oconn = ", ".join(f".{o}(r_{o})" for o in outputs)
    cconn = ", ".join(f".{o}(c_{o})" for o in outputs)
    steps = ""
    for f in range(cycle + 1):
        steps += "".join(f"    {p} = {widths[p]}'b{cex[f'{p}@{f}']};\n" for p in ports)
        steps += "    #1;\n"
        if f == cycle:
            for o in outputs:
                steps += f'    $display("OUT {o} %b %b", r_{o}, c_{o});\n'
        steps += "    clk = 1; #1; clk = 0;\n"
    tb = (
        f"module tb;\n  reg clk = 0;\n{decl}{outs}"
        f"  {top} ref_i(.clk(clk), {conn}, {oconn});\n"
        f"  {top}_c cand_i(.clk(clk), {conn}, {cconn});\n"
        f"  initial begin\n{steps}    $finish;\n  end\nendmodule\n"
    )
    cand_renamed = re.sub(rf"module\s+{top}\b", f"module {top}_c", cand, count=1)
    src = tmp_path / "replay.v"
    src.write_text(ref + cand_renamed + tb)
    subprocess.run(["iverilog", "-o", str(tmp_path / "replay.vvp"), str(src)], check=True)
    out = subprocess.run(
        ["vvp", "-n", str(tmp_path / "replay.vvp")], capture_output=True, text=True, check=True
    ).stdout
    for line in out.splitlines():
        if line.startswith("OUT "):
            _, _, r, c = line.split()
            if "x" not in r + c and r != c:
                return True
    return False


def test_a_difference_from_every_power_up_state_is_refuted_and_replays(tmp_path: Path) -> None:
    d = _design(tmp_path, "dec", DEC)
    res = _check(tmp_path, d, DEC_BROKEN)
    assert res.verdict is Verdict.REFUTED, res
    assert res.method == "abc bmc3" and "from every power-up state" in res.reason
    assert res.counterexample["expected y"] != res.counterexample["got y"]
    assert int(res.counterexample["cycle"]) >= 23
    assert _replay(tmp_path, DEC, DEC_BROKEN, res.counterexample, ["y"])


def test_x_pessimism_of_a_carry_without_reset_is_proven(tmp_path: Path) -> None:
    d = _design(tmp_path, "ctl", CTL)
    res = _check(tmp_path, d, CTL_REORDERED, timeout=90)
    assert res.verdict is Verdict.PROVEN, res
    # the paired engine (targets with reset) or the free power-up proof after the x model
    assert "paired" in res.method or "free power-up state" in res.method, res
    assert "paired" in res.reason and "power-up state" in res.reason


def test_a_carry_kept_while_disabled_is_never_proven(tmp_path: Path) -> None:
    d = _design(tmp_path, "ctl", CTL)
    res = _check(tmp_path, d, CTL_BROKEN, timeout=90)
    assert res.verdict is not Verdict.PROVEN, res
