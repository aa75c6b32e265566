"""Held-out red-team round 124 against the gate: a module that must stay equivalent
(``optimization_only = ["top_a"]``) changed through a module it instantiates, which the commit
changed and nothing required (real tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _gate_repo import check_staged, gate_repo

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["top_a"]\n'
TOP = "module top_a (input [3:0] a, input [3:0] b, output [3:0] y);\n  mid u (.a(a), .b(b), .y(y));\nendmodule\n"
MID = "module mid (input [3:0] a, input [3:0] b, output [3:0] y);\n  child c (.a(a), .b(b), .y(y));\nendmodule\n"
CHILD = (
    "module child (input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = {y};\nendmodule\n"
)
OTHER = "module other (input [3:0] a, output [3:0] y);\n  assign y = {y};\nendmodule\n"


@pytest.mark.parametrize(
    ("y", "passes"), [("b & a", True), ("a | b", False)], ids=["equivalent", "changed"]
)
def test_a_module_below_a_required_one_is_required(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, y: str, passes: bool
) -> None:
    files = {
        "rtlopt.toml": CONFIG,
        "top_a.v": TOP,
        "mid.v": MID,
        "child.v": CHILD.format(y="a & b"),
        "other.v": OTHER.format(y="a"),
    }
    repo = gate_repo(tmp_path, monkeypatch, files)
    (repo / "child.v").write_text(CHILD.format(y=y))
    (repo / "other.v").write_text(OTHER.format(y="~a"))  # nothing required above it
    r = check_staged(repo)
    out = r.stdout + r.stderr
    assert r.returncode == (0 if passes else 1), out
    assert "top_a (top_a.v) instantiates mid, which instantiates child below it" in out, out
    assert "not required: other" in out, out


@pytest.mark.parametrize(
    "files",
    [
        {
            "top_a.v": 'module top_a (input [3:0] a, input [3:0] b, output [3:0] y);\n`include "inst.vh"\nendmodule\n',
            "inst.vh": "  child c (.a(a), .b(b), .y(y));\n",
        },
        {
            "top_a.v": "module top_a (input [3:0] a, input [3:0] b, output [3:0] y);\n  \\child  c (.a(a), .b(b), .y(y));\nendmodule\n"
        },
        {
            "top_a.v": "module top_a #(parameter M = 0) (input [3:0] a, input [3:0] b, output [3:0] y);\n  case (M)\n    0: child c (.a(a), .b(b), .y(y));\n    default: assign y = a;\n  endcase\nendmodule\n"
        },
        {
            "top_a.v": 'module top_a (input [3:0] a, input [3:0] b, output [3:0] y);\n`include "inst.txt"\nendmodule\n',
            "inst.txt": "  child c (.a(a), .b(b), .y(y));\n",
        },
    ],
    ids=["in-an-included-fragment", "escaped-name", "generate-case-item", "fragment-of-txt"],
)
def test_an_instance_the_walk_must_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> None:
    """Red-team round 125 (cases 17, 19, 29): the walk up missed these instances."""
    base = {"rtlopt.toml": CONFIG, "child.v": CHILD.format(y="a & b"), **files}
    repo = gate_repo(tmp_path, monkeypatch, base)
    (repo / "child.v").write_text(CHILD.format(y="a | b"))
    r = check_staged(repo)
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "top_a" in out.splitlines()[0], out
