"""x that the repository feeds an input of the target through a system task's output
(``$readmemh`` entries the file does not load or an x digit in it, ``$value$plusargs`` without
its plusarg or ``+V=x``), a
function that leaves its result unassigned on some path, or an x constant another driver of
the variable masks on some paths (``default: y = 'x;``). The proofs and rtlopt's simulation
drive every input with 0 or 1 only, so the walk of ``frontend/_open_inputs.py`` counts each
as x and every change to the target is unchecked."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.frontend._open_inputs import open_inputs_reason
from tests.unit.frontend.test_run_x import _design, _found

MEM = '  reg mem [0:7]{init};\n  initial $readmem{b}("m.hex", mem);\n'
FN = "  function f(input [1:0] i);\n    {body}\n  endfunction\n"
ALL8 = "".join(f"  initial mem[{i}] = 1'b0;\n" for i in range(8))


@pytest.mark.parametrize(
    ("decls", "conn"),
    [
        (MEM.format(init="", b="h"), "mem[s]"),  # entries the file does not load
        (MEM.format(init="", b="b"), "mem[3]"),
        (MEM.format(init="", b="h") + ALL8.replace("[7]", "[6]"), "mem[s]"),  # one left
        ('  reg v;\n  initial $value$plusargs("V=%d", v);\n', "v"),  # no plusarg
        ('  reg v;\n  integer n;\n  initial n = $sscanf("1", "%d", v);\n', "v"),
        ('  reg [7:0] v;\n  integer n, fd;\n  initial n = $fscanf(fd, "%d", v);\n', "v[0]"),
        ("  reg [7:0] v;\n  integer n, fd;\n  initial n = $fread(v, fd);\n", "v[0]"),
        ("  reg [7:0] v;\n  integer n, fd;\n  initial n = $fgets(v, fd);\n", "v[0]"),
    ],
)
def test_what_a_system_task_may_leave_unwritten_is_found(
    tmp_path: Path, decls: str, conn: str
) -> None:
    assert _found(tmp_path, decls, conn) == [("top.u", "b")]


@pytest.mark.parametrize(
    ("decls", "conn"),
    [
        (MEM.format(init=" = '{default: 1'b0}", b="h"), "mem[s]"),  # an initializer
        (MEM.format(init="", b="h") + ALL8, "mem[s]"),  # every entry written otherwise
        ('  reg v;\n  initial if (!$value$plusargs("V=%d", v)) v = 1\'b0;\n', "v"),
    ],
)
def test_what_a_file_or_plusarg_holds_may_be_x_whatever_else_drives(
    tmp_path: Path, decls: str, conn: str
) -> None:
    """An x digit in the file, ``+V=x``: defined drivers of the same bits do not cover it."""
    assert _found(tmp_path, decls, conn) == [("top.u", "b")]


@pytest.mark.parametrize(
    ("decls", "conn"),
    [
        ('  reg [7:0] v;\n  initial $sformat(v, "%d", 1);\n', "v[0]"),  # formats only
        ("  reg [7:0] v = 8'd0;\n  integer n, fd;\n  initial n = $fread(v, fd);\n", "v[0]"),
        ("  reg [7:0] v = 8'd0;\n  integer n, fd;\n  initial n = $fgets(v, fd);\n", "v[0]"),
    ],
)
def test_what_a_system_task_writes_where_defined_drivers_cover_is_not_found(
    tmp_path: Path, decls: str, conn: str
) -> None:
    assert _found(tmp_path, decls, conn) == []


@pytest.mark.parametrize(
    "body",
    [
        "case (i) 2'd0: f = 1'b1; 2'd1: f = 1'b0; endcase",  # a case without default
        "if (i[0]) f = 1'b1;",  # an if without else
        "casez (i) 2'b1?: f = 1'b1; 2'b0?: f = 1'b0; endcase",  # wildcards: not judged
        "begin if (i[0]) disable f; f = 1'b1; end",
        "for (int k = 0; k < i; k++) f = i[0];",  # a loop may run zero times
        "begin f = i[0]; f = h(i); end",  # a function it calls
    ],
)
def test_a_function_leaving_its_result_unassigned_is_found(tmp_path: Path, body: str) -> None:
    h = "  function h(input [1:0] i);\n    if (i[1]) h = 1'b1;\n  endfunction\n"
    assert _found(tmp_path, h + FN.format(body=body), "f(s[1:0])") == [("top.u", "b")]


@pytest.mark.parametrize(
    "body",
    [
        "case (i) 2'd0: f = 1'b1; default: f = 1'b0; endcase",
        "case (i) 2'd0, 2'd1: f = 1'b1; 2'd2, 2'd3: f = 1'b0; endcase",  # every value
        "if (i[0]) f = 1'b1; else f = i[1];",
        "begin f = 1'b0; if (i[0]) f = 1'b1; end",
        "begin if (i[0]) return 1'b1; f = i[1]; end",
        "begin if (1) f = 1'b1; end",  # a constant condition
        "for (int k = 0; k < 1; k++) f = i[0];",  # a loop its bounds run once
    ],
)
def test_a_function_assigning_its_result_on_every_path_is_not_found(
    tmp_path: Path, body: str
) -> None:
    assert _found(tmp_path, FN.format(body=body), "f(s[1:0])") == []


TASK = (
    "  reg r, q;\n  task tk(input i, output o, output p);\n    begin {body} end\n  endtask\n"
    "  always @* tk(.p(q), .i(s[0]), .o(r));\n"
)


@pytest.mark.parametrize(
    ("body", "conn", "found"),
    [
        ("if (i) o = 1'b1; p = i;", "r", True),  # an output some path leaves unassigned
        # what a task passes out is not followed: every output argument may be x (round 45:
        # `o = e` with `e` undriven was a defined driver)
        ("if (i) o = 1'b1; p = i;", "q", True),
        ("o = i; p = i;", "r", True),
        ("case (i) 1'b0: o = 1'b1; 1'b1: o = 1'b0; endcase p = i;", "r", True),
    ],
)
def test_a_task_output_some_path_leaves_unassigned_is_found(
    tmp_path: Path, body: str, conn: str, found: bool
) -> None:
    assert _found(tmp_path, TASK.format(body=body), conn) == ([("top.u", "b")] if found else [])


@pytest.mark.parametrize(
    "decls",
    [
        "  reg r;\n  always @* case (s) 3'd0: r = a[0]; default: r = 1'bx; endcase\n",
        "  reg r;\n  always @* begin r = 1'bx; if (a[0]) r = a[1]; end\n",
        "  reg r;\n  always @* begin r = 'x; if (a[0]) r = a[1]; else r = a[2]; end\n",
        "  reg r;\n  initial r = 1'bx;\n  always @(posedge a[0]) r <= a[1];\n",
        "  tri0 r;\n  assign r = a[0] ? a[1] : 1'bx;\n",
        "  reg r;\n  task t; r = 1'bx; endtask\n  always @* begin r = a[0]; if (a[1]) t(); end\n",
    ],
)
def test_an_x_constant_another_driver_masks_is_found(tmp_path: Path, decls: str) -> None:
    assert _found(tmp_path, decls, "r") == [("top.u", "b")]


@pytest.mark.parametrize(
    "decls",
    [
        "  reg r;\n  always @* case (s) 3'd0: r = a[0]; default: r = 1'b0; endcase\n",
        "  tri0 r;\n  assign r = a[0] ? a[1] : 1'bz;\n",  # z reads the pull
        "  reg r;\n  always @* r = (a[1:0] === 2'bx1) ? 1'b0 : a[2];\n",  # x compared
    ],
)
def test_a_variable_no_assignment_gives_x_is_not_found(tmp_path: Path, decls: str) -> None:
    assert _found(tmp_path, decls, "r") == []


def test_the_reasons_name_the_task_the_function_and_the_x_assignment(tmp_path: Path) -> None:
    def reason(name: str, decls: str, conn: str) -> str:
        (tmp_path / name).mkdir()
        return open_inputs_reason(_design(tmp_path / name, decls, conn))  # type: ignore[arg-type]

    mem = reason("m", MEM.format(init="", b="h"), "mem[s]")
    # what the file holds may spell z too
    assert "connects input 'b' to 'mem' (top.v, line 2), which may be z at run time" in mem
    assert '$readmemh("m.hex", mem) (top.v, line 3) may leave entries it does not load' in mem
    assert "make 'mem' (top.v) defined: give it an initializer" in mem, mem
    fn = reason("f", FN.format(body="if (i[0]) f = 1'b1;"), "f(s[1:0])")
    assert (
        "f(s[1:0]) (top.v, line 5) calls f, whose body may give x: a path through its body "
        "(top.v, line 2) leaves its result unassigned" in fn
    ), fn
    x = reason("x", "  reg r;\n  always @* begin r = 1'bx; if (a[0]) r = a[1]; end\n", "r")
    assert "the assignment of 1'bx (top.v, line 3) writes a value with x/z bits" in x, x
    assert "make 'r' (top.v) defined: assign a defined value where it assigns x/z" in x, x
