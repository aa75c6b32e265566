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
        # round 59: a range or a ?: inside an index, a name shadowing a constant, a loop
        # variable's name written as a select elsewhere, an escaped name, $clog2 of a value
        ("assign y = HI[idx[1] ? 2'd3 : 2'd0];", "index that is not a constant (idx)"),
        ("assign y = HI[u[1:0]];", "index that is not a constant (u)"),
        ("parameter W = 1;\nassign y = q[W:idx];", "index that is not a constant (idx)"),
        ("import p::*;\nlogic [1:0] ONE;\nassign y = HI[ONE];", "(ONE)"),
        ("localparam K = 1;\nalways_ff @(posedge c) K[1:0] <= i;\nassign y = HI[K];", "(K)"),
        (
            "logic [1:0] k;\nalways_comb for (integer k = 0; k < 2; k++) z[k] = 0;\n"
            "assign y = HI[k];",
            "(k)",
        ),
        ("m u(.o(N));\nparameter N = 1;\nassign y = HI[N];", "(N)"),
        ("assign y = \\HI! [idx];", "escaped identifier"),
        ("assign y = $clog2(r);", "$clog2 of what is not a constant (r)"),
        # round 60: $ inside names, a constant's name declared by a type's name, as an
        # argument, a block label or an implicit net, a 2-state loop variable written
        ("localparam id = 0;\nt2 id$signed;\nassign y = HI[id$signed];", "(id$signed)"),
        ("assign y = HI$[idx];", "(idx)"),
        ("import p::*;\nt2 ONE;\nassign y = HI[ONE];", "(ONE)"),
        ("import p::*;\nfunction t2 f(t2 ONE); return HI[ONE]; endfunction", "(ONE)"),
        ("import p::*;\nif (1) begin : ONE logic a; end\nassign y = HI[ONE.a];", "(ONE)"),
        ("localparam K = 0;\nm_reg u(clk, i, K);\nassign y = HI[K];", "(K)"),
        ("always_comb for (bit [1:0] i = 0; i < 1; i++) begin i = r; end", "loop variable (i)"),
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
        "integer i;\nalways @* for (i = 0; i < 4; i = i + 1) y[i] = a[3 - i];",
        "parameter W = 8;\nlogic [W-1:0] q;\nassign y = q[W-1:4] | q[W/2 +: 2];",
        '$display("a\\n");',
        "typedef enum logic [1:0] {IDLE, BUSY = 2'd1} st_t;\nassign y = a[BUSY];",
        "assign y = a[pkg::IDX];",
        "parameter N = 4;\nassign y = a[$clog2(N)-1:0] + b[8'hF];",
        "assign y = $signed(a) >>> $bits(b);",
        'assign y = a[7:0]; $display("x");',
    ],
)
def test_constant_readings_pass(code: str) -> None:
    assert lowered_otherwise([code], []) == ""
