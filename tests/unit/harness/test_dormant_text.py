"""What the skipped-branch patterns read as a declaration: whole names only (a pattern that
could split a name into two "words" read ``ab = 1`` as a declaration and took seconds per
line on long macro expansions: 28 s of every ibex_compressed_decoder evaluation)."""

from __future__ import annotations

import pytest

from rtlopt.harness._dormant import POWER_UP_TEXT


@pytest.mark.parametrize(
    "code",
    [
        "logic [7:0] ab = 8'h5a;",
        "pkg::state_e st = IDLE;",
        "(* keep *) reg r = 1'b0;",
        "int unsigned count = 0;",
        "logic [7:0] pad, r = 8'd0;",
    ],
)
def test_a_declaration_with_an_initializer_is_read(code: str) -> None:
    assert POWER_UP_TEXT.search(code)


@pytest.mark.parametrize(
    "code",
    [
        "ab = 1;",
        "state_q = IDLE;",
        'uvm_pkg::uvm_report_error("ASSERT FAILED", "Known", uvm_pkg::UVM_NONE, "f.sv", 9);',
    ],
)
def test_an_assignment_or_a_call_is_no_declaration(code: str) -> None:
    assert not POWER_UP_TEXT.search(code)
