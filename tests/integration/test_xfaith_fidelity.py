"""The differential test behind ``formal/xfaith_model.py``: each construct simulated in iverilog
with every 0/1/x/z value of its inputs, against what ``sat -enable_undef`` says after
``proc -ifx`` (z read as x, as Yosys reads it).

Per output bit: ``optimistic`` (Yosys defined, iverilog x: a candidate would pass with an x
the repository's simulation shows), ``pessimistic`` (Yosys x, iverilog defined: a reference
value would be a don't care) or ``wrong`` (both defined, different); each is unsound for the
x-faithfulness proof, so wherever one occurs the proof must refuse the construct (x inputs
only: with ``z`` off; with z inputs too: with ``z`` on), and where none does a construct the
proof needs (if/else, case, ``?:``, operators) must not be refused. ``-s`` prints the table."""

from __future__ import annotations

import itertools
import re
import subprocess
from pathlib import Path

import pytest

from rtlopt.formal.xfaith_model import cone_refusal, rtlil_refusal, text_refusal

pytestmark = pytest.mark.tools

HEAD = "module dut(input [1:0] a, input [1:0] s, output reg [1:0] y);\n"
CONSTRUCTS = {
    "if_else": "always @* if (s[0]) y = a; else y = ~a;",
    "if_vector": "always @* if (s) y = a; else y = 2'b10;",
    "case_default": (
        "always @* case (s) 2'd0: y = a; 2'd1: y = ~a; 2'd2: y = 2'b01; default: y = 2'b10; endcase"
    ),
    "case_no_default": "always @* begin y = 2'b11; case (s) 2'd0: y = a; 2'd1: y = ~a; endcase end",
    "case_x_item": "always @* case (s) 2'b1x: y = a; 2'b0z: y = ~a; default: y = 2'b11; endcase",
    "casez": "always @* casez (s) 2'b1?: y = a; 2'b01: y = ~a; default: y = 2'b11; endcase",
    "casez_no_wildcard": (
        "always @* casez (s) 2'b10: y = a; 2'b01: y = ~a; default: y = 2'b11; endcase"
    ),
    "casex": "always @* casex (s) 2'b1x: y = a; 2'b01: y = ~a; default: y = 2'b11; endcase",
    "x_default": "always @* case (s) 2'd0: y = a; 2'd1: y = ~a; default: y = 2'bx; endcase",
    "nested_if_case": (
        "always @* begin y = 2'b00; if (a[0]) case (s) 2'd1: y = 2'b01; default: y = a; endcase end"
    ),
    "ternary": "always @* y = s[0] ? a : ~a;",
    "eq_ne": "always @* y = {a == s, a != s};",
    "eqx_nex": "always @* y = {a === s, a !== s};",
    "eqx_constant": "always @* if (s === 2'bxx) y = a; else y = ~a;",
    "lt_ge": "always @* y = {a < s, a >= s};",
    "signed_lt_gt": "always @* y = {$signed(a) < $signed(s), $signed(a) > $signed(s)};",
    "add": "always @* y = a + s;",
    "sub": "always @* y = a - s;",
    "mul": "always @* y = a * s;",
    "neg": "always @* y = -a;",
    "div": "always @* y = a / s;",
    "mod": "always @* y = a % s;",
    "pow": "always @* y = a ** s;",
    "shl": "always @* y = a << s;",
    "shr": "always @* y = a >> s;",
    "sshr": "always @* y = $signed(a) >>> s;",
    "index": "wire [3:0] v = {a, ~a}; always @* y = {1'b0, v[s]};",
    "index_past_range": "wire [2:0] v = {a, a[0]}; always @* y = {1'b0, v[s]};",
    "part_select": "wire [3:0] v = {a, ~a}; always @* y = v[s +: 2];",
    "array_read": (
        "wire [1:0] m [0:3]; assign m[0] = a; assign m[1] = ~a; assign m[2] = 2'b01; "
        "assign m[3] = 2'b10; always @* y = m[s];"
    ),
    "index_write": "always @* begin y = a; y[s[0]] = 1'b0; end",
    "part_write": "always @* begin y = 2'b00; y[s[0] +: 1] = a[0]; end",
    "reduce_and_xor": "always @* y = {&a, ^s};",
    "reduce_or_xnor": "always @* y = {|a, ~^s};",
    "logical": "always @* y = {a && s, !a};",
    "bitwise": "always @* y = (a & s) ^ (a | ~s);",
    "concat": "always @* y = {a[0], s[1]};",
    "replicate": "always @* y = {2{s[0]}} & a;",
    # 2-state types: iverilog turns x into 0 where it assigns one, Yosys reads them as logic
    "bit_function": (
        "function automatic bit f(input v); f = v; endfunction always @* y = {f(s[0]), f(a[0])};"
    ),
    "int_function": (
        "function automatic int f(input [1:0] v); f = v; endfunction always @* y = f(a) + s;"
    ),
    "for_loop": (
        "integer i; always @* begin y = 0; for (i = 0; i < 2; i = i + 1) if (s[i]) y = y + a; end"
    ),
}
#: Constructs the proof needs to be able to prove (never refused on x inputs).
NEEDED = (
    "if_else", "if_vector", "case_default", "case_no_default", "x_default", "nested_if_case",
    "ternary", "eq_ne", "lt_ge", "add", "sub", "mul", "shl", "shr", "index", "part_select",
    "array_read", "reduce_and_xor", "logical", "bitwise", "concat", "for_loop", "casez",
)  # fmt: skip


