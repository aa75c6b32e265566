"""Round 60 (held out, f33): a top's port held by an environment's initializer. A testbench
outside the repository (``logic [3:0] i = 0;``) makes no event at time 0, so ``always @* y = i
^ j;`` for ``assign y = i ^ j;`` is x until an input first changes where the reference is
defined; it was proven and accepted. Now unchecked; the other way (defined earlier) passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate
from tests.unit.evaluate.test_time_zero_held import _HELD_TOP, ASSIGN, AT_STAR

pytestmark = pytest.mark.tools


@pytest.mark.parametrize("top", ["", _HELD_TOP], ids=["target_is_top", "under_a_top"])
def test_a_block_an_environment_leaves_x_is_unchecked(tmp_path: Path, top: str) -> None:
    files = {"m.v": ASSIGN, **({"top.v": top} if top else {})}
    res = _evaluate(tmp_path, files, "m.v", AT_STAR)
    assert not res.accepted and "hold a top's inputs" in res.reason, res.reason


def test_defined_at_time_0_where_the_reference_waits_is_accepted(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, {"m.v": AT_STAR}, "m.v", ASSIGN)
    assert res.accepted, res.reason
