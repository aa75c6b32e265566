"""Delays and strengths no proof reads (red team w36 F14 and its strength note): the reference's
``assign #5``, gate and net delays, ``#`` in a process, a ``specify`` path delay, a timing
check whose notifier logic may read, and drive, pull or charge strengths leave every change
unchecked on the Verilog path as on the SystemVerilog view path (one rule:
``harness/_dropped.py``); a candidate with one is screened out on both."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.harness import screen_candidate, screen_preprocessed
from rtlopt.harness._dropped import dropped_problems
from rtlopt.verilog import blank_comments
from tests.unit.harness.test_screen_dropped import _design

HEAD = "module m(input clk, input [7:0] d, output logic [7:0] q);\n"


def _messages(body: str) -> list[str]:
    return [msg for _, _, msg in dropped_problems(blank_comments(HEAD + body + "\nendmodule\n"))]


@pytest.mark.parametrize(
    ("body", "what"),
    [
        ("assign #5 q = d + 8'd1;", "timing control"),
        ("assign #(1, 2) q = d;", "timing control"),
        ("assign #(4) q = d;", "timing control"),  # parenthesized: slang's Delay3
        ("and #(1:2:3, 2) g(q[0], d[0], d[1]);", "timing control"),
        ("wire #3 [7:0] w = d; assign q = w;", "timing control"),  # a net delay
        ("and #2 g(q[0], d[0], d[1]);", "timing control"),  # a gate delay
        ("always @(posedge clk) q <= #1 d;", "timing control"),
        ("assign q = d; specify (d *> q) = 5; endspecify", "specify block (a path delay)"),
        ("assign q = d; specify if (d[0]) (d[1] => q[1]) = 2; endspecify", "path delay"),
        ("assign q = d; specify ifnone (d[1] => q[1]) = 2; endspecify", "path delay"),
        ("reg n; assign q = d; specify $setup(d, posedge clk, 2, n); endspecify", "notifier"),
        ("reg n; assign q = d; specify $period(posedge clk, 3, n); endspecify", "notifier"),
        (
            "wire dc, dd; assign q = d; specify $setuphold(posedge clk, d, 1, 1, , , , dc, dd);"
            " endspecify",
            "notifier",
        ),
        ("assign (weak0, weak1) q = d;", "strength"),
        ("and (strong0, pull1) g(q[0], d[0], d[1]);", "strength"),
        ("wire (weak0, weak1) [7:0] w = d; assign q = w;", "strength"),
        ("trireg (small) w; assign q = {7'd0, w};", "strength"),
        ("pullup (weak1) p(q[0]);", "strength"),
        ("pulldown p(q[0]);", "strength"),
    ],
)
def test_a_delay_or_a_strength_is_found(body: str, what: str) -> None:
    found = _messages(body)
    assert found and what in found[0], (body, found)


@pytest.mark.parametrize(
    "body",
    [
        # timing checks alone and specparams change no value
        "assign q = d; specify $setup(d, posedge clk, 2); $hold(posedge clk, d, 1); endspecify",
        "assign q = d; specify specparam t = 1; $width(posedge clk, t, 0); endspecify",
        "specparam t = 2; assign q = d;",
        "and g(q[0], d[0], d[1]); assign q[7:1] = d[7:1];",
        "wire [7:0] w = d; assign q = w;",
    ],
)
def test_what_no_delay_or_strength_changes_is_not_found(body: str) -> None:
    assert _messages(body) == [], body


REF = "module m(input clk, input [7:0] d, output logic [7:0] q);\n  {body}\nendmodule\n"
PLAIN = REF.format(body="assign q = d + 8'd1;")


@pytest.mark.parametrize("view", [False, True])
@pytest.mark.parametrize(
    ("body", "what"),
    [
        ("assign #5 q = d + 8'd1;", "line 2: a timing control"),
        ("assign q = d + 8'd1;\n  specify (d *> q) = 5; endspecify", "line 3: a timing control"),
        ("assign (weak0, weak1) q = d + 8'd1;", "line 2: a drive, pull or charge strength"),
    ],
)
def test_a_reference_with_a_delay_or_strength_is_unchecked_on_both_paths(
    tmp_path: Path, view: bool, body: str, what: str
) -> None:
    """F14: the Verilog path accepted the reference's delay dropped (the view path did not)."""
    ref = REF.format(body=body)
    design = _design(tmp_path, ref)
    found = screen_candidate(PLAIN, design, dotted_names=view)
    assert found and f"unchecked: the reference module, {what}" in found[0], found
    # the repository's own text is the reference: nothing to judge
    assert screen_candidate(ref, design, dotted_names=view) == []


@pytest.mark.parametrize("view", [False, True])
def test_a_candidate_with_a_strength_is_screened_on_both_paths(tmp_path: Path, view: bool) -> None:
    design = _design(tmp_path, PLAIN)
    cand = PLAIN.replace("assign q", "assign (strong0, weak1) q")
    found = screen_candidate(cand, design, dotted_names=view)
    assert any("line 2: a drive, pull or charge strength" in f for f in found), found


def test_a_reference_delay_behind_a_macro_is_unchecked_on_the_verilog_path(
    tmp_path: Path,
) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "defs.vh").write_text("`define DLY #1\n")
    head = '`include "defs.vh"\n'
    ref = head + REF.format(body="always @(posedge clk) q <= `DLY d;")
    design = _design(tmp_path, ref, (tmp_path / "inc",))
    cand = head + REF.format(body="always @(posedge clk) q <= d;")
    found = screen_candidate(cand, design)
    assert found and "unchecked: the reference module" in found[0], found
    assert "timing control" in found[0]


def test_the_preprocessed_reference_is_judged_on_the_verilog_path(tmp_path: Path) -> None:
    """The text every tool reads on the Verilog path (macros expanded, modules renamed)."""
    design = _design(tmp_path, PLAIN)
    reference = REF.format(body="assign #1 q = d + 8'd1;").replace("module m(", "module m_ref(")
    cand = PLAIN.replace("8'd1", "8'h01")
    assert screen_preprocessed(cand, cand, design) == []
    found = screen_preprocessed(cand, cand, design, reference=reference)
    assert any(
        "unchecked: the reference as the tools read it (preprocessed), line 2: a timing" in f
        for f in found
    ), found


@pytest.mark.parametrize("view", [False, True])
@pytest.mark.parametrize(
    "ref",
    [
        "`timescale 1ns / 1ps\n" + PLAIN,
        REF.format(
            body="assign q = d + 8'd1;\n  specify\n    $setup(d, posedge clk, 2);\n  endspecify"
        ),
    ],
)
def test_a_timescale_or_timing_checks_alone_leave_the_reference_checked(
    tmp_path: Path, view: bool, ref: str
) -> None:
    design = _design(tmp_path, ref)
    assert screen_candidate(PLAIN.replace("8'd1", "8'h01"), design, dotted_names=view) == []
