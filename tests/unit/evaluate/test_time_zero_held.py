"""Simulation time 0 with a top's inputs held by the environment (``evaluate/_time_zero_held.py``):
a testbench outside the repository may hold them by initializers (``logic i = 0;``), so no
block waiting only for what they reach runs at time 0. Judged on the candidate's side: x
longer than the reference is unchecked, defined earlier is a refinement (pyslang only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._time_zero import time_zero_change
from rtlopt.frontend import load_design
from rtlopt.frontend._time_zero import evented_inputs

_HEAD = "module m(input [3:0] i, input [3:0] j, input en, output reg [3:0] y);\n"
ASSIGN = _HEAD.replace("output reg", "output") + "  assign y = i ^ j;\nendmodule\n"
AT_STAR = _HEAD + "  always @* y = i ^ j;\nendmodule\n"
#: the block waits for a net the inputs reach (v changes only on some changes of i and en)
THROUGH_NET = _HEAD + ("  wire [3:0] v = i & {4{en}};\n  always @* y = v ^ j;\nendmodule\n")
#: waits for the inputs themselves: wakes whenever the net's block does
DIRECT = _HEAD + "  always @* y = (i & {4{en}}) ^ j;\nendmodule\n"
#: a whole copy of an input: every event of i is one of t
COPY = _HEAD + "  wire [3:0] t = i;\n  always @* y = (t & {4{en}}) ^ j;\nendmodule\n"
_HELD_TOP = "module top(input [3:0] i, input [3:0] j, output [3:0] y);\n" + (
    "  m u(.i(i), .j(j), .en(1'b1), .y(y));\nendmodule\n"
)
#: the repository's own testbench drives every input at time 0 (an initial write, a constant)
_DRIVING_TB = (
    "module tb;\n  reg [3:0] i, j; wire [3:0] y;\n  initial begin i = 0; j = 1; #5 i = 2; end\n"
    "  m u(.i(i), .j(j), .en(1'b1), .y(y));\nendmodule\n"
)


def _design(tmp_path: Path, m: str, top: str = "") -> object:
    (tmp_path / "m.v").write_text(m)
    if top:
        (tmp_path / "top.v").write_text(top)
    return load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)


@pytest.mark.parametrize("top", ["", _HELD_TOP], ids=["target_is_top", "under_a_top"])
def test_a_block_x_longer_than_the_reference_is_unchecked(tmp_path: Path, top: str) -> None:
    """Round 60's f33: ``always @* y = i ^ j`` for ``assign``: x until the environment first
    changes an input, where the reference is defined at time 0."""
    design = _design(tmp_path, ASSIGN, top)
    held = evented_inputs(design, environment=False)  # type: ignore[arg-type]
    assert {"i", "j"} <= evented_inputs(design) and not {"i", "j"} & held  # type: ignore[arg-type]
    why = time_zero_change(design, ASSIGN, AT_STAR)  # type: ignore[arg-type]
    assert "hold a top's inputs" in why and "line 2" in why, why


def test_defined_earlier_than_the_reference_is_a_refinement(tmp_path: Path) -> None:
    design = _design(tmp_path, AT_STAR)
    assert time_zero_change(design, AT_STAR, ASSIGN) == ""  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("ref", "cand", "unchecked"),
    [
        (THROUGH_NET, DIRECT, False),  # wakes on every event the reference's net makes
        (DIRECT, THROUGH_NET, True),  # i changing while en = 0 wakes only the reference
        (DIRECT, COPY, False),  # t = i changes whenever i does
        (DIRECT, COPY.replace("wire [3:0] t = i;", "wire [3:0] t = i & j;"), True),
        (DIRECT, COPY.replace("wire [3:0] t = i;", "wire [2:0] t = i;"), True),
    ],
    ids=["net_to_inputs", "inputs_to_net", "whole_copy", "not_a_copy", "narrower_copy"],
)
def test_the_candidate_must_wake_whenever_the_reference_does(
    tmp_path: Path, ref: str, cand: str, unchecked: bool
) -> None:
    design = _design(tmp_path, ref)
    why = time_zero_change(design, ref, cand)  # type: ignore[arg-type]
    assert (why != "") == unchecked, why


def test_the_repositorys_own_testbench_is_read_not_held(tmp_path: Path) -> None:
    """Where the repository's testbench drives every input at time 0, nothing is held."""
    design = _design(tmp_path, ASSIGN, _DRIVING_TB)
    assert evented_inputs(design, environment=False) == {"i", "j", "en"}  # type: ignore[arg-type]
    assert time_zero_change(design, ASSIGN, AT_STAR) == ""  # type: ignore[arg-type]


#: C910's LZA: a net the block waits for, assigned with whole-range selects
_PRECODE = (
    "module m(input [3:0] i, input [3:0] j, input en, output reg [3:0] y);\n  wire [3:0] p;\n"
    "  assign p[3:0] = i[3:0] ^ j[3:0];\n  always @(p) y = p;\nendmodule\n"
)


@pytest.mark.parametrize(
    ("cand", "unchecked"),
    [
        # the same value as a declaration's initializer, without the whole-range selects
        (
            _PRECODE.replace(
                "  wire [3:0] p;\n  assign p[3:0] = i[3:0] ^ j[3:0];", "  wire [3:0] p = i ^ j;"
            ),
            False,
        ),
        # another value: its events differ
        (_PRECODE.replace("i[3:0] ^ j[3:0]", "i[3:0] ^ j[3:1]"), True),
    ],
    ids=["one_form", "other_value"],
)
def test_what_a_kept_block_waits_for_is_compared_in_one_form(
    tmp_path: Path, cand: str, unchecked: bool
) -> None:
    design = _design(tmp_path, _PRECODE)
    why = time_zero_change(design, _PRECODE, cand)  # type: ignore[arg-type]
    assert (why != "") == unchecked, why
