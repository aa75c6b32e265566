"""A parameter read only as a truth value is probed once per class of value only (0, 1, x and a
real: :func:`rtlopt.frontend._param_truths.truth_choices`); any other read keeps the generic
probes."""

from __future__ import annotations

import pytest

from rtlopt.frontend._param_truths import truth_choices

HEAD = "module m #(parameter P = 1) (input a, input b, output y, output reg z);\n"


@pytest.mark.parametrize(
    "body",
    [
        "generate if (P) begin assign y = a; end else begin assign y = b; end endgenerate",
        "generate if (|P) begin assign y = a; end endgenerate",
        "assign y = (P) ? a : b;",
        "always @* if (!P && a) z = b; else z = a;",
        "always @* if (a || (P)) z = b; else z = a;",
        "initial if (P) z = 1'b0;",
    ],
    ids=["generate-if", "reduction-or", "ternary", "not-and", "or", "initial"],
)
def test_a_truth_only_parameter_gets_a_probe_per_class(body: str) -> None:
    text = HEAD + body + "\nendmodule\n"
    assert truth_choices((text, text), "m", "P") == ["0", "1", "1'bx", "0.5"]


@pytest.mark.parametrize(
    ("head", "body"),
    [
        (HEAD, "assign y = (~P) ? a : b;"),
        (HEAD, "assign y = (^P) ? a : b;"),
        (HEAD, "assign y = (P & a) ? a : b;"),
        (HEAD, "assign y = (P == 1) ? a : b;"),
        (HEAD, "assign y = a ? P : b;"),
        (HEAD, "localparam Q = P; assign y = Q ? a : b;"),
        (HEAD, "sub #(.P(P)) u (.a(a), .y(y));"),
        (HEAD, "always @* case (P) 1: z = a; default: z = b; endcase"),
        (HEAD, "integer i; always @* begin z = a; for (i = 0; P && i < 2; i = i + 1) z = b; end"),
        (HEAD, "always @* begin z = a; while (P && z) z = 1'b0; end"),
        (HEAD, "assign y = $bits(P) ? a : b;"),
        (HEAD, "function f(input P); f = P ? 1'b1 : 1'b0; endfunction assign y = f(a);"),
        ("`define Q P\n" + HEAD, "assign y = `Q ? a : b;"),
        (HEAD.replace("parameter P", "parameter [0:0] P"), "assign y = P ? a : b;"),
        (HEAD.replace("parameter P", "parameter bit P"), "assign y = P ? a : b;"),
    ],
    ids=[
        "bitwise-not",
        "reduction-xor",
        "bitwise-and",
        "comparison",
        "a-value",
        "a-localparam",
        "an-instance-parameter",
        "case-subject",
        "for-condition",
        "while-condition",
        "bits",
        "a-shadowing-argument",
        "a-macro",
        "a-range",
        "a-type",
    ],
)
def test_any_other_read_keeps_the_generic_probes(head: str, body: str) -> None:
    text = head + body + "\nendmodule\n"
    plain = HEAD + "assign y = P ? a : b;\nendmodule\n"
    assert truth_choices((text, text), "m", "P") is None
    # either side reading it otherwise is enough
    assert truth_choices((plain, text), "m", "P") is None
    assert truth_choices((text, plain), "m", "P") is None
