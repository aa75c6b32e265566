"""x and z a driver makes although what it reads is defined: a gate with a control or a
switch (``bufif1``, ``nmos``, ``tranif1``: z when off), a user-defined primitive (x for an
input the table does not list), a delay (``assign #5``, ``wire #5``, ``buf #5``: x until the
first update), a variable an ``initial`` first writes after a delay, and an x value written
through a hierarchical name from another module. The proofs and rtlopt's simulation drive
every input with 0 or 1 only, so the walk of ``frontend/_open_inputs.py`` counts each as an
x source (z for the gates with a control and the switches)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.frontend._open_inputs import fed_ports, open_inputs, open_inputs_reason
from tests.unit.frontend.test_run_x import _design, _found

UDP = "primitive pass1(o, i);\n  output o;\n  input i;\n  table 1 : 1; endtable\nendprimitive\n"


def _kinds(tmp_path: Path, decls: str, conn: str = "w") -> list[str]:
    return [o.kind for o in open_inputs(_design(tmp_path, decls, conn))]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "gate",
    [
        "bufif1 g(w, a[0], s[0]);",
        "bufif0 g(w, a[0], s[0]);",
        "notif0 g(w, a[0], s[0]);",
        "notif1 g(w, a[0], s[0]);",
        "nmos g(w, a[0], s[0]);",
        "pmos g(w, a[0], s[0]);",
        "rnmos g(w, a[0], s[0]);",
        "rpmos g(w, a[0], s[0]);",
        "cmos g(w, a[0], s[0], s[1]);",
        "rcmos g(w, a[0], s[0], s[1]);",
        "tranif1 g(w, v, s[0]);",
        "tranif0 g(w, v, s[0]);",
        "rtranif1 g(w, v, s[0]);",
        "tran g(w, v);",
        "rtran g(w, v);",
    ],
)
def test_a_gate_with_a_control_or_a_switch_feeds_z(tmp_path: Path, gate: str) -> None:
    decls = f"  wire w;\n  wire v = a[1];\n  {gate}\n"
    assert _kinds(tmp_path, decls) == ["switch"]
    found = open_inputs(_design(tmp_path, decls, "w"))  # type: ignore[arg-type]
    assert fed_ports(found) == (("b",), True)  # z: === and !== are refused


@pytest.mark.parametrize(
    "decls",
    [
        # a highz strength drives z for one value (round 93 cases 01, 02)
        "  wire w;\n  assign (strong0, highz1) w = s[0];\n",
        "  wire (highz0, weak1) w = s[0];\n",
        "  wire w;\n  buf (strong0, highz1) g(w, s[0]);\n",
        "  wire w;\n  and (highz0, strong1) g(w, s[0], s[1]);\n",
        # a forced net reads its other drivers before the force and after a release (case 03)
        "  wire w;\n  initial begin force w = 1'b0; #5 release w; end\n",
    ],
)
def test_a_highz_strength_or_a_forced_net_feeds_z(tmp_path: Path, decls: str) -> None:
    assert _kinds(tmp_path, decls) == ["switch"]
    found = open_inputs(_design(tmp_path, decls, "w"))  # type: ignore[arg-type]
    assert fed_ports(found) == (("b",), True)


@pytest.mark.parametrize(
    "decls",
    [
        "  wire w;\n  assign (weak0, weak1) w = s[0];\n",  # a weak driver drives a value
        "  reg w;\n  initial begin force w = 1'b0; #5 release w; end\n",  # a variable keeps it
    ],
)
def test_a_strength_without_highz_or_a_forced_variable_feeds_nothing(
    tmp_path: Path, decls: str
) -> None:
    assert "switch" not in _kinds(tmp_path, decls)


def test_a_gate_with_a_control_in_a_submodule_feeds_z(tmp_path: Path) -> None:
    (tmp_path / "drv.v").write_text(
        "module drv(input a, input en, output o);\n  bufif1 g(o, a, en);\nendmodule\n"
    )
    decls = "  wire w;\n  drv d(.a(a[0]), .en(s[0]), .o(w));\n"
    assert _found(tmp_path, decls, "w") == [("top.u", "b")]


def test_an_instance_of_a_module_with_a_path_delay_feeds_x(tmp_path: Path) -> None:
    # round 93 case 05: under -gspecify its output reads x until the first update
    (tmp_path / "stim.v").write_text(
        "module stim(input i, output o);\n  buf g(o, i);\n  specify (i => o) = 5; endspecify\n"
        "endmodule\n"
    )
    assert _kinds(tmp_path, "  wire w;\n  stim d(.i(s[0]), .o(w));\n") == ["delay"]


def test_a_user_defined_primitive_feeds_x(tmp_path: Path) -> None:
    (tmp_path / "pass1.v").write_text(UDP)
    assert _kinds(tmp_path, "  wire w;\n  pass1 g(w, s[0]);\n") == ["udp"]


@pytest.mark.parametrize(
    "decls",
    [
        "  wire w;\n  assign #5 w = s[0];\n",
        "  wire #5 w = s[0];\n",
        "  wire #5 w;\n  assign w = s[0];\n",
        "  wire w;\n  buf #5 g(w, s[0]);\n",
        "  wire w;\n  and #(1, 2) g(w, s[0], s[1]);\n",
        "  reg w;\n  initial #5 w = 1'b1;\n",
        "  reg w;\n  initial begin #1; w = 1'b1; end\n",
        "  reg w;\n  initial @(posedge s[0]) w = 1'b1;\n",
        "  reg w;\n  always #5 w = s[0];\n",
        # a task writes when a process calls it (round 43 T8: its delay, the call's)
        "  reg w;\n  task t; begin #5 w = 1'b1; end endtask\n  initial t;\n",
        "  reg w;\n  task t; begin w = 1'b1; end endtask\n  initial begin #1 t; end\n",
        "  reg w;\n  task automatic t; begin @(posedge s[0]); w = 1'b1; end endtask\n"
        "  initial t;\n",
        "  reg w;\n  task t; begin w = s[0]; end endtask\n  always begin #5 t; end\n",
        "  reg w;\n  task t; begin w = s[0]; end endtask\n"
        "  always @(posedge s[1]) begin @(negedge s[1]); t; end\n",
        "  reg w;\n  task t; begin w = 1'b1; end endtask\n  task u; begin #2 t; end endtask\n"
        "  always @* u;\n",
        # a task called where it may not run at time 0 (round 45)
        "  reg w;\n  reg en = 1'b0;\n  task t; w = 1'b1; endtask\n  initial if (en) t;\n",
        "  reg w;\n  task t; w = 1'b1; endtask\n  initial repeat (0) t;\n",
        # ... or after a statement that may not end (probes of round 45)
        "  reg w;\n  task t; w = 1'b1; endtask\n  initial begin : b disable b; t; end\n",
        "  reg w;\n  reg k = 1'b1;\n  task t; w = 1'b1; endtask\n"
        "  initial begin while (k) k = k; t; end\n",
        # an output argument a task returns after its own delay (round 44)
        "  reg w;\n  task automatic t(output reg v); begin #5 v = 1'b1; end endtask\n"
        "  initial t(w);\n",
        # a function writing a module's variable, called after a delay (round 45)
        "  reg w;\n  function void setf(); w = 1'b1; endfunction\n  initial begin #5 setf(); end\n",
        "  reg w;\n  function automatic bit setf(); w = 1'b1; return 1'b1; endfunction\n"
        "  reg d;\n  initial begin #5 d = setf(); end\n",
        # @* does not wait for what a task reads: the block never runs (iverilog)
        "  reg w;\n  task t; begin w = s[0]; end endtask\n  always @* t;\n",
        # a task a clocked block calls writes at a clock edge: x until then
        "  reg w;\n  task t; begin w <= s[0]; end endtask\n  always @(posedge s[1]) t;\n",
    ],
)
def test_a_delay_feeds_x_until_the_first_update(tmp_path: Path, decls: str) -> None:
    assert _kinds(tmp_path, decls) == ["delay"]


@pytest.mark.parametrize(
    "decls",
    [
        "  wire w;\n  and g(w, s[0], s[1]);\n",  # a gate without a delay
        "  wire w;\n  assign w = s[0];\n",
        "  reg w = 1'b0;\n  initial #5 w = 1'b1;\n",  # an initial value first
        "  reg w;\n  initial begin w = 1'b0; #5 w = 1'b1; end\n",  # written at time 0 first
        "  reg w;\n  initial begin w = 1'b0; forever #5 w = ~w; end\n",
        "  wire w;\n  pullup p(w);\n",
        # a task an initial block calls before its first delay writes at time 0
        "  reg w;\n  task t; begin w = 1'b1; end endtask\n  initial begin t; #1 t; end\n",
        # a task always_comb calls writes at time 0
        "  reg w;\n  task t; begin w = s[0]; end endtask\n  always_comb t;\n",
        # a function without a side effect, called after a delay or by a register's block
        "  function f(input i); reg t; begin t = i; f = t; end endfunction\n"
        "  wire w = f(s[0]);\n  reg d;\n  initial begin #5 d = f(s[1]); end\n",
    ],
)
def test_drivers_defined_from_time_0_are_not_found(tmp_path: Path, decls: str) -> None:
    assert _found(tmp_path, decls, "w") == []


def test_a_gate_reads_its_inputs(tmp_path: Path) -> None:
    """A gate's output is judged by what its inputs read (the cone goes through it)."""
    decls = "  wire w, x;\n  assign x = 1'bx;\n  and g(w, s[0], x);\n"
    assert _found(tmp_path, decls, "w") == [("top.u", "b")]


