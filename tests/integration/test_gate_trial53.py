"""Held-out gate trial 53 (ZipCPU's wbuart32): a paste-in fragment the configuration excludes
(``wbuart-insert.v``: declarations meant for a module's body, no module) was read as a file
of the compilation unit whose ``$unit`` names take the place of the target's, and LaTeX's
class files were read as simulation text (a comment's "3.91 in x 1.26 in" an x driven into
every input). Both are files no build compiles; a fragment the configuration does not
exclude still counts (real tools)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import repo_verdict

pytestmark = pytest.mark.tools

RX = (
    "module rx (input clk, input i_uart, output reg o);\n  reg ck_uart;\n"
    "  always @(posedge clk) ck_uart <= i_uart;\n  always @(posedge clk) o <= {o};\nendmodule\n"
)
FRAGMENT = "  // paste into the top's body\n  wire ck_uart;\n  assign ck_uart = 1'b0;\n"
EXCLUDE = '[project]\nexclude = ["insert.v"]\n'


@pytest.mark.parametrize(("excluded", "accepted"), [(True, True), (False, False)])
def test_an_excluded_fragment_is_no_compilation_unit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, excluded: bool, accepted: bool
) -> None:
    files = {"rx.v": RX.format(o="ck_uart"), "insert.v": FRAGMENT}
    if excluded:
        files["rtlopt.toml"] = EXCLUDE
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "rx.v", RX.format(o="ck_uart | 1'b0"))
    assert (rc == 0) == accepted, reason
    if not accepted:
        assert "insert.v:2: a declaration outside every module" in reason, reason


def test_a_latex_class_is_documentation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``.cls``/``.sty`` holds no simulation: its x is no x value."""
    top = "module top (input a, input b, output y);\n  m u (.a(a), .b(b), .y(y));\nendmodule\n"
    m = "module m (input a, input b, output y);\n  assign y = {y};\nendmodule\n"
    files = {
        "m.v": m.format(y="a & b"),
        "top.v": top,
        "doc/spec.cls": "% page 3.91 in x 1.26 in\n\\setlength{\\x}{1in}\n",
        "doc/spec.sty": "\\def\\sig{x}\n% a x b\n",
    }
    # an if against &: equal on 0/1, not where a or b is x (that would be refuted)
    cand = (
        "module m (input a, input b, output y);\n  function f(input p, input q);\n"
        "    if (p) f = q; else f = 1'b0;\n  endfunction\n  assign y = f(a, b);\nendmodule\n"
    )
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "m.v", cand)
    assert rc == 0, reason
