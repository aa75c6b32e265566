"""Red-team round 107 (held out, /work/notes/rt107/, on af1e1b30): the string parameters that
only choose, the one-bit width leak and the x-fed instance at other parameters.

- 01: a literal beyond ASCII (``MODE == "é"``) was probed as its Latin-1 byte while the
  tools read the file's UTF-8 bytes: no probe fell in its class. Such a literal now leaves
  the parameter to its other rules (here the guard rule: unchecked).
- 02: a one-bit net holding a comparison of W-wide data with a number computed through
  signals (``{1'b0, {W{1'b1}}} == d1 * ... * d5``, 2**36 - 1) singles out W = 36: one-bit
  nets are width leaks again.
- 03 (a false rejection): an instance fed x at W = 16 made the change unchecked at the top
  level although the parameter check's own run of W = 16 proves the x reading there.
The power screen's two found beside them (an escaped name opening a group, an implicit net)
are unit cases of tests/unit/harness/test_power.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict, repo_verdict

pytestmark = pytest.mark.tools

CHOOSE = (
    'module m #(parameter MODE = "MINI") (input [3:0] a, output [3:0] y);\n'
    '  generate if (MODE == "FULL") begin : g1\n    assign y = a + 4\'d1;\n'
    "  end else begin : g2\n    assign y = a;\n  end endgenerate\nendmodule\n"
)


def test_a_literal_beyond_ascii_is_no_class_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = (
        'module m #(parameter MODE = "MINI") (input [3:0] a, output [3:0] y);\n'
        '  assign y = (MODE == "FULL") ? a + 4\'d1 : (MODE == "\u00e9") ? ~a : a;\nendmodule\n'
    )
    rc, reason = module_verdict(tmp_path, monkeypatch, CHOOSE, cand)
    assert rc == 1, reason


def test_a_one_bit_net_comparing_w_wide_data_with_a_computed_number_is_a_leak(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = (
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
        "  assign y = a;\nendmodule\n"
    )
    muxed = "".join(
        f"  wire [7:0] d{i} = t ? 8'd{v} : 8'd0;\n"
        for i, v in enumerate((189, 185, 247, 73, 109), 1)
    )
    cand = ref.replace(
        "  assign y = a;",
        "  wire t = a[0] | ~a[0];\n" + muxed + "  wire p = ({1'b0, {W{1'b1}}} == d1 * d2 * d3 * "
        "d4 * d5);\n  assign y = p ? ~a : a;",
    )
    rc, reason = module_verdict(tmp_path, monkeypatch, ref, cand)
    assert rc == 1 and "`p`" in reason, reason


M = (
    "module m #(parameter W = 8) (input s, input [W-1:0] b, input [W-1:0] c, "
    "output [W-1:0] y);\n  assign y = s ? b : c;\nendmodule\n"
)
TOP = (
    "module top (input s0, input [7:0] b0, input [7:0] c0, output [7:0] y0,\n"
    "            input [15:0] b1, input [15:0] c1, output [15:0] y1);\n"
    "  m u0 (.s(s0), .b(b0), .c(c0), .y(y0));\n"
    "  m #(.W(16)) u1 (.s(), .b(b1), .c(c1), .y(y1));\nendmodule\n"
)


def test_an_x_fed_instance_at_other_parameters_is_proven_in_its_own_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"m.v": M, "top.v": TOP}
    rc, reason = repo_verdict(
        tmp_path, monkeypatch, files, "m.v", M.replace("s ? b : c", "!s ? c : b")
    )
    assert rc == 0, reason
    # a reading of x that differs at W = 16 only is refuted there
    xdiff = M.replace(
        "  assign y = s ? b : c;",
        "  generate if (W == 16) begin : g16\n    assign y = ({W{s}} & b) | ({W{~s}} & c);\n"
        "  end else begin : gd\n    assign y = s ? b : c;\n  end endgenerate",
    )
    rc, reason = repo_verdict(tmp_path / "x", monkeypatch, files, "m.v", xdiff)
    assert rc == 1 and "W=16" in reason, reason