@pytest.mark.parametrize(
    ("decls", "poke", "found"),
    [
        ("  reg w = 1'b1;\n", "initial #0.2 top.w = 1'bx;", True),  # a variable
        ("  reg w = 1'b1;\n", "initial top.w = 1'bz;", True),
        ("  wire w = s[0];\n", "initial force top.w = 1'bx;", True),
        ("  reg w = 1'b1;\n", "initial #1 top.w = 1'b0;", False),  # a defined value
        ("  reg w = 1'b1;\n  reg [2:0] k = 3'd0;\n", "initial top.w = top.k[3];", True),
    ],
)
def test_a_hierarchical_write_from_another_file_is_judged_like_a_local_one(
    tmp_path: Path, decls: str, poke: str, found: bool
) -> None:
    # the testbench ties top's inputs (left open they would feed the target z) and makes
    # ``tb`` the design's top: the target's instance is ``tb.t.u``
    tb = "  top t(.a(8'd0), .s(3'd0), .ss(3'sd0), .y());\n"
    (tmp_path / "tb.v").write_text(
        f"`timescale 1ns/1ps\nmodule tb;\n{tb}  {poke.replace('top.', 't.')}\nendmodule\n"
    )
    assert _found(tmp_path, decls, "w") == ([("tb.t.u", "b")] if found else [])


