"""A power whose exponent reads a signal is screened (round 94): iverilog's run time reads a
negative exponent otherwise than IEEE 1800 and both proofs; a constant exponent is folded at
elaboration (a parameter's value is compared with iverilog's by the compile stage)."""

from __future__ import annotations

import pytest

from rtlopt.harness._power import power_problems


@pytest.mark.parametrize(
    ("code", "refused"),
    [
        ("assign y = a ** k;", True),
        ("assign y = a ** $signed(b);", True),
        ("assign y = a ** (k + 1);", True),
        ("assign y = a ** 2;", False),
        ("localparam AW = 4; localparam D = 2 ** AW;", False),
        ("parameter W = 3; assign y = x + 2 ** (W - 1);", False),
    ],
)
def test_a_power_with_a_run_time_exponent_is_screened(code: str, refused: bool) -> None:
    assert bool(power_problems(code, lambda: [])) is refused
    assert power_problems(code, lambda: [code]) == []  # the reference's own power
