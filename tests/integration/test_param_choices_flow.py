"""Parameters a change depends on, checked completely where rtlopt can enumerate them, and
an x-fed instance's own parameters checked where they are the configuration's (real tools).

- A string parameter read only in comparisons with string literals (serv's
  ``RESET_STRATEGY``, read in an ``initial`` block too, so that no proof can take it as an
  input) takes part in the design only through those comparisons: a probe per
  literal and one for every other value are each of its behaviours, so a guard the candidate
  rewrites on it (``==`` turned ``!=`` with the branches swapped) is checked, not refused,
  and a change wrong under one class is refuted there.
- The repository feeding x into one instance (its defaults) and connecting another with other
  parameters: the other configuration's evaluation reads the first instance at the
  defaults, which the defaults' own evaluation proves (cv32e40p_obi_interface's
  ``TRANS_STABLE``: refused as "other parameters than the module's defaults" before).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict, repo_verdict

pytestmark = pytest.mark.tools

CHOOSER = (
    'module m #(parameter MODE = "MINI") (input clk, input rst, input [3:0] a, '
    "output reg [3:0] y);\n"
    '  initial if (MODE == "NONE") y = 4\'d0;\n'
    "  always @(posedge clk)\n"
    '    if (MODE == "NONE") y <= a;\n'
    "    else if (rst) y <= 4'd0;\n"
    "    else y <= a + 4'd1;\nendmodule\n"
)
SWAPPED = (
    'module m #(parameter MODE = "MINI") (input clk, input rst, input [3:0] a, '
    "output reg [3:0] y);\n"
    '  initial if (MODE == "NONE") y = 4\'d0;\n'
    "  always @(posedge clk)\n"
    '    if (MODE != "NONE" && rst) y <= 4\'d0;\n'
    '    else if (MODE != "NONE") y <= 4\'d1 + a;\n'
    "    else y <= a;\nendmodule\n"
)


def test_a_rewritten_guard_on_a_choosing_string_parameter_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, CHOOSER, SWAPPED)
    assert rc == 0, reason


def test_a_change_wrong_only_in_the_other_class_is_refuted_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = SWAPPED.replace("    else y <= a;", "    else y <= ~a;")
    rc, reason = module_verdict(tmp_path, monkeypatch, CHOOSER, broken)
    assert rc == 1 and "MODE=32'd1313820229" in reason, reason


TARGET = (
    "module t #(parameter P = 0) (input clk, input [3:0] a, input [3:0] b, "
    "output reg [3:0] y);\n"
    "  always @(posedge clk) y <= P ? a - b : a + b;\nendmodule\n"
)
PARENT = (
    "module top (input clk, input [3:0] a, output [3:0] y0, output [3:0] y1);\n"
    "  t #(.P(0)) u0 (.clk(clk), .a(a), .b(), .y(y0));\n"
    "  t #(.P(1)) u1 (.clk(clk), .a(a), .b(a), .y(y1));\nendmodule\n"
)


def test_an_x_fed_instance_at_the_defaults_does_not_leave_another_configuration_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = TARGET.replace("P ? a - b : a + b", "(P == 0) ? b + a : a - b")
    files = {"t.v": TARGET, "top.v": PARENT}
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "t.v", cand)
    assert rc == 0, reason
    broken = TARGET.replace("P ? a - b : a + b", "P ? b - a : a + b")
    rc, reason = repo_verdict(tmp_path / "broken", monkeypatch, files, "t.v", broken)
    assert rc == 1 and "P=1" in reason, reason
