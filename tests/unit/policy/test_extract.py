"""extract_verilog: fences, think blocks, several blocks, bare text, rejection."""

from __future__ import annotations

from rtlopt.policy import extract_verilog

MOD_A = "module a(input x, output y);\n  assign y = x;\nendmodule"
MOD_B = "module b(input x, output y);\n  assign y = ~x;\nendmodule"


def test_verilog_fence_with_surrounding_text() -> None:
    ans = f"Here is the design:\n```verilog\n{MOD_A}\n```\nIt is smaller."
    assert extract_verilog(ans) == MOD_A + "\n"


def test_systemverilog_and_bare_fences() -> None:
    assert extract_verilog(f"```systemverilog\n{MOD_A}\n```") == MOD_A + "\n"
    assert extract_verilog(f"```\n{MOD_B}\n```") == MOD_B + "\n"


def test_think_block_is_dropped_even_when_it_holds_a_module() -> None:
    ans = f"<think>first try:\n{MOD_B}\nno, better:</think>\n```verilog\n{MOD_A}\n```"
    assert extract_verilog(ans) == MOD_A + "\n"


def test_unterminated_think_yields_nothing() -> None:
    assert extract_verilog(f"<think>I could write\n{MOD_A}\nbut") is None


def test_stray_closing_think_keeps_the_answer() -> None:
    assert extract_verilog(f"reasoning {MOD_B} </think>\n```verilog\n{MOD_A}\n```") == MOD_A + "\n"


def test_several_blocks_concatenate_modules_and_skip_other_languages() -> None:
    ans = (
        f"```python\nprint('module x; endmodule')\n```\n```verilog\n{MOD_A}\n```\n"
        f"text\n```verilog\n// helper\n{MOD_B}\n```\n```verilog\nassign q = 1;\n```"
    )
    out = extract_verilog(ans)
    assert out is not None
    assert out.index("module a") < out.index("module b")
    assert "print" not in out and "assign q" not in out
    assert "// helper" in out


def test_directives_above_module_stay_but_a_timescale_is_dropped() -> None:
    # a `timescale written back would set the delay unit of the repository's later files
    ans = f"```verilog\n`timescale 1ns/1ps\n`define W 4\n{MOD_A}\n```"
    assert extract_verilog(ans) == "`define W 4\n" + MOD_A + "\n"


def test_bare_module_without_fences() -> None:
    ans = f"Sure.\n{MOD_A}\nThis inverts nothing."
    assert extract_verilog(ans) == MOD_A + "\n"
    assert (
        extract_verilog("one line: module m(input a); endmodule ok")
        == "module m(input a); endmodule\n"
    )


def test_truncated_fence_without_endmodule_is_rejected() -> None:
    assert extract_verilog("```verilog\nmodule a(input x);\n  assign") is None


def test_no_module_is_rejected() -> None:
    assert extract_verilog("I cannot help with that.") is None
    assert extract_verilog("```verilog\nassign y = x;\n```") is None
    assert extract_verilog("") is None


def test_endmodule_label_and_crlf() -> None:
    ans = "```verilog\r\nmodule m(input a);\r\nendmodule : m\r\n```"
    assert extract_verilog(ans) == "module m(input a);\nendmodule : m\n"
