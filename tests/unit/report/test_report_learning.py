"""The learning telemetry as the terminal and report.md show it (issue 32)."""

from __future__ import annotations

from typing import Any

from rtlopt.report import learning_line, learning_section, no_update_note


def _rec(step: int, updated: bool, **kw: Any) -> dict[str, Any]:
    base = {"step": step, "updated": updated, "samples": 2 if updated else 0, "loss": None}
    return {**base, **kw}


def test_the_line_says_whether_the_weights_changed() -> None:
    up = _rec(1, True, loss=0.41, grad_norm=1.3, kl_ref=0.002, trunc_frac=0.5, logprob_gap=1e-6)
    assert learning_line(up).startswith("updated: 2 samples, loss 0.41, |g| 1.3")
    assert "50% cut off" in learning_line(up) and "logprob gap" in learning_line(up)
    assert learning_line(_rec(1, False)).startswith("no update (0 samples)")
    assert learning_line({"step": 1}) == "learning: not recorded"  # an older run's record


def test_a_run_without_any_update_says_so() -> None:
    none = [_rec(1, False), _rec(2, False)]
    note = no_update_note(none)
    assert note is not None and "no step updated the policy's weights (2 steps)" in note
    assert no_update_note([_rec(1, False), _rec(2, True)]) is None
    assert no_update_note(none, trainable=False) is None  # a frozen policy is not meant to
    assert no_update_note([{"step": 1}]) is None  # older runs: nothing claimed
    section = learning_section(none, trainable=True)
    assert section[0] == "## Learning" and section[2].startswith("No step updated")
    assert "| 2 | no | 0 |" in "\n".join(section)
    ok = learning_section([_rec(1, True, loss=1.0)], trainable=True)
    assert "1 of 1 steps updated the policy's weights." in ok
    assert learning_section([{"step": 1}], trainable=True) == []


def test_cut_off_masked_think_closed_and_ties_are_shown() -> None:
    rec = _rec(1, True, loss=0.4, grad_norm=1.0, trunc_frac=0.5, masked=1, think_closed=2, tied=3)
    line = learning_line(rec)
    assert "50% cut off (1 masked)" in line
    assert "2 think blocks closed at the budget" in line and "3 tied within the noise floor" in line
    assert "masked" not in learning_line(_rec(1, True, trunc_frac=0.0, masked=0))
    table = "\n".join(learning_section([rec], trainable=True))
    assert "| cut off | masked | think closed | tied |" in table
    assert "| 50% | 1 | 2 | 3 |" in table
    old = "\n".join(learning_section([_rec(1, True, trunc_frac=0.25)], trainable=True))
    assert "| 25% | - | - | - |" in old  # a run of an older version: not recorded
