"""Round 119 (held out, against 729d4445): a module nothing instantiates, changed where a
guard reads its parameter through a local constant or a function; each was accepted and is
refused now (real tools), a correct rewrite of the same module stays accepted.

- only the definition of a localparam a guard reads changes (`K = 2 * W` to `K = W - 3997`
  under `if (K == 3)`), or only the body of a function it calls (`top_bit(W)` capped past
  4000): the guard's tokens were the reference's; a guard now carries the declarations of
  the local constants and functions it reads;
- a narrow constant the reach check did not read as one: a body `parameter [11:0] K = W` of
  a module with a parameter port list (a localparam by the language), a localparam of a
  type by name (`localparam u12_t K = W`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

HEAD = "module addw #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n"
SUM = HEAD + "  assign y = a + b;\nendmodule\n"
GEN = (
    "  localparam integer K = {k};\n  generate if (K == 3) begin : g_sub\n    assign y = a - b;\n"
    "  end else begin : g_add\n    assign y = a + b;\n  end endgenerate\nendmodule\n"
)
TOP = "  function integer top_bit(input integer n);\n{body}  endfunction\n"
TOP_USE = "  assign y = a + b[top_bit(W):0];\nendmodule\n"
CASES = {
    "a-localparam-a-guard-reads": (
        HEAD + GEN.format(k="2 * W"),
        HEAD + GEN.format(k="W - 3997"),
    ),
    "a-function-a-guard-calls": (
        HEAD + TOP.format(body="    top_bit = n - 1;\n") + TOP_USE,
        HEAD
        + TOP.format(
            body="    begin\n      top_bit = n - 1;\n      if (n > 4000) top_bit = 3999;\n    end\n"
        )
        + TOP_USE,
    ),
    "a-body-parameter": (
        SUM,
        HEAD + "  parameter [11:0] K = W;\n  assign y = a + b[K - 1:0];\nendmodule\n",
    ),
    "a-localparam-of-a-named-type": (
        SUM,
        HEAD + "  typedef logic [11:0] u12_t;\n  localparam u12_t K = W;\n"
        "  assign y = a + b[K - 1:0];\nendmodule\n",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_guard_changed_through_what_it_reads_is_refused(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference, candidate = CASES[case]
    rc, reason = module_verdict(tmp_path, monkeypatch, reference, candidate)
    assert rc == 1, reason
    assert "unchecked for parameters" in reason, reason


def test_a_rewrite_beside_an_unchanged_guard_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = HEAD + GEN.format(k="2 * W")
    rc, reason = module_verdict(
        tmp_path, monkeypatch, reference, reference.replace("a + b", "b + a")
    )
    assert rc == 0, reason