def test_the_reasons_name_the_gate_the_primitive_and_the_delay(tmp_path: Path) -> None:
    def reason(name: str, decls: str) -> str:
        (tmp_path / name).mkdir()
        (tmp_path / name / "pass1.v").write_text(UDP)
        return open_inputs_reason(_design(tmp_path / name, decls, "w"))  # type: ignore[arg-type]

    sw = reason("g", "  wire w;\n  bufif1 g(w, a[0], s[0]);\n")
    assert "connects input 'b' to 'w' (top.v, line 2), which may be z at run time" in sw, sw
    assert "bufif1 g (top.v, line 3) drives z while its control is off" in sw, sw
    udp = reason("u", "  wire w;\n  pass1 g(w, s[0]);\n")
    assert "pass1 g (top.v, line 3) drives x for the inputs its table does not list" in udp
    dl = reason("d", "  wire w;\n  assign #5 w = s[0];\n")
    assert "assign #5 w = s[0] (top.v, line 3) delays" in dl, dl
    ini = reason("i", "  reg w;\n  initial #5 w = 1'b1;\n")
    assert "'w' (top.v, line 2) reads x until its first write, w = 1'b1" in ini, ini


@pytest.mark.parametrize(
    ("decls", "z"),
    [
        # r powers up x (found first); what it then holds may be z: v, which nothing drives
        ("  wire v;\n  reg r;\n  always @(posedge s[1]) r <= v;\n", True),
        (
            "  wire v;\n  bufif1 g(v, a[0], s[0]);\n  reg r;\n  always @(posedge s[1]) r <= v;\n",
            True,
        ),
        ("  reg r;\n  always @(posedge s[1]) r <= a[0];\n", False),  # x only
        # a z under a condition or in an index never passes on
        ("  wire v;\n  reg r;\n  always @(posedge s[1]) if (v) r <= a[0];\n", False),
    ],
)
def test_a_z_past_the_first_x_source_makes_the_input_z(tmp_path: Path, decls: str, z: bool) -> None:
    found = open_inputs(_design(tmp_path, decls + "  wire w = r;\n", "w"))  # type: ignore[arg-type]
    assert [o.kind for o in found] == ["powerup"]
    assert fed_ports(found) == (("b",), z)