def _vectors() -> list[tuple[str, str]]:
    return [("".join(v[:2]), "".join(v[2:])) for v in itertools.product("01xz", repeat=4)]


def _iverilog(d: Path) -> list[str]:
    tb = "module tb; reg [1:0] a, s; wire [1:0] y; dut u(.a(a), .s(s), .y(y));\ninitial begin\n"
    tb += "".join(f"a = 2'b{a}; s = 2'b{s}; #1 $display(\"%b\", y);\n" for a, s in _vectors())
    (d / "tb.v").write_text(tb + "end\nendmodule\n")
    subprocess.run(
        ["iverilog", "-g2012", "-o", str(d / "sim"), str(d / "dut.v"), str(d / "tb.v")], check=True
    )
    run = subprocess.run(["vvp", "-n", str(d / "sim")], capture_output=True, text=True, check=True)
    return [o.lower().replace("z", "x") for o in run.stdout.split()]


def _yosys(d: Path) -> list[str]:
    """``y`` for every vector by ``sat -enable_undef`` (empty where Yosys gives no model)."""
    lines = [f"read_verilog -sv {d / 'dut.v'}", f"write_rtlil {d / 'pre.il'}", "proc -ifx"]
    lines += ["flatten", "opt_clean", f"write_json {d / 'post.json'}"]
    for a, s in _vectors():
        lines.append(f"sat -enable_undef -set a 2'b{a.replace('z', 'x')} "
                     f"-set s 2'b{s.replace('z', 'x')} -show y dut")  # fmt: skip
    (d / "y.ys").write_text("\n".join(lines) + "\n")
    subprocess.run(["yosys", "-q", "-s", str(d / "y.ys"), "-l", str(d / "y.log")], check=False)
    text = (d / "y.log").read_text() if (d / "y.log").is_file() else ""
    return re.findall(r"^\s+\\y\s+\S+\s+\S+\s+([01x]+)\s*$", text, re.M)


def _differences(sim: list[str], yosys: list[str], *, z: bool) -> dict[str, int]:
    kinds = {"optimistic": 0, "pessimistic": 0, "wrong": 0}
    for (a, s), p, q in zip(_vectors(), sim, yosys, strict=True):
        if not z and "z" in a + s:
            continue
        for pb, qb in zip(p, q, strict=True):
            if pb == "x" and qb != "x":
                kinds["optimistic"] += 1
            elif pb != "x" and qb == "x":
                kinds["pessimistic"] += 1
            elif pb != qb:
                kinds["wrong"] += 1
    return kinds


def _refusal(d: Path, text: str, *, z: bool) -> str:
    pre = (d / "pre.il").read_text() if (d / "pre.il").is_file() else ""
    return (
        text_refusal([text], z=z)
        or rtlil_refusal(pre, z=z)
        or cone_refusal(d / "post.json", ["dut"], ["a", "s"])
    )


@pytest.mark.parametrize("name", sorted(CONSTRUCTS))
def test_the_proof_refuses_what_yosys_models_otherwise(tmp_path: Path, name: str) -> None:
    text = HEAD + CONSTRUCTS[name] + "\nendmodule\n"
    (tmp_path / "dut.v").write_text(text)
    sim, yosys = _iverilog(tmp_path), _yosys(tmp_path)
    assert len(sim) == len(_vectors()), sim
    rows = []
    for z in (False, True):
        refused = _refusal(tmp_path, text, z=z)
        if len(yosys) != len(sim):  # no model: the proof cannot prove it either
            rows.append(f"{name:18} z={z!s:5} no sat model; refused: {refused or '-'}")
            continue
        diff = _differences(sim, yosys, z=z)
        rows.append(f"{name:18} z={z!s:5} {diff}; refused: {refused or '-'}")
        if any(diff.values()):
            assert refused, f"{name} (z={z}): Yosys differs from iverilog {diff} and is not refused"
        elif name in NEEDED and not z:
            assert not refused, f"{name}: faithful but refused ({refused})"
    print("\n".join(rows))
