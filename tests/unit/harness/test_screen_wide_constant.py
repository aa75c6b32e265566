"""Round 70 (held out): iverilog 11 evaluates an unsized constant expression losslessly
(``localparam U = 1 << 40;`` is ``2**40``; only ``-gstrict-expr-width`` gives 0), slang and
Yosys at 32 bits (0), so both proofs accepted a candidate that simulation reads otherwise. A
parameter without a type or range whose exact value does not fit the value slang computes is a
reading difference (``rtlopt.harness._wide_constant``; no tool runs)."""

from __future__ import annotations

import pytest

from rtlopt.harness._readings import reading_problems, reference_problems
from rtlopt.verilog import blank_comments


def _text(decls: str) -> str:
    return (
        "module tgt(input [63:0] a, output y);\n"
        f"{decls}\n  assign y = ((a * 64'd3) == 64'h369d0369d034 + 3 * U);\nendmodule\n"
    )


def _found(decls: str) -> list[str]:
    return [m for _, m in reading_problems(blank_comments(_text(decls))) if "no type or range" in m]


@pytest.mark.parametrize(
    "decls",
    [
        "  localparam U = 1 << 40;",
        "  parameter U = 2**33 - 1;",
        "  localparam A = 1 << 20;\n  localparam U = A * A;",  # through another parameter
        "  localparam U = 'h1_0000 * 'h1_0000;",  # based, unsized
        "  localparam U = (1 << 40) | 1;",  # a part of it
        "  localparam signed U = -(1 << 35);",
    ],
    ids=["shift", "power", "params", "based", "part", "signed"],
)
def test_an_unsized_parameter_needing_more_than_32_bits_is_a_reading_difference(
    decls: str,
) -> None:
    found = _found(decls)
    assert found and "exactly" in found[0] and "losslessly" in found[0], found


@pytest.mark.parametrize(
    "decls",
    [
        "  localparam [63:0] U = 1 << 40;",  # a range: evaluated at 64 bits by all
        "  localparam U = 64'd1 << 40;",  # sized
        "  localparam U = 1 << 31;",  # fits 32 bits, read unsigned
        "  localparam U = -5 * 7 + 32'hffff_ffff;",
        "  localparam U = 1000 / 3 - 2**30;",
        # a branch slang does not fold has no value of its own (held-out trial 43: ZipCPU's
        # `(AW >= 12) ? 12 : AW` read as AW = 12, every candidate of axi_addr refused)
        "  localparam AW = 32;\n  localparam U = (AW >= 12) ? 12 : AW;",
        "  localparam L = 4;\n  localparam U = (L + 1 > 32) ? L + 1 : 32;",
    ],
    ids=["range", "sized", "bit31", "negative", "fits", "branch", "branch-sum"],
)
def test_a_parameter_that_fits_or_is_sized_is_read_alike(decls: str) -> None:
    assert not _found(decls)


def test_a_reference_with_such_a_parameter_leaves_the_candidate_unchecked() -> None:
    found = reference_problems([_text("  localparam U = 1 << 40;")], "the reference module")
    assert found and found[0][1].startswith("unchecked:") and "no type or range" in found[0][1]
