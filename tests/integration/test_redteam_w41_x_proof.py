"""Red team round 41 (held out): two ways the x-faithfulness proof read a candidate as more
defined than simulation does, each accepted ("proven, also where the repository feeds x")
before the fix in ``formal/xfaith.py``:

* a reference x taken for a don't care (``miter -ignore_gold_x``): the repository's readers
  decide on the target's x (``if (y)`` takes ``else``), so a candidate that is 0/1 where the
  reference is x changes what they do. The proof now compares every output bit, x included;
* ``proc``'s final ``opt_expr`` folds ``b == b`` to 1 and ``b & ~b`` to 0 where iverilog reads
  x: a candidate hid a different choice behind ``if (b == b)``. The proof runs
  ``proc -ifx -noopt``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_xfaith import _evaluate, _repo

pytestmark = pytest.mark.tools

AND = "module m(input a, input b, output y);\n  assign y = a & b;\nendmodule\n"
#: Equal on 0/1; where b is x the reference's y is x, this one's is 0 or a.
REFINES = (
    "module m(input a, input b, output y);\n  reg r;\n"
    "  always @* if (!b) r = 1'b0; else r = a;\n  assign y = r;\nendmodule\n"
)
IF_B = "module m(input a, input b, output reg y);\n  always @* if (b) y = a; else y = 1'b0;\nendmodule\n"
OPEN_B = "module top(input a, output y);\n  m u(.a(a), .b(), .y(y));\nendmodule\n"


def _behind(cond: str) -> str:
    """The reference's choice behind ``cond`` (1 on 0/1 inputs, x where b is x), ``a`` else."""
    return (
        "module m(input a, input b, output reg y);\n"
        f"  always @* if ({cond}) begin if (b) y = a; else y = 1'b0; end else y = a;\nendmodule\n"
    )


@pytest.mark.parametrize(
    ("ref", "cand"),
    [(AND, REFINES), (IF_B, _behind("b == b")), (IF_B, _behind("b | ~b"))],
    ids=["refines_a_reference_x", "b_eq_b", "b_or_not_b"],
)
def test_a_candidate_more_defined_than_simulation_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str
) -> None:
    repo = _repo(tmp_path, monkeypatch, ref, OPEN_B)
    out = _evaluate(tmp_path, repo, cand)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "not where the repository feeds x into b" in reason and "b=x" in reason, reason
