"""Unit tests: a compile failure says what failed (first errors with file:line)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.evaluate._evaluator import compile_error_summary


def test_first_errors_with_file_and_line_relative_to_the_scratch(tmp_path: Path) -> None:
    scratch = tmp_path / "00001-cand"
    errors = [f"{scratch}/candidate.v:{n}: error: Unable to bind wire `q{n}'" for n in (2, 3, 5, 9)]
    text = compile_error_summary(errors, "\n".join(errors), scratch)
    assert text == (
        "candidate.v:2: error: Unable to bind wire `q2'; "
        "candidate.v:3: error: Unable to bind wire `q3'; "
        "candidate.v:5: error: Unable to bind wire `q5' (+1 more)"
    )


def test_without_recognised_error_lines_the_log_speaks(tmp_path: Path) -> None:
    out = "I give up.\n"
    assert compile_error_summary([], out, tmp_path) == "I give up."
