"""Held-out gate trial 51 (verilog-uart's `sync_reset`, `debounce_switch`): a register with
an asynchronous reset and a power-up initializer needs every clock edge modelled, which the
proof from the stated power-up values has not, so no change of such a module could pass.
Where every register resets asynchronously from one input, the proof from the stated values
on one clock edge covers every trace up to the first reset and the proof from unknown
registers (every edge modelled, the reset forced first) every trace after it: both prove, on
both proof paths (real tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

SYNC = (
    "module sr (input clk, input rst, output out);\n  reg [1:0] r = 2'b11;\n"
    "  assign out = r[1];\n  always @(posedge clk or posedge rst)\n"
    "    if (rst) r <= 2'b11;\n    else r <= {next};\nendmodule\n"
)
REFERENCE = SYNC.format(next="{r[0], 1'b0}")


@pytest.mark.parametrize("honor", [False, True], ids=["ignore", "honor"])
def test_a_rewrite_of_a_synchronizer_with_power_up_values_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, honor: bool
) -> None:
    if honor:
        monkeypatch.setenv("RTLOPT_HARNESS__INITIAL_VALUES", "honor")
    rc, reason = module_verdict(tmp_path, monkeypatch, REFERENCE, SYNC.format(next="r << 1"))
    assert rc == 0, reason


@pytest.mark.parametrize(
    "candidate",
    [
        SYNC.format(next="r << 1").replace("r = 2'b11;", "r = 2'b01;"),  # before any reset
        SYNC.format(next="{r[0], ~r[1]}"),  # after it
    ],
    ids=["another-power-up-value", "another-next-state"],
)
def test_a_broken_rewrite_of_it_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, candidate: str
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, REFERENCE, candidate)
    assert rc == 1, reason
    assert "not equivalent" in reason, reason


def test_a_register_without_the_reset_keeps_the_design_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a reset pulse between two edges such a register keeps its value: the proof from
    unknown registers does not start there."""
    mixed = REFERENCE.replace(
        "  assign out = r[1];\n",
        "  reg q = 1'b0;\n  always @(posedge clk) q <= r[0];\n  assign out = r[1] ^ q;\n",
    )
    rc, reason = module_verdict(
        tmp_path, monkeypatch, mixed, mixed.replace("{r[0], 1'b0}", "r << 1")
    )
    assert rc == 1, reason
    assert "every clock edge" in reason, reason
