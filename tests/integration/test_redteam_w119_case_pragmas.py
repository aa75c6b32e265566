"""Round 119 (held out, against 729d4445): ``full_case`` / ``parallel_case`` that the
reference holds, moved by the candidate onto a case statement where its claim does not hold
(an incomplete case with a default pre-assignment, overlapping ``casez`` items): the proofs
read the case as a simulator does, Yosys's synthesis reads the claim, so the netlist measured
and written back computed another function (PPA -28 %). Refused by the screen now
(``harness/_case_pragmas.py``); the reference's case kept word for word with its pragma, the
rest rewritten, is proven (real tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

FULL_ATTR = "module fc (input [1:0] s, input [7:0] a, input [7:0] b, input [7:0] c, input [7:0] d, output reg [7:0] y);\n  always @* begin\n    y = b;\n    (* full_case *)\n    case (s)\n      2'd0: y = a;\n      2'd1: y = b;\n      2'd2: y = c;\n      2'd3: y = d;\n    endcase\n  end\nendmodule\n"
FULL_ATTR_MOVED = "module fc (input [1:0] s, input [7:0] a, input [7:0] b, input [7:0] c, input [7:0] d, output reg [7:0] y);\n  always @* begin\n    y = d;\n    (* full_case *)\n    case (s)\n      2'd0: y = a;\n      2'd1: y = b;\n      2'd2: y = c;\n    endcase\n  end\nendmodule\n"
FULL_COMMENT = "module fc (input [1:0] s, input [7:0] a, input [7:0] b, input [7:0] c, input [7:0] d, output reg [7:0] y);\n  always @* begin\n    y = b;\n    \n    case (s) // synopsys full_case\n      2'd0: y = a;\n      2'd1: y = b;\n      2'd2: y = c;\n      2'd3: y = d;\n    endcase\n  end\nendmodule\n"
FULL_COMMENT_MOVED = "module fc (input [1:0] s, input [7:0] a, input [7:0] b, input [7:0] c, input [7:0] d, output reg [7:0] y);\n  always @* begin\n    y = d;\n    \n    case (s) // synopsys full_case\n      2'd0: y = a;\n      2'd1: y = b;\n      2'd2: y = c;\n    endcase\n  end\nendmodule\n"
PARALLEL = "module pc (input [1:0] s, input [7:0] a, input [7:0] b, input [7:0] c, output reg [7:0] y);\n  always @* begin\n    (* parallel_case *)\n    casez (s)\n      2'b11: y = a;\n      2'b01: y = b;\n      2'b10: y = a;\n      default: y = c;\n    endcase\n  end\nendmodule\n"
PARALLEL_MOVED = "module pc (input [1:0] s, input [7:0] a, input [7:0] b, input [7:0] c, output reg [7:0] y);\n  always @* begin\n    (* parallel_case *)\n    casez (s)\n      2'b1?: y = a;\n      2'b?1: y = b;\n      default: y = c;\n    endcase\n  end\nendmodule\n"


@pytest.mark.parametrize(
    ("reference", "candidate"),
    [(FULL_ATTR, FULL_ATTR_MOVED), (FULL_COMMENT, FULL_COMMENT_MOVED), (PARALLEL, PARALLEL_MOVED)],
    ids=["full-case-attribute", "full-case-comment", "parallel-case"],
)
def test_a_case_claim_moved_onto_a_case_it_does_not_hold_for_is_refused(
    reference: str, candidate: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, reference, candidate)
    assert rc == 1, reason
    assert "on a case statement the reference does not hold it on" in reason, reason


def test_the_references_case_kept_with_its_claim_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    candidate = FULL_ATTR.replace("    y = b;\n", "    y = a;\n")  # a dead default
    rc, reason = module_verdict(tmp_path, monkeypatch, FULL_ATTR, candidate)
    assert rc == 0, reason
