"""Red team w34, end to end (the classes closed in the evaluator's own stages):

- F3: the repository's ``defparam u.c0.P`` sets a parameter of an instance *inside* the
  target, which no parameterization of the target records: the proof elaborated ``c0`` with
  the target's own values. Only a path that ends at one of the target's own parameters is read
  with the repository's parameterizations.
- F5: the candidate declares a parameter with another type (``[7:0]`` made untyped or
  ``[8:0]``): a parent's ``#(.K(9'h1c8))`` converts otherwise, while rtlopt proves each
  configuration with the reference's converted value written in."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate

pytestmark = pytest.mark.tools

CHILD = "module ch #(parameter [7:0] P = 8'd1) (input [7:0] a, output [7:0] y);\n  assign y = a + P;\nendmodule\n"
M = "module m(input [7:0] a, output [7:0] y);\n  ch c0(.a(a), .y(y));\nendmodule\n"
#: keeps c0 (the defparam still elaborates) but adds the child's default itself
M_CAND = (
    "module m(input [7:0] a, output [7:0] y);\n  wire [7:0] unused;\n"
    "  ch c0(.a(a), .y(unused));\n  assign y = a + 8'd1;\nendmodule\n"
)


def _top(defparam: str) -> str:
    return (
        "module top(input [7:0] a, output [7:0] y);\n  m u(.a(a), .y(y));\n"
        f"  {defparam}\nendmodule\n"
    )


def test_a_defparam_into_an_instance_inside_the_target_leaves_it_unchecked(
    tmp_path: Path,
) -> None:
    files = {"ch.v": CHILD, "m.v": M, "top.v": _top("defparam u.c0.P = 8'd200;")}
    res = _evaluate(tmp_path, files, "m.v", M_CAND)
    assert not res.accepted and res.reason.startswith("unchecked: top.v:3:"), res.reason
    assert "u.c0" in res.reason


KM = "module m #(parameter [7:0] K = 8'd1) (input [7:0] a, output [7:0] y);\n  assign y = a + (K >> 1);\nendmodule\n"


def test_a_defparam_on_the_targets_own_parameter_is_a_configuration(tmp_path: Path) -> None:
    # read with the repository's parameterizations: a rewrite wrong only at K = 200 is refuted
    top = _top("defparam u.K = 8'd200;").replace("m u(", "m u(")
    wrong = KM.replace("(K >> 1)", "((K == 8'd200) ? 8'd0 : (K >> 1))")
    res = _evaluate(tmp_path, {"m.v": KM, "top.v": top}, "m.v", wrong)
    assert not res.accepted and "K=8'd200" in res.reason.replace(" ", ""), res.reason


@pytest.mark.parametrize(
    "header",
    [
        "module m #(parameter K = 1) (input [7:0] a, output [7:0] y);",
        "module m #(parameter [8:0] K = 9'd1) (input [7:0] a, output [7:0] y);",
    ],
)
def test_a_parameter_declared_with_another_type_is_an_interface_change(
    tmp_path: Path, header: str
) -> None:
    top = "module top(input [7:0] a, output [7:0] y);\n  m #(.K(9'h1c8)) u(.a(a), .y(y));\nendmodule\n"
    cand = header + "\n" + KM.split("\n", 1)[1]
    res = _evaluate(tmp_path, {"m.v": KM, "top.v": top}, "m.v", cand)
    assert not res.accepted and res.stage.value == "interface", res.reason
    assert "parameter K is declared" in res.reason
    # the same type written otherwise (logic, white space) is the same interface
    same = "module m #(parameter logic [ 7:0 ] K = 8'd1) (input [7:0] a, output [7:0] y);\n"
    # (a top passing a value the declared type converts is itself unchecked: tools disagree)
    fits = top.replace("9'h1c8", "8'hc8")
    ok = _evaluate(
        tmp_path / "same", {"m.v": KM, "top.v": fits}, "m.v", same + KM.split("\n", 1)[1]
    )
    assert ok.accepted, ok.reason
