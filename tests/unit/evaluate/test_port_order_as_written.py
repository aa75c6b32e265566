"""``rtlopt evaluate`` judges a candidate in another port order as written where a text of
the repository may connect the target by position (or names it where rtlopt cannot tell
how); only then is the reference's order, which ``optimize`` writes back, not assumed."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.evaluate._positional import _first, positional_sites
from rtlopt.evaluate._tb_x_forms import lexed


@pytest.mark.parametrize(
    "text",
    [
        "module tb; mux dut(s, a, b, y); endmodule\n",
        "module tb; mux #(4) dut (s, a, b, y); endmodule\n",
        "module tb; mux #(.W(4)) dut [1:0] (s, a, b, y); endmodule\n",
        "module tb;\n  mux\n    dut\n    (\n      s, a, b, y);\nendmodule\n",
        "`define DUT(n) mux n(.s(s), .a(a), .b(b), .y(y))\n",
        "`define DUT(n) \\\n  mux n(s, a, b, y)\n",
    ],
)
def test_a_positional_or_unreadable_instance_is_found(text: str) -> None:
    assert positional_sites("mux", lexed(text)), text


@pytest.mark.parametrize(
    "text",
    [
        "module mux(input s, input [3:0] a, b, output [3:0] y); endmodule\n",
        "module tb; mux dut(.s(s), .a(a), .b(b), .y(y)); endmodule\n",
        "module tb; mux #(4) dut (.*); endmodule\n",
        "module tb; // mux dut(s, a, b, y);\n mux_top u(s); endmodule\n",
        'module tb; initial $display("mux dut(s, a)"); endmodule\n',
    ],
)
def test_named_instances_and_mentions_are_no_positional_site(text: str) -> None:
    assert positional_sites("mux", lexed(text)) == [], text


def test_the_first_site_names_file_and_line() -> None:
    texts = [
        (Path("/r/mux.v"), "module mux(input s, output y);\nendmodule\n"),
        (Path("/r/tb/tb.v"), "module tb;\n  mux dut(s, y);\nendmodule\n"),
    ]
    assert _first("mux", texts, Path("/r")) == "tb/tb.v:2"
    assert _first("mux", texts[:1], Path("/r")) == ""
