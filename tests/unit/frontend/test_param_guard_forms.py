"""Forms that single out parameter values without a comparison operator (red-team round 115):
selects of a parameter, casts, ``case`` items on one, narrow fixed-width localparams and
comparisons inside a generate loop's header are guards; the widths, fill literals, integer
localparams and loop headers of ordinary code are not."""

from __future__ import annotations

import pytest

from rtlopt.frontend._param_guards import new_guards

HEAD = "module lib #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n"
SUM = HEAD + "  assign y = a + b;\nendmodule\n"
LOOP = (
    HEAD + "  for (genvar i = 0; i < W; {step}) begin : g\n"
    "    assign y[i] = a[i] ^ b[i];\n  end\nendmodule\n"
)


def _body(text: str) -> str:
    return HEAD + text + "endmodule\n"


@pytest.mark.parametrize(
    ("cand", "guard"),
    [
        (_body("  localparam D = W[11];\n  assign y = a + b[D:0];\n"), "W [ 11 ]"),
        (_body("  localparam D = W[3:2] + 1;\n  assign y = a + b[D:0];\n"), "W [ 3 : 2 ]"),
        (_body("  assign y = a + b[8'(W - 1):0];\n"), "8 ' ( W - 1 )"),
        (_body("  localparam [7:0] M = W - 1;\n  assign y = a + b[M:0];\n"), "localparam"),
        (_body("  localparam byte M = W - 1;\n  assign y = a + b[M:0];\n"), "localparam byte"),
        (_body("  localparam logic F = W;\n  assign y = a + (b & F);\n"), "localparam logic"),
        (
            _body(
                "  case (W)\n    8, 4000: begin : n assign y = a + b[7:0]; end\n"
                "    default: begin : w assign y = a + b; end\n  endcase\n"
            ),
            "case ( W ) 4000",
        ),
        (LOOP.format(step="i = i + 1 + (W == 4000)"), "W == 4000"),
        (_body("  assign y = a + b[$bits(W) - 25:0];\n"), "$bits ( W )"),
    ],
    ids=[
        *("bit-select", "part-select", "size-cast", "packed-8", "byte", "logic", "case"),
        *("header", "type-query"),
    ],
)
def test_a_form_that_singles_out_values_is_a_new_guard(cand: str, guard: str) -> None:
    ref = SUM if "genvar" not in cand else LOOP.format(step="i = i + 1")
    found = new_guards(ref, cand, "lib")
    assert any(guard in g for g in found), found
    assert new_guards(cand, ref, "lib") == []  # the reference writes none of its own


@pytest.mark.parametrize(
    "cand",
    [
        _body("  localparam [31:0] M = W - 1;\n  assign y = a + b[M:0];\n"),
        _body("  localparam integer M = W - 1;\n  assign y = a + b[M:0];\n"),
        _body("  localparam M = W - 1;\n  assign y = a + b[M:0];\n"),
        _body("  wire [W-1:0] z = '0;\n  assign y = a + b + z;\n"),
        _body("  assign y = {W{1'b0}} | (a + b);\n"),
        _body("  localparam N = $bits(a);\n  assign y = a + b[N - 1:0];\n"),
        LOOP.format(step="i++").replace("assign y[i] = a[i] ^ b[i]", "assign y[i] = a[i] + b[i]"),
    ],
    ids=[
        *("packed-32", "integer", "untyped", "fill-literal", "replication", "loop-header"),
        "a-signals-width",
    ],
)
def test_ordinary_widths_and_headers_are_no_guards(cand: str) -> None:
    ref = SUM if "genvar" not in cand else LOOP.format(step="i = i + 1")
    assert new_guards(ref, cand, "lib") == []


def test_the_same_case_items_and_selects_in_both_texts_are_no_new_guard() -> None:
    ref = _body(
        "  localparam D = W[3];\n  case (W)\n    8: begin : n assign y = a + b[D:0]; end\n"
        "    default: begin : w assign y = a + b; end\n  endcase\n"
    )
    cand = ref.replace("a + b[D:0]", "b[D:0] + a").replace("a + b;", "b + a;")
    assert new_guards(ref, cand, "lib") == []
    assert new_guards(cand, ref, "lib") == []
