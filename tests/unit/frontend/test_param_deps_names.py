"""What a change depends on, read from its tokens: escaped names and text macros."""

from __future__ import annotations

from rtlopt.frontend._param_deps import changed_parameters
from rtlopt.frontend._params import declared_parameters, tied_roots

REF = """module m #(parameter W = 4) (input [7:0] a, output y);
  assign y = ~a[0];
endmodule
"""


def test_an_escaped_simple_name_is_the_parameter_it_names() -> None:
    cand = REF.replace("~a[0];", "(\\W  == 8) ? a[0] : ~a[0];")
    deps = changed_parameters(REF, cand, "m", ["W"], ["a"])
    assert deps.params == ("W",)
    assert 8 in deps.numbers


def test_a_macro_reached_through_a_localparam_is_named() -> None:
    ref = (
        "module m (input [3:0] a, output [3:0] y);\n"
        "  localparam D = `DEPTH;\n"
        "  assign y = (D == 4) ? a : ~a;\n"
        "endmodule\n"
    )
    cand = ref.replace("(D == 4) ? a : ~a", "a")
    assert changed_parameters(ref, cand, "m", [], ["a"]).macros == ("`DEPTH",)
    other = ref.replace("assign y", "wire [3:0] t = a;\n  assign y")
    unrelated = other.replace("wire [3:0] t = a;", "wire [3:0] t = ~a;")
    assert changed_parameters(other, unrelated, "m", [], ["a"]).macros == ()


def test_tied_parameters_are_probed_through_their_root() -> None:
    text = (
        "module m #(parameter W = 4, parameter B = W - 1, parameter type T = logic,\n"
        "  parameter K = (B + 8) / 8) (input [B:0] a);\nendmodule\n"
    )
    ties = declared_parameters(text, "m")
    assert ties["B"] == ("W",) and ties["T"] == ("type",) and ties["W"] == ()
    assert tied_roots(ties, "K") == ("W",)
    assert tied_roots(ties, "W") == ("W",)
