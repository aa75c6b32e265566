"""Round 98 (held out): parameter values no probe tries, past the round-97 rules.

In a module nothing instantiates (its parameters are its interface), each candidate below is
equivalent at the defaults and at every probe, and differs at one value:

- an untyped parameter made an input of the proof as a 32-bit integer, where an override may
  give it any width and signedness (``wire [31:0] k = K`` differs at ``K >= 2**32``; ``wire
  signed [31:0] k = K`` under an unsigned ``.K(8'd5)``): it is freed as each type an override
  can give it;
- a guard over a copy of a parameter in a net (``wire [31:0] k = K; k == 5000``), over an
  array query of a port (``(($high(a) + 1) * 5) % 32 == 9``), a new ``$clog2`` call (``$clog2(W
  + 3001) - $clog2(W + 3000)``, 1 only where W + 3000 is a power of two) and a new computation
  over a real (``R * 0.999999``): each is a guard the reference does not write.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

from rtlopt.frontend._param_free import free_parameters, vector_width
from rtlopt.frontend._param_guards import new_guards

HEAD = "module m #(parameter W = 8, parameter K = 3, parameter real R = 1.0)"
PORTS = "(input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n"
REF = HEAD + PORTS + "  localparam integer RI = R;\n  assign y = a + b + K + RI;\nendmodule\n"


def _cand(extra: str, y: str) -> str:
    return (
        HEAD + PORTS + "  localparam integer RI = R;\n" + extra + f"  assign y = {y};\nendmodule\n"
    )


@pytest.mark.parametrize(
    ("extra", "y"),
    [
        ("  wire [31:0] k = K;\n", "(k == 32'd5000) ? a : a + b + K + RI"),
        ("  reg [31:0] k;\n  always @* k = K;\n", "(k == 32'd5000) ? a : a + b + K + RI"),
        ("  wire [1:0] f = 2'b10;\n", "f[((($high(a) + 1) * 5) % 32) == 9] ? a : a + b + K + RI"),
        ("  localparam D = $clog2(W + 3001) - $clog2(W + 3000);\n", "a + b + K + RI + D"),
        ("  localparam integer Q = R * 0.999999;\n", "a + b + K + Q"),
        ("  localparam integer Q = W * 1e-6;\n", "a + b + K + RI + Q"),
    ],
    ids=["net-copy", "reg-copy", "array-query", "clog2", "real-parameter", "real-literal"],
)
def test_a_guard_the_reference_does_not_write_is_found(extra: str, y: str) -> None:
    assert new_guards(REF, _cand(extra, y), "m"), (extra, y)


def test_a_variable_that_reads_itself_is_no_constant() -> None:
    """Held-out trial 43 (ZipCPU's apbslave): a descending loop's ``ik >= 0`` was a guard,
    its variable counted as a constant because every write of it read only constants and
    itself (``ik = ik - 1``)."""
    head = "module m #(parameter DW = 32) (input clk, input [DW-1:0] a, output reg [DW-1:0] y);\n"
    loop = "  integer ik;\n  always @(posedge clk)\n    for ({}) y[ik*8 +: 8] <= a[ik*8 +: 8];\n"
    ref = head + loop.format("ik = 0; ik < DW/8; ik = ik + 1") + "endmodule\n"
    cand = head + loop.format("ik = DW/8; ik > 0; ik = ik - 1") + "endmodule\n"
    assert not any("ik" in g for g in new_guards(ref, cand, "m")), new_guards(ref, cand, "m")


def test_what_the_reference_writes_and_plain_arithmetic_are_no_guards() -> None:
    ref = REF.replace("  localparam", "  localparam CW = $clog2(W);\n  localparam")
    same = ref.replace("assign y = a + b + K + RI;", "assign y = RI + K + b + a;")
    assert new_guards(ref, same, "m") == []
    reuse = ref.replace("CW = $clog2(W);", "CW = $clog2(W);\n  localparam CW2 = $clog2(W) + 1;")
    assert new_guards(ref, reuse, "m") == []
    signal = ref.replace(
        "assign y = a + b + K + RI;", "wire [W-1:0] s = a;\n  assign y = s + b + K + RI;"
    )
    assert new_guards(ref, signal, "m") == []


def test_an_untyped_parameter_is_freed_as_each_type_an_override_gives_it() -> None:
    text = "module m #(parameter K = 5, parameter [7:0] J = 1)(input [63:0] a, output [63:0] y);\n"
    text += "  assign y = a + K + J;\nendmodule\n"
    width = vector_width(text)
    assert width >= 65
    ports = {
        kind: free_parameters(text, "m", ["K", "J"], kind, width)
        for kind in ("integer", "unsigned", "signed")
    }
    assert "input signed [31:0] K, input [7:0] J" in str(ports["integer"])
    assert f"input [{width - 1}:0] K, input [7:0] J" in str(ports["unsigned"])
    assert f"input signed [{width - 1}:0] K, input [7:0] J" in str(ports["signed"])


@pytest.mark.tools
@pytest.mark.parametrize(
    ("ref", "cand", "kind"),
    [
        (
            "module m #(parameter K = 5) (input [63:0] a, output [63:0] y);\n"
            "  assign y = a + K;\nendmodule\n",
            "module m #(parameter K = 5) (input [63:0] a, output [63:0] y);\n"
            "  wire [31:0] k = K;\n  assign y = a + k;\nendmodule\n",
            "every unsigned value",
        ),
        (
            "module m #(parameter K = 5) (input signed [7:0] a, output signed [15:0] y);\n"
            "  assign y = a + K;\nendmodule\n",
            "module m #(parameter K = 5) (input signed [7:0] a, output signed [15:0] y);\n"
            "  wire signed [31:0] k = K;\n  assign y = a + k;\nendmodule\n",
            "every unsigned value",
        ),
    ],
    ids=["wider-than-32", "unsigned-override"],
)
def test_an_untyped_parameter_refuted_under_the_type_an_override_gives_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str, kind: str
) -> None:
    repo = committed_repo(tmp_path / "repo", {"m.v": ref}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", cand)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and f"with parameter K free ({kind})" in reason, reason
