"""What slang's procedural views may read otherwise than a simulator, found in the texts
(round 58): each a refusal, and the constant forms beside them that pass."""

from __future__ import annotations

import pytest

from rtlopt.evaluate._xview_reads import lowered_otherwise


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("assign y = q[idx];", "index that is not a constant (idx)"),
        ("always_comb begin y = 0; y[s] = 1; end", "index that is not a constant (s)"),
        ("assign y = m[a][b];", "index that is not a constant (a)"),
        ("assign y = w[base +: 4];", "index that is not a constant (base)"),
        ("assign y = $countones(r);", "$countones"),
        ("assign y = $onehot0(r);", "$onehot0"),
        ("assign y = $isunknown(r);", "$isunknown"),
        ("assign y = type(1)'(r);", "type(...)"),
        ("always_comb for (int i = 0; i < 2; i++) begin i = r; end", "loop variable (i)"),
        ("always_comb for (int k = 0; k < 2; k++) k++;", "loop variable (k)"),
    ],
)
def test_a_reading_slang_lowers_otherwise_is_refused(code: str, said: str) -> None:
    assert said in lowered_otherwise([code], [])


def test_token_pasting_in_a_used_macro_is_refused() -> None:
    assert "pasting" in lowered_otherwise(["y = `CAT(b,it)'(r);"], [" a``b"])


@pytest.mark.parametrize(
    "code",
    [
        "logic [W-1:0] q [DEPTH];\nparameter int W = 8;\nlocalparam DEPTH = 4;\nassign y = q[2];",
        "module m #(parameter A = 1, B = 2) (input [A:0] a);\nassign y = a[B];\nendmodule",
        "always_comb for (int i = 0; i < 4; i++) y[i] = a[3 - i];",
        "for (genvar g = 0; g < 4; g++) begin : l assign y[g] = a[g]; end",
        "genvar j;\nassign y = a[j];",
        "typedef enum logic [1:0] {IDLE, BUSY = 2'd1} st_t;\nassign y = a[BUSY];",
        "assign y = a[pkg::IDX];",
        "assign y = a[$clog2(N)-1:0] + b[8'hF];",
        "assign y = $signed(a) >>> $bits(b);",
        'assign y = a[7:0]; $display("x");',
    ],
)
def test_constant_readings_pass(code: str) -> None:
    assert lowered_otherwise([code], []) == ""
