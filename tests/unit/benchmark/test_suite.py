"""Suite loading (folder layout, fake RTLLM layout), module renaming and testbench judging."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.benchmark.suite import (
    SUITE_KINDS,
    judge_testbench_output,
    load_suite,
    module_names,
    rename_top_module,
    top_modules,
)
from rtlopt.errors import DesignError, UsageError

TWO = """
// module fake(input a);  endmodule
module leaf(input a, output y); assign y = ~a; endmodule
module top #(parameter W = 2) (input a, output y);
  leaf u0 (.a(a), .y(y));
endmodule
"""


def test_module_scanning_ignores_comments() -> None:
    assert module_names(TWO) == ["leaf", "top"]
    assert top_modules(TWO) == ["top"]
    assert top_modules("module a; endmodule\nmodule b; endmodule") == ["a", "b"]


def test_rename_top_module_only_touches_top_declaration() -> None:
    out = rename_top_module(TWO, "dut")
    assert module_names(out) == ["leaf", "dut"]
    assert "leaf u0" in out
    assert rename_top_module(TWO, "top") == TWO
    with pytest.raises(DesignError, match="several top"):
        rename_top_module("module a; endmodule\nmodule b; endmodule", "x")
    assert module_names(
        rename_top_module("module a; endmodule\nmodule b; endmodule", "x", prefer=["b"])
    ) == ["a", "x"]
    with pytest.raises(DesignError, match="no module"):
        rename_top_module("// nothing", "x")


@pytest.mark.parametrize(
    "output",
    [
        "===========Your Design Passed===========",
        "=========== Your Design Passed ===========\ntestbench.v:40: $finish called at 100 (1s)",
        "Starting ROM Testbench...\n=========== Your Design Passed ===========",
        "At time 10, clock = 1, red = 1\n===========Your Design Passed===========",
        "VCD info: dumpfile x.vcd opened for output.\n===========Your Design Passed===========",
        "WARNING: tb.v:3: $readmemh: Not enough words\n===========Your Design Passed===========",
        "=========== Test completed with 0 /100 failures ===========\n"
        "===========Your Design Passed===========",
    ],
)
def test_judge_passes(output: str) -> None:
    assert judge_testbench_output(output).passed


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("===========Error===========", "Error"),
        ("=========== Failed ===========", "Failed"),
        ("===========Failed===========          3", "Failed"),
        ("===========Test completed with          7 / 100 failures===========", "7"),
        ("=========== Test completed with 2/20 failures ===========", "2/20"),
        ("Test failed: A = 1, B = 2\n=========== Your Design Passed ===========", "Test failed"),
        ("Failed at i= 3, out=0001\n=========== Your Design Passed ===========", "Failed at"),
        ("Error: More than 8 consecutive ones detected at time 100", "consecutive"),
        ("ERROR: tb.v:12: $readmemh: Unable to open reference.dat", "Unable"),
        ("", "no pass message"),
        ("Simulation done\n", "no pass message"),
    ],
)
def test_judge_fails(output: str, reason: str) -> None:
    res = judge_testbench_output(output)
    assert not res.passed
    assert reason in res.detail


def test_suite_kinds_table() -> None:
    assert set(SUITE_KINDS) >= {"rtllm", "folder"}
    with pytest.raises(UsageError, match="known: rtllm"):
        load_suite("nope", Path("."))


def test_folder_suite(tmp_path: Path) -> None:
    (tmp_path / "inv.v").write_text("module inv(input a, output y); assign y = ~a; endmodule\n")
    (tmp_path / "inv_tb.v").write_text("module inv_tb; endmodule\n")
    (tmp_path / "pair.sv").write_text(TWO)
    (tmp_path / "pair.txt").write_text("an inverter behind a wrapper")
    (tmp_path / "notes.md").write_text("not verilog")
    suite = load_suite("folder", tmp_path)
    assert [d.name for d in suite] == ["inv", "pair"]
    inv, pair = suite
    assert inv.module == "inv" and inv.testbench == tmp_path / "inv_tb.v"
    assert pair.module == "top" and pair.testbench is None
    assert pair.description.startswith("an inverter")
    with pytest.raises(UsageError, match="known: inv, pair"):
        load_suite("folder", tmp_path, ["nand"])
    (tmp_path / "two_tops.v").write_text("module a; endmodule\nmodule b; endmodule\n")
    with pytest.raises(UsageError, match="which module"):
        load_suite("folder", tmp_path)


def test_rtllm_layout_rules(tmp_path: Path) -> None:
    d = tmp_path / "adder_pipe_64bit"
    d.mkdir()
    (d / "verified_adder_64bit.v").write_text("module verified_adder_64bit(input a); endmodule\n")
    (d / "testbench.v").write_text(
        "module tb;\n  reg a;\n  adder_pipe_64bit #(.W(2)) uut (.a(a));\n"
        '  initial begin if (a) $display("x"); end\nendmodule\n'
    )
    (d / "design_description.txt").write_text("spec")
    (d / "reference.dat").write_text("00\n")
    e = tmp_path / "accu"
    e.mkdir()
    (e / "verified_accu.v").write_text(
        "module helper(input a); endmodule\nmodule verified_accu(input a);\n"
        "  helper h (.a(a));\nendmodule\n"
    )
    (e / "testbench.v").write_text("module tb; reg a; accu dut(.a(a)); endmodule\n")
    suite = load_suite("rtllm", tmp_path)
    accu, adder = suite
    assert (accu.module, accu.tb_module_name) == ("verified_accu", "accu")
    assert (adder.module, adder.tb_module_name) == ("verified_adder_64bit", "adder_pipe_64bit")
    assert adder.data_files == (d / "reference.dat",) and adder.description == "spec"
    assert accu.known_issue is None and accu.data_files == ()
    assert load_suite("rtllm", tmp_path, ["adder_pipe_64bit"]) == [adder]
    with pytest.raises(UsageError, match="does not exist"):
        load_suite("rtllm", tmp_path / "missing")
