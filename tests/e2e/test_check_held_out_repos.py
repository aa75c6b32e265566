"""`rtlopt check` on patterns of public repositories the suite had not seen (secworks'
chacha): a rotation rewritten from a concatenation into shifts of a block-local variable is
no time-0 change; two testbenches that both name their instance ``dut``, one of the target
and one of its parent, do not make the parent's names the target's; where a testbench does
reach into the target (prints or writes its inner signals), a broken edit is still refuted
with its failing input, and an equivalent one is unchecked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

QR = """module qr(input [31:0] a, input [31:0] d, output [31:0] y);
  reg [31:0] r;
  assign y = r;
  always @*
    begin : blk
      reg [31:0] d0;
      reg [31:0] d1;
      d0 = d ^ a;
      d1 = {d0[15:0], d0[31:16]};
      r = d1 + a;
    end
endmodule
"""

TB = """module tb;
  reg [31:0] a, d;
  wire [31:0] y;
  qr dut(.a(a), .d(d), .y(y));
  initial begin
    a = 1; d = 2;
    #1 $display("y = %h", dut.y);
    $finish;
  end
endmodule
"""


def _repo(tmp_path: Path, tb: str = TB) -> Path:
    repo = tmp_path / "repo"
    (repo / "rtl").mkdir(parents=True)
    (repo / "tb").mkdir()
    (repo / "rtl" / "qr.v").write_text(QR)
    (repo / "tb" / "tb_qr.v").write_text(tb)
    (repo / "rtlopt.toml").write_text('[check]\noptimization_only = ["*"]\nppa = false\n')
    git(repo, "init", "-q", "-b", "main", ".")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return repo


def _check(repo: Path, text: str) -> tuple[int, dict]:
    (repo / "rtl" / "qr.v").write_text(text)
    git(repo, "add", "rtl/qr.v")
    r = rtlopt(["check", "--json"], repo)
    assert r.returncode in (0, 1), r.stdout[-2000:] + r.stderr[-2000:]
    [m] = json.loads(r.stdout)["modules"]
    return r.returncode, m


def test_an_equivalent_rotation_rewrite_passes(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    rc, m = _check(repo, QR.replace("{d0[15:0], d0[31:16]}", "(d0 << 16) | (d0 >> 16)"))
    assert rc == 0 and m["equivalence"] == "proven", m


TOP = """module top(input clk, input [31:0] a, output [31:0] y);
  reg [31:0] d;
  always @(posedge clk) d <= y;
  qr u_qr(.a(a), .d(d), .y(y));
endmodule
"""

#: ``dut`` is an instance of qr in tb/tb_qr.v and of top here (as in secworks' testbenches)
TB_TOP = """module tb_top;
  reg clk = 0;
  wire [31:0] y;
  top dut(.clk(clk), .a(32'd1), .y(y));
  initial begin
    dut.d = 32'h0;
    @(posedge dut.d[0]);
    {tail}
  end
endmodule
"""


@pytest.mark.parametrize(
    ("tail", "passes"),
    [("$finish;", True), ("dut.u_qr.blk.d1 = 0;", False)],
    ids=["into_the_parent", "on_into_the_target"],
)
def test_a_testbench_naming_another_modules_instance_like_the_target_s(
    tmp_path: Path, tail: str, passes: bool
) -> None:
    """``dut.d`` of the second testbench names the parent's register, not the target's
    ``dut`` of the first; a name that goes on into the target is still found."""
    repo = _repo(tmp_path)
    (repo / "rtl" / "top.v").write_text(TOP)
    (repo / "tb" / "tb_top.v").write_text(TB_TOP.replace("{tail}", tail))
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "top")
    rc, m = _check(repo, QR.replace("d0 = d ^ a;", "d0 = a ^ d;"))
    if passes:
        assert rc == 0 and m["equivalence"] == "proven", m
    else:
        assert rc == 1 and "(u_qr.blk)" in m["findings"][0], m


#: prints inner signals of qr (as chacha's testbenches do): the repository reaches into qr
PRINTING_TB = TB.replace('$display("y = %h", dut.y);', '$display("d0 = %h", dut.blk.d0);')
#: writes one: the repository reaches into qr
WRITING_TB = TB.replace("$finish;", "dut.blk.d1 = 0;\n    $finish;")


@pytest.mark.parametrize("tb", [PRINTING_TB, WRITING_TB], ids=["printing", "writing"])
def test_where_the_repository_reaches_past_the_ports_a_broken_edit_is_refuted(
    tmp_path: Path, tb: str
) -> None:
    """What reaches past the ports leaves an equivalent edit unchecked, never a broken one
    unrefuted: the difference at the ports is shown with its failing input (a rare input
    that only the proof finds, here)."""
    repo = _repo(tmp_path, tb)
    rc, m = _check(repo, QR.replace("r = d1 + a;", "r = d1 + a + (a == 32'h5eed1e55);"))
    assert rc == 1 and m["equivalence"] == "refuted", m
    assert "reaches into" not in m["findings"][0], m
    assert any(n.startswith("failing input") and "0x5eed1e55" in n for n in m["notes"]), m
    rc, m = _check(repo, QR.replace("d0 = d ^ a;", "d0 = a ^ d;"))
    assert rc == 1 and "reaches into an instance of qr" in m["findings"][0], m
