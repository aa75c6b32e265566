"""A name pattern anchored to the target (its module name or an instance path to it) in any
text but documentation, in any tool's selection syntax, reaches every inner name it can
match; a selection by something else than a name, or a syntax not read, reaches them all
(``evaluate/_reach_anchored.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.evaluate._reach_anchored import anchored_pattern
from rtlopt.evaluate._reach_loose import _VERILOG, _forms

FORMS = [f for f in _forms(frozenset({"cnt", "nxt"}), frozenset()) if not f.startswith("\\")]


def _hit(name: str, text: str, anchors: tuple[str, ...] = ("ctr", "u_ctr")) -> str:
    return anchored_pattern(
        [(Path(name), text)], set(anchors), FORMS, _VERILOG, lambda p, c, a, t: f"{p}:{t}"
    )


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("keep.ys", "select -assert-count 1 ctr/w:*nt\n"),
        ("keep.ys", "setattr -set keep 1 ctr/*\n"),
        ("Makefile", "synth:\n\tyosys -p 'read_verilog ctr.v; select ctr/c:cn?_reg*'\n"),
        ("flow.script", "set_dont_touch [get_cells top/u_ctr/*cnt*]\n"),
        ("probe.py", "sig = find('tb.u_ctr.*xt')\n"),
        ("keep.ys", "select ctr/a:keep\n"),  # by attribute: any object
        ("keep.ys", "select ctr/t:$dff %ci\n"),  # by type
        ("keep.ys", "select ctr/w:c+t*\n"),  # a syntax not read
        ("keep.ys", "select -module ctr w:*nt\n"),  # the anchor as a separate word
        ("keep.ys", "cd ctr\nselect w:*\n"),
        ("keep.ys", "read_verilog ctr.v\nselect w:*nt\n"),  # every module's wires
    ],
)
def test_anchored_pattern_reaches(name: str, text: str) -> None:
    assert _hit(name, text)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("keep.ys", "select -assert-count 1 ctr/w:*zz\n"),  # matches no inner name
        ("Makefile", "sim:\n\tiverilog -o s.vvp ctr.v *.v\n\trm -f *.vcd\n"),
        ("keep.ys", "select other/w:*nt\n"),  # another module's
        ("tb.v", "module tb; ctr u(); wire [7:0] p = cnt*2; endmodule\n"),  # a product
        ("keep.ys", "read_verilog x.v\nselect -module x *cnt*\n"),  # no anchor, no prefix
    ],
)
def test_unanchored_or_unmatched_pattern_reaches_nothing(name: str, text: str) -> None:
    assert _hit(name, text) == ""
