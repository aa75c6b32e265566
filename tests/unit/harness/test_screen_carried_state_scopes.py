"""The screen's carried-state rule with a name two scopes declare (a module signal and a named
block's, a ``for`` loop's or a function's nested block's variable): a write of one is not a
write of the other, so a read of the module's variable before the block writes it is found
however the namesake is written (no tool runs)."""

from __future__ import annotations

import pytest

from rtlopt.harness._readings import reading_problems
from rtlopt.verilog import blank_comments

_PORTS = "input a, input b, input [31:0] k, output reg [1:0] y"


def _found(body: str) -> list[str]:
    text = f"module m({_PORTS});\n{body}\nendmodule\n"
    return [msg for _, msg in reading_problems(blank_comments(text))]


def _early(found: list[str], name: str) -> bool:
    return any(f"'{name}' is read in a combinational block before" in m for m in found)


@pytest.mark.parametrize(
    ("body", "name"),
    [
        # a local array namesake written bit by bit: the module's row is not written
        (
            "  reg [1:0] mem [0:1];\n  always @* begin\n"
            "    begin : s\n      reg [1:0] mem [0:1];\n"
            "      mem[0][0] = 1'b0;\n      mem[0][1] = 1'b0;\n    end\n"
            "    if (k * 32'h9e3779b9 == 32'd1) y = mem[0]; else y = {a, b};\n"
            "    mem[0] = {a, b};\n  end",
            "mem",
        ),
        # the same with a plain vector
        (
            "  reg [1:0] v;\n  always @* begin\n"
            "    begin : s\n      reg [1:0] v;\n      v = 2'b00;\n    end\n"
            "    if (k * 32'h9e3779b9 == 32'd1) y = v; else y = {a, b};\n"
            "    v = {a, b};\n  end",
            "v",
        ),
        # the local read before its own write: the module's write does not count for it
        (
            "  reg [1:0] v;\n  always @* begin\n    v = {a, b};\n"
            "    begin : s\n      reg [1:0] v;\n      y = v;\n      v = 2'b00;\n    end\n"
            "  end",
            "v",
        ),
        # a for loop's own variable: the module's i is not written by the loop
        (
            "  integer i; reg [1:0] t;\n  always_comb begin\n"
            "    for (int i = 0; i < 2; i++) t[i] = a;\n"
            "    y = i[1:0];\n    i = {30'd0, a, b};\n  end",
            "i",
        ),
        # a local of another shape: the module's row is wider than the bits written
        (
            "  reg [3:0] mem [0:1];\n  always @* begin\n"
            "    begin : s reg [1:0] mem [0:1]; end\n"
            "    mem[0][0] = a;\n    mem[0][1] = b;\n"
            "    y = mem[0];\n    mem[0] = {a, b, a, b};\n  end",
            "mem",
        ),
    ],
    ids=["array_row", "vector", "local_first", "for_variable", "other_shape"],
)
def test_a_namesake_in_a_nested_scope_does_not_write_the_module_variable(
    body: str, name: str
) -> None:
    found = _found(body)
    assert _early(found, name), found


def test_a_function_writing_a_module_signal_beside_a_local_namesake_is_found() -> None:
    body = (
        "  reg [1:0] t;\n  function [1:0] f(input [1:0] x);\n    begin\n"
        "      begin : s reg [1:0] t; t = x; end\n      t = x; f = x;\n    end\n"
        "  endfunction\n  always @* y = f({a, b}) ^ t;"
    )
    found = _found(body)
    assert any("writes 't', a signal of the module" in m for m in found), found


@pytest.mark.parametrize(
    "body",
    [
        # the module's variable written first, the local written before it is read
        "  reg [1:0] v;\n  always @* begin\n    v = {a, b};\n"
        "    begin : s reg [1:0] v; v = {b, a}; y = v; end\n    y = y ^ v;\n  end",
        # a for loop's own variable beside a module's one the block writes first
        "  integer i; reg [1:0] t;\n  always_comb begin\n    i = 0;\n"
        "    for (int i = 0; i < 2; i++) t[i] = a;\n    y = t ^ i[1:0];\n  end",
        # two named blocks' locals of one name, each written before it is read
        "  always @* begin\n    begin : p reg [1:0] u; u = {a, b}; y = u; end\n"
        "    begin : q reg [1:0] u; u = {b, a}; y = y ^ u; end\n  end",
    ],
    ids=["module_first", "for_after_write", "sibling_blocks"],
)
def test_namesakes_written_before_they_are_read_are_not_found(body: str) -> None:
    found = _found(body)
    assert not any("combinational block before" in m for m in found), found
