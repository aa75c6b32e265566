"""Red team round 50 (held out): x sources the walk of ``frontend/_open_inputs.py`` missed, so
no x-faithfulness proof ran and a candidate reading x otherwise than the reference was accepted
on the 0/1 proofs: a specparam holding x (a constant to the walk, its value not judged), a real
turned into bits (iverilog makes x of an infinite real), a vendor cell's output (counted as a
defined driver: a flip-flop cell powers up x). The reference takes ``else`` on ``b`` = x; the
candidate ``if (!b) y = 0; else y = a;`` takes its ``else`` too (``y`` = ``a``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_redteam_w41_x_sources import IF_B, NOT_B, _top
from test_xfaith import _evaluate, _repo

pytestmark = pytest.mark.tools

CONN = "  m u(.a(a), .b(bw), .y(y));"
FORMS = {
    "specparam": "  specify specparam S = 1'bx; endspecify\n  wire bw = S;",
    "real": "  wire bw = 1e400;",
    "vendor_cell": "  wire bw;\n  DFF_X1 ff(.D(a), .CK(en), .Q(bw), .QN());",
}


@pytest.mark.parametrize("form", list(FORMS))
def test_an_x_source_round_50_found_is_proven_against(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    repo = _repo(tmp_path, monkeypatch, IF_B, _top(f"{FORMS[form]}\n{CONN}"))
    out = _evaluate(tmp_path, repo, NOT_B)
    reason = str(out["reason"])
    assert out["status"] == "invalid", reason
    assert "repository feeds x into b" in reason, reason
