"""Round 119 (held out, against 729d4445): a parameter whose default names another
(``H = W / 2``, ``AW = $clog2(N)``) of a module nothing instantiates was probed only through
that other one, so a candidate writing the default expression where the reference reads the
parameter agreed at every probe; a user may set it apart. Each such parameter the change
depends on is probed on its own now (``evaluate/_param_probes._untied``): both are refuted
with a failing input, a rewrite that keeps reading the parameter is proven (real tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

HALF = "module hw #(parameter W = 8, parameter H = W / 2) (input [W-1:0] a, output [H-1:0] y);\n  assign y = a[W-1 -: H];\nendmodule\n"
HALF_INLINE = "module hw #(parameter W = 8, parameter H = W / 2) (input [W-1:0] a, output [H-1:0] y);\n  assign y = a[W-1 -: W / 2];\nendmodule\n"
COUNTER = "module cntw #(parameter N = 16, parameter AW = $clog2(N)) (input clk, input rst, output [AW-1:0] q);\n  reg [AW-1:0] c;\n  always @(posedge clk) begin\n    if (rst) c <= {AW{1'b0}};\n    else c <= c + 1'b1;\n  end\n  assign q = c;\nendmodule\n"
COUNTER_INLINE = "module cntw #(parameter N = 16, parameter AW = $clog2(N)) (input clk, input rst, output [AW-1:0] q);\n  reg [$clog2(N)-1:0] c;\n  always @(posedge clk) begin\n    if (rst) c <= 0;\n    else c <= c + 1'b1;\n  end\n  assign q = c;\nendmodule\n"


@pytest.mark.parametrize(
    ("reference", "candidate"),
    [(HALF, HALF_INLINE), (COUNTER, COUNTER_INLINE)],
    ids=["a-part-select", "a-register-width"],
)
def test_a_tied_parameters_default_written_in_its_place_is_refuted(
    reference: str, candidate: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, reference, candidate)
    assert rc == 1, reason
    assert "not equivalent" in reason and "a probe" in reason, reason


def test_a_rewrite_reading_the_tied_parameter_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    candidate = COUNTER.replace("c <= c + 1'b1", "c <= 1'b1 + c")
    rc, reason = module_verdict(tmp_path, monkeypatch, COUNTER, candidate)
    assert rc == 0, reason
