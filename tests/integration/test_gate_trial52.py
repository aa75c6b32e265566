"""Held-out gate trial 52 (an include-organized arbiter repository, its testbenches not
elaborated): no correct edit of its modules could pass `rtlopt check`.

* where every input may be x (a testbench rtlopt does not elaborate drives them), a
  synchronous reset is x-fed too, and the x-faithfulness proof refused any x-fed reset; from
  power-up with the resets free it is one more input (an asynchronous one reaches a register's
  reset pin, which the proof's cone check refuses);
* a module with an ```ifdef`` configuration (a ``VERBOSE`` report) was unchecked wherever the
  repository feeds x: each other configuration is an evaluation of its own, with its own
  x-faithfulness proof, and one that differs only by a block that reports is no other
  configuration;
* a file that includes the modules it instantiates re-judged those modules in its own text,
  where they did not build; a module whose expanded text is the base's is the base's module;
* ``&(~a | ~b)`` for ``~|(a & b)`` over a parameter's width was "data whose width follows the
  parameters in a fixed-width net": a reduction of a bitwise expression wraps nothing.

Each case with its broken twin (real tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import repo_verdict
from _gate_repo import check_staged, gate_repo

pytestmark = pytest.mark.tools

SYNC = (
    "module sr (input clk, input rst, input d, output reg q);\n"
    "  always @(posedge clk)\n    if (rst) q <= 1'b0;\n    else q <= {next};\n"
    "endmodule\n"
)
TOP = "module top (input clk, input d, output q);\n  sr u (.clk(clk), .d(d), .q(q));\nendmodule\n"


@pytest.mark.parametrize(
    ("body", "accepted"),
    [("d ^ 1'b0", True), ("d & ~rst", False)],
    ids=["equivalent", "x-differs-on-the-reset"],
)
def test_an_x_fed_synchronous_reset_is_proven_from_power_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, accepted: bool
) -> None:
    """``top`` leaves ``rst`` open: it is x. ``q <= d & ~rst`` is ``q <= d`` after the reset
    branch on 0/1, but with rst x it stores x where ``if (rst)`` takes ``else``."""
    files = {"sr.v": SYNC.format(next="d"), "top.v": TOP}
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "sr.v", SYNC.format(next=body))
    assert (rc == 0) == accepted, reason
    if not accepted:
        assert "not equivalent" in reason and "rst@1=x" in reason, reason


CONFIGURED = (
    "module t (input a, input b, output y);\n  wire c = {c};\n"
    "`ifdef ALT\n  assign y = c;\n`else\n  assign y = 1'b0;\n`endif\n"
    '`ifdef VERBOSE\n  initial $display("t with %d", 1);\n`endif\nendmodule\n'
)
OPEN = "module top (output y);\n  t u (.y(y));\nendmodule\n"


@pytest.mark.parametrize(
    ("c", "accepted"),
    [("b & a", True), ("(a & b) | (a & ~a)", False)],
    ids=["equivalent", "x-differs-only-with-ALT"],
)
def test_each_configuration_has_its_own_x_faithfulness_proof(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, c: str, accepted: bool
) -> None:
    """Both inputs are x (``top`` connects neither). The flow's build outputs 0 whatever c is;
    with ALT defined, y is c: a=x, b=0 gives 0 for ``a & b`` and x for the broken c. VERBOSE
    only reports: no configuration of its own."""
    repo = gate_repo(tmp_path, monkeypatch, {"t.v": CONFIGURED.format(c="a & b"), "top.v": OPEN})
    (repo / "t.v").write_text(CONFIGURED.format(c=c))
    r = check_staged(repo)
    out = r.stdout + r.stderr
    assert r.returncode == (0 if accepted else 1), out
    assert "VERBOSE defined" not in out, out
    if not accepted:
        assert "in the configuration ALT defined" in out and "a=x" in out, out


TIMER = (
    "`ifndef TIMER_V\n`define TIMER_V\nmodule timer (input clk, input rst, input go, "
    "output done);\n  reg [3:0] n;\n  assign done = {done};\n  always @(posedge clk)\n"
    "    if (rst) n <= 4'd0;\n    else if (go) n <= n + 4'd1;\nendmodule\n`endif\n"
)
EXAMPLE = (
    '`include "timer.v"\nmodule example (input clk, input rst, input go, output y);\n'
    "  wire {w};\n  timer u (.clk(clk), .rst(rst), .go(go), .done({w}));\n"
    "  assign y = {w};\nendmodule\n"
)


@pytest.mark.parametrize(
    ("timer", "example", "accepted"),
    [
        ("4'd9 == n", "t_done", True),
        ("n == 4'd9", "t_done", True),
        ("4'd9 == n", "td2", True),
        ("n == 4'd8", "t_done", False),
    ],
    ids=["timer-operands-swapped", "unchanged", "includer-wire-renamed", "timer-broken"],
)
def test_an_include_organized_repository_judges_each_module_once(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    timer: str,
    example: str,
    accepted: bool,
) -> None:
    """``example.v`` includes ``timer.v``: an edit of the timer is judged in timer.v alone
    (its instance in example.v is one of its configurations), an edit of example.v judges
    example, never timer again as a module of example.v."""
    files = {
        "timer.v": TIMER.format(done="n == 4'd9"),
        "example.v": EXAMPLE.format(w="t_done"),
    }
    repo = gate_repo(tmp_path, monkeypatch, files)
    (repo / "timer.v").write_text(TIMER.format(done=timer))
    (repo / "example.v").write_text(EXAMPLE.format(w=example))
    r = check_staged(repo)
    out = r.stdout + r.stderr
    assert r.returncode == (0 if accepted else 1), out
    assert "already a module of the repository" not in out, out
    assert "has already been declared" not in out, out
    if timer != "n == 4'd9":
        assert "timer (reached)" not in out, out
    if not accepted:
        assert "not equivalent" in out, out


ARB = (
    "module arb #(parameter N = 4) (input [N-1:0] t, input [N-1:0] r, output y);\n"
    "  wire next;\n  assign next = {next};\n  assign y = next;\nendmodule\n"
)


@pytest.mark.parametrize(
    ("next_", "accepted"),
    [("&(~t | ~r)", True), ("~^(t & r)", False)],
    ids=["de-morgan", "another-reduction"],
)
def test_a_reduction_of_a_parameter_wide_bitwise_value_is_probed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, next_: str, accepted: bool
) -> None:
    """A module nothing instantiates: N is its interface. ``~^`` is ``~|`` at no width the
    probes try as one (t & r = 0...01 gives 0 and 1 apart)."""
    files = {"arb.v": ARB.format(next="~|(t & r)")}
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "arb.v", ARB.format(next=next_))
    assert (rc == 0) == accepted, reason
    if accepted:
        assert "width follows the module's parameters" not in reason, reason


PARITY = (
    "module m #(parameter A = 8, parameter B = 7) (input [A-1:0] a, input [B-1:0] b,\n"
    "    output [A-1:0] y);\n{body}endmodule\n"
)


def test_a_parity_of_two_widths_is_no_uniform_reduction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red-team round 125 (case 03): `^(~ta)` is the parity of A's width; with B's it singles
    out A odd and B even, a pair no probe tries (each parameter is probed alone)."""
    body = (
        "  wire [A-1:0] ta = 0;\n  wire [B-1:0] tb = 0;\n  wire pa = ^(~ta);\n"
        "  wire pb = ^(~tb);\n  assign y = (pa & ~pb) ? a : ~a;\n"
    )
    files = {"m.v": PARITY.format(body="  assign y = ~a;\n")}
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "m.v", PARITY.format(body=body))
    assert rc == 1, reason
