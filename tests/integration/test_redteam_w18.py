"""Red team w18: non-equivalent rewrites `rtlopt evaluate` accepts past the stop's new screen
rules (each test asserts the rejection, so each FAILS on main 5dd222a).

Written to run from tests/integration/ (copy it there). Runtime on 5dd222a, shared 2-core
machine: test_w18_case_item_arithmetic_shift_right[2 ids] 3.5-4.5 s each (both FAIL:
exit 0, "accepted": true, formal "proven" by the sat miter, sim 1282 vectors 0 mismatches).
`rtlopt check` rejects the same change (its second proof, read_slang, finds the difference;
102 s with a cold YoWASP cache, 3 s warm), so no gate test is included. F1b
test_w18_signed_case_item_logical_shift_right ~5 s (FAILS likewise). 3 tests, 15 s total.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration._fixture_repo import committed_repo, evaluate_text

pytestmark = pytest.mark.tools

REF = (
    "module tgt(input [31:0] s, output reg y);\n"
    "  always @* case (s) 32'h6048 * 2 + 1: y = 1'b1; default: y = 1'b0; endcase\n"
    "endmodule\n"
)


# --- F1 (high): `>>>` in a case item is read at its own width by Yosys ---------------------
# IEEE 1364 9.5 / iverilog 11: the item takes the statement's width and signedness (unsigned
# s), so 16'sh8123 is zero-extended to 32'h00008123 and >>> 1 gives 32'h4091. Yosys 0.23
# evaluates it at 16 signed bits (16'hC091) and zero-extends: 32'hC091 = the reference's item.
# Hand-confirmed: iverilog s=4091 ref=0 cand=1, s=c091 ref=1 cand=0; Yosys sat s=49297 y=1.
@pytest.mark.parametrize(
    "item",
    ["16'sh8123 >>> 1", "$signed(16'h8123) >>> 1"],
    ids=["signed-literal", "signed-call"],
)
def test_w18_case_item_arithmetic_shift_right(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, item: str
) -> None:
    repo = committed_repo(tmp_path / "r", {"rtl/tgt.v": REF}, monkeypatch, tmp_path / "c")
    cand = REF.replace("32'h6048 * 2 + 1", item)
    code, out = evaluate_text(repo, "rtl/tgt.v", cand)
    assert code != 0 and not out["accepted"], out["candidate"]


# --- F1b (high): `>>` in a case item of a signed statement, same mechanism -----------------
# IEEE / iverilog 11 / read_slang: signed context, 16'sh8123 sign-extended to 32'hFFFF8123,
# >> 1 = 32'h7FFFC091. Yosys 0.23 shifts at 16 bits (16'h4091), then sign-extends: 32'h4091
# = the reference's item. Hand-confirmed: iverilog s=4091 ref=1 cand=0, s=7fffc091 ref=0
# cand=1. Today: exit 0, "accepted": true, proven, 1282 vectors (~3.5 s).
def test_w18_signed_case_item_logical_shift_right(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = (
        "module tgt(input signed [31:0] s, output reg y);\n"
        "  always @* case (s) 32'sh2048 * 2 + 1: y = 1'b1; default: y = 1'b0; endcase\n"
        "endmodule\n"
    )
    repo = committed_repo(tmp_path / "r", {"rtl/tgt.v": ref}, monkeypatch, tmp_path / "c")
    code, out = evaluate_text(repo, "rtl/tgt.v", ref.replace("32'sh2048 * 2 + 1", "16'sh8123 >> 1"))
    assert code != 0 and not out["accepted"], out["candidate"]