def test_an_input_judged_first_through_another_cone_names_the_targets_port(
    tmp_path: Path,
) -> None:
    """``u2``'s cone reaches ``u1``'s input ``b`` (through ``u1``'s output) before ``u1`` is
    judged itself: ``u1.b``, fed z through ``mid``'s open ``pb``, is still the target's
    ``b`` (not ``mid``'s ``pb``, which the proof of ``m`` does not know)."""
    (tmp_path / "m.v").write_text(
        "module m(input [7:0] a, input b, output reg [7:0] y);\n"
        "  always @* begin if (b) y = a; else y = 8'd0; end\nendmodule\n"
    )
    (tmp_path / "top.v").write_text(
        "module mid(input pb, output [7:0] y);\n  wire [7:0] y1;\n"
        "  m u2(.a(8'd1), .b(y1[0]), .y(y));\n  m u1(.a(8'd1), .b(pb), .y(y1));\nendmodule\n"
        "module top(output [7:0] y);\n  mid k(.pb(), .y(y));\nendmodule\n"
    )
    design = load_design(tmp_path / "m.v", "m", ProjectConfig())
    found = open_inputs(design)
    assert fed_ports(found) == (("b",), True)  # not ("b", "pb")
    assert [o.reaches for o in found if o.instance == "top.k"] == ["top.k.u1.b"]


@pytest.mark.parametrize(
    "decls",
    [
        # a caller in a generate block (round 46)
        "  reg w;\n  task t; w = 1'b1; endtask\n  if (1) begin : g\n    initial begin #5 t; end\n"
        "  end\n",
        # a task with a delay called first
        "  reg w;\n  reg d;\n  task slow; #5 d = 1'b0; endtask\n  task t; w = 1'b1; endtask\n"
        "  initial begin slow; t; end\n",
        # an intra-assignment delay first
        "  reg w;\n  reg d;\n  task t; w = 1'b1; endtask\n  initial begin d = #5 1'b0; t; end\n",
        # a call from another module through a hierarchical name
        "  reg w;\n  task t; w = 1'b1; endtask\n  caller cc();\n",
    ],
    ids=["generate", "slow_first", "intra_delay", "hierarchical"],
)
def test_a_task_called_late_from_anywhere_feeds_x(tmp_path: Path, decls: str) -> None:
    (tmp_path / "caller.v").write_text("module caller;\n  initial #5 top.t;\nendmodule\n")
    assert _kinds(tmp_path, decls) == ["delay"]


@pytest.mark.parametrize(
    "decls",
    [
        "  reg w;\n  task t; if (s[0]) w = 1'b1; endtask\n  initial t;\n",
        "  reg w;\n  task t; integer k; for (k = 0; k < 1; k = k + 1) if (s[0]) w = 1'b1; endtask\n"
        "  initial t;\n",
    ],
    ids=["if", "for"],
)
def test_a_task_writing_on_some_paths_only_leaves_x(tmp_path: Path, decls: str) -> None:
    """Round 47: a task called at time 0 that writes a variable on some paths only."""
    assert _kinds(tmp_path, decls) != []
