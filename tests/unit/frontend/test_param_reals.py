"""How a module reads an untyped parameter, as a real override would be read (round 116), and
which parameters an override can give x bits."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.frontend._param_free import four_state
from rtlopt.frontend._param_reals import OTHER, ROUNDING, TRUTH, real_reads, takes_a_real
from rtlopt.frontend.model import Design, Module, SourceSet

HEAD = "module lib #(parameter P = 1) (input [7:0] a, input [7:0] b, output reg [7:0] y);\n"


def _reads(body: str) -> set[str]:
    got = real_reads(HEAD + body + "endmodule\n", "lib", ["P"])
    assert got is not None
    return got["P"]


@pytest.mark.parametrize(
    ("body", "kinds"),
    [
        ("  always_comb if (P) y = a; else y = b;\n", {TRUTH}),
        ("  always_comb if ((!P) && a[0]) y = a; else y = b;\n", {TRUTH}),
        ("  always_comb y = P ? a : b;\n", {TRUTH}),
        ("  if (P) begin : g assign y = a; end\n", {TRUTH}),
        ("  wire [7:0] w = P;\n  always_comb y = w;\n", {ROUNDING}),
        ("  always_comb y = (P);\n", {ROUNDING}),
        ("  always_comb y = a + P;\n", {OTHER}),
        ("  always_comb y = a[0] ? P : b;\n", {OTHER}),
        ("  always_comb if (|P) y = a; else y = b;\n", {OTHER}),
        ("  always_comb if (P >= 1) y = a; else y = b;\n", {OTHER}),
        ("  localparam L = P;\n  always_comb y = L;\n", {OTHER}),
    ],
)
def test_each_read_of_a_parameter_has_its_kind(body: str, kinds: set[str]) -> None:
    assert _reads(body) == kinds


def _design(tmp_path: Path) -> Design:
    f = tmp_path / "lib.v"
    f.write_text(HEAD + "endmodule\n")
    mod = Module(name="lib", file=f, line=1, start=0, end=len(HEAD), ports=())
    return Design(
        root=tmp_path,
        target=mod,
        sources=SourceSet(root=tmp_path, files=(f,)),
        modules={"lib": mod},
        closure=(f,),
    )


def test_a_real_override_builds_only_where_every_read_takes_a_real(tmp_path: Path) -> None:
    design = _design(tmp_path)
    ok = HEAD + "  always_comb if (P) y = a; else y = b;\nendmodule\n"
    assert takes_a_real(ok, "lib", "P", design)
    for bad in ("|P", "P[0]", "P & 1"):
        assert not takes_a_real(ok.replace("if (P)", f"if ({bad})"), "lib", "P", design), bad


def test_x_bits_reach_untyped_and_four_state_parameters_only() -> None:
    text = (
        "module lib #(parameter A = 1, parameter int B = 2, parameter integer C = 3,\n"
        "  parameter [3:0] D = 4, parameter bit E = 1, parameter logic F = 0,\n"
        "  parameter real R = 1.0) (input a, output y);\n  assign y = a;\nendmodule\n"
    )
    assert four_state(text, "lib", list("ABCDEFR")) == ["A", "C", "D", "F"]
