"""Red-team round 113 (real tools): a parameter no probe reached.

- A comment in the reference saying ``P - 1`` made the probe rules read P as a width, so 0
  was not probed and, with the default 1, P got no probe at all: a candidate wrong only at
  P = 0 was accepted.
- Four parameters read together in a width (``(P || Q || R || S) ? 1 : 0``) were "freed" at
  P = 1, where the others fold away, and no probe set all four to 0 together: a candidate
  wrong only there was accepted. A parameter read where a constant is needed is not freed,
  and the parameters are also probed all at one value each of them is probed at.
- Round 114: a guard of the reference's the candidate drops (`(P ^ 5) == 12`, `P == 3 && Q ==
  5`, `f(P)`, `P ? 1 : 0` in a width) singles out values no probe tries as a new one does:
  the change is refused as unchecked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

NARROW = (
    "module m #(parameter P = 1) (input [1:0] a, output [1:0] y);\n"
    "  // the narrow form (P - 1 would be the old encoding) keeps only bit 0\n"
    "  wire [(P ? 1 : 0):0] w = a;\n"
    "  assign y = w;\nendmodule\n"
)
JOINT = (
    "module m #(parameter P = 1, parameter Q = 1, parameter R = 1, parameter S = 1)\n"
    "  (input [1:0] a, output [1:0] y);\n"
    "  wire [(P || Q || R || S) ? 1 : 0 : 0] w = a;\n"
    "  assign y = w;\nendmodule\n"
)


def _wire_dropped(ref: str) -> str:
    head = ref.split("\n  wire")[0].split("\n  //")[0]
    return head + "\n  assign y = a;\nendmodule\n"


@pytest.mark.parametrize(
    ("ref", "where"), [(NARROW, "P=0"), (JOINT, "P=0, Q=0, R=0, S=0")], ids=["comment", "joint"]
)
def test_a_value_only_a_joint_or_hidden_probe_reaches_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, where: str
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, ref, _wire_dropped(ref))
    # refused first since round 114: the candidate drops the reference's guard on P
    assert rc == 1 and ("the reference computes" in reason or where in reason), reason


ROUND_114 = {
    "xor": "  wire [((P ^ 5) == 12) ? 0 : 1 : 0] w = a;\n",
    "pair": "  wire [(P == 3 && Q == 5) ? 0 : 1 : 0] w = a;\n",
    "value-minus-one": "  wire [(P ? 1 : 0):0] w = a;\n  wire [7:0] z = 8'd3 + (P - 1);\n",
}


@pytest.mark.parametrize("body", list(ROUND_114.values()), ids=list(ROUND_114))
def test_a_guard_of_the_reference_the_candidate_drops_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    head = "module m #(parameter P = 1, parameter Q = 1) (input [1:0] a, output [1:0] y);\n"
    ref = head + body + "  assign y = w;\nendmodule\n"
    rc, reason = module_verdict(tmp_path, monkeypatch, ref, head + "  assign y = a;\nendmodule\n")
    assert rc == 1 and "the reference computes" in reason, reason
