"""Round 66 (held out, 5 accepts): what the reference carries made Yosys (the proofs and
synthesis) read a don't-care where iverilog computes a value, and the candidate wrote that x:
``(* no_rw_check *)`` on a memory (a read at the written address x), the same through
``(* ram_style = "no_rw_check" *)``, and the comment pragmas ``// synopsys full_case``,
``/* synthesis full_case */`` and ``// synopsys parallel_case``. Every tool now reads the text
with such attributes and comments blanked, as a simulator reads it
(``rtlopt.verilog_plain.plain_case_qualifiers``): the candidate's x is refuted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.test_redteam_w21 import _evaluate

pytestmark = pytest.mark.tools


FULL_CASE = "module t(input [31:0] key, input [7:0] a, output reg [7:0] y);\n  wire hit = key[31:16] == ((key[15:0] ^ {key[7:0], key[15:8]}) + 16'd3);\n  always @* begin\n    y = 8'd0;\n    case (hit) // synopsys full_case\n      1'b0: y = a;\n    endcase\n  end\nendmodule\n"
FULL_CASE_X = "module t(input [31:0] key, input [7:0] a, output reg [7:0] y);\n  wire hit = key[31:16] == ((key[15:0] ^ {key[7:0], key[15:8]}) + 16'd3);\n  always @* y = hit ? 8'bx : a;\nendmodule\n"
PARALLEL_CASE = "module t(input [31:0] key, input [7:0] a, input q, output reg [7:0] y);\n  wire hit = key[31:16] == ((key[15:0] ^ {key[7:0], key[15:8]}) + 16'd3);\n  wire [1:0] sel = {q, hit};\n  always @* begin\n    y = a;\n    casez (sel) // synopsys parallel_case\n      2'b1?: y = 8'd0;\n      2'b?1: y = ~a;\n    endcase\n  end\nendmodule\n"
PARALLEL_CASE_X = "module t(input [31:0] key, input [7:0] a, input q, output reg [7:0] y);\n  wire hit = key[31:16] == ((key[15:0] ^ {key[7:0], key[15:8]}) + 16'd3);\n  wire [1:0] sel = {q, hit};\n  always @* begin\n    y = a;\n    casez (sel)\n      2'b1?: y = sel[0] ? (~a & 8'bx) : 8'd0;\n      2'b?1: y = ~a;\n    endcase\n  end\nendmodule\n"
NO_RW_CHECK = "module t(input clk, input we, input [3:0] wa, input [31:0] key, input [2:0] rb, input [7:0] wd, output reg [7:0] rd);\n  (* no_rw_check *) reg [7:0] mem [0:15];\n  wire [3:0] ra = (key[31:16] == ((key[15:0] ^ {key[7:0], key[15:8]}) + 16'd3)) ? wa : {~wa[3], rb};\n  always @(posedge clk) begin\n    if (we) mem[wa] <= wd;\n    rd <= mem[ra];\n  end\nendmodule\n"
NO_RW_CHECK_X = "module t(input clk, input we, input [3:0] wa, input [31:0] key, input [2:0] rb, input [7:0] wd, output reg [7:0] rd);\n  reg [7:0] mem [0:15];\n  wire [3:0] ra = (key[31:16] == ((key[15:0] ^ {key[7:0], key[15:8]}) + 16'd3)) ? wa : {~wa[3], rb};\n  always @(posedge clk) begin\n    if (we) mem[wa] <= wd;\n    rd <= (we && wa == ra) ? 8'bx : mem[ra];\n  end\nendmodule\n"


@pytest.mark.parametrize(
    ("ref", "cand"),
    [
        (FULL_CASE, FULL_CASE_X),
        (FULL_CASE.replace("// synopsys full_case", "/* synthesis full_case */"), FULL_CASE_X),
        (PARALLEL_CASE, PARALLEL_CASE_X),
        (NO_RW_CHECK, NO_RW_CHECK_X),
        (
            NO_RW_CHECK.replace("(* no_rw_check *)", '(* ram_style = "no_rw_check" *)'),
            NO_RW_CHECK_X,
        ),
    ],
    ids=["full_case", "synthesis_full_case", "parallel_case", "no_rw_check", "ram_style"],
)
def test_an_x_where_the_references_directive_lets_synthesis_read_one_is_refuted(
    tmp_path: Path, ref: str, cand: str
) -> None:
    res = _evaluate(tmp_path, {"t.v": ref}, "t.v", cand)
    assert not res.accepted and "not equivalent" in res.reason, res.reason
