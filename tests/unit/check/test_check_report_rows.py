"""The gate's report and rules without tools (issue 33): one markdown row per judged module
with its rule, no percentage of a figure that is not a finite measurement, trailers that
require equivalence, and the dependency graph's reach."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rtlopt.check import CheckReport, ModuleCheck, percent_text
from rtlopt.check._check import cell
from rtlopt.check._ppa_compare import ratio as _ratio
from rtlopt.check._rules import required_modules
from rtlopt.config import Config
from rtlopt.frontend._depgraph import design_graph


def test_markdown_has_one_row_per_module_with_its_rule() -> None:
    mods = [
        ModuleCheck("rtl/a.v", "a", "modified", equivalence="proven", rule="required (x)"),
        ModuleCheck("rtl/b.v", "b", "modified", equivalence="not required", rule="not required"),
    ]
    md = CheckReport("0" * 40, "adp", 0.02, mods, headline="nothing | required").markdown()
    rows = [ln for ln in md.splitlines() if ln.startswith("| `")]
    assert len(rows) == 2
    assert "required (x)" in rows[0] and "| not required |" in rows[1]
    assert "nothing \\| required" in md  # a pipe cannot end a cell
    assert cell("a|b\nc") == "a\\|b c"


def test_a_figure_that_is_not_finite_is_never_a_percentage() -> None:
    assert _ratio(1.0, math.inf) is None and _ratio(math.nan, 2.0) is None
    assert _ratio(0.0, 1.0) is None and _ratio(None, 1.0) is None
    assert _ratio(2.0, 3.0) == 0.5
    assert percent_text(None) == "-" and percent_text(math.inf) == "-"
    assert percent_text(0.5) == "+50.0%"


def test_trailers_name_what_must_stay_equivalent() -> None:
    commits = [
        ("a" * 40, "fix\n\nRtlopt-Equivalent: alu, lza_*", ["rtl/x.v"]),
        ("b" * 40, "rtlopt: optimize mul (ADP -3%)\n\nbody\n\nRtlopt-Equivalence: proven", ["m.v"]),
        ("c" * 40, "Rtlopt-Equivalent: in_the_subject\n\nRtlopt-Equivalent: up\n\nend", []),
    ]
    req = required_modules(Config(), commits)
    assert req.why("rtl/x.v", "alu") == "trailer of aaaaaaaaaa"
    assert req.why("rtl/y.v", "lza_4") is not None
    assert req.why("other.v", "mul") is not None and req.why("m.v", "anything") is not None
    # any line of the message requires (git's trailers are the last paragraph's only)
    assert req.why("z.v", "in_the_subject") is not None and req.why("z.v", "up") is not None
    assert req.why("q.v", "q") is None


def test_the_graph_reaches_includers_macro_readers_and_instances(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "defs.vh").write_text("`define W 4\n")
    (tmp_path / "inc" / "more.vh").write_text('`include "defs.vh"\n')
    (tmp_path / "a.v").write_text('`include "more.vh"\nmodule a(); b u(); endmodule : a\n')
    (tmp_path / "b.v").write_text("module b(); wire [`DEPTH:0] w; endmodule\n")
    (tmp_path / "c.v").write_text("module c(); // b u();\nendmodule\n")
    g = design_graph(tmp_path)
    assert g.includers("inc/defs.vh") == {"inc/more.vh", "a.v"}
    assert g.reads_macros("b.v", {"DEPTH"}) and not g.reads_macros("a.v", {"DEPTH"})
    assert g.reads_macros("a.v", {"W"})  # through the headers it includes
    assert g.instances_of("b") == [("a.v", 2)]  # not the comment in c.v
    assert g.instances_of("a") == []  # its declaration and end label are no instances


def test_a_trailer_naming_nothing_is_a_problem_and_rtlopts_own_are_not() -> None:
    from rtlopt.check._rules import trailer_problems

    own = "rtlopt: optimize m (ADP -3%)\n\nRtlopt-Run: r1\nRtlopt-Metric: adp 2 -> 1\nRtlopt-Equivalence: proven"
    ok = [("a" * 40, own, []), ("b" * 40, "x\n\nRtlopt-Equivalent: m, rtl/*.v\n", [])]
    assert trailer_problems(ok, {"m"}, {"rtl/m.v"}) == []
    for msg in ("Rtlopt-Equivalent: mm", "Rtlopt_Equivalent: m", "Rtlop-Equivalent: m"):
        found = trailer_problems([("c" * 40, f"x\n\n{msg}\n", [])], {"m"}, set())
        assert len(found) == 1 and "cccccccccc" in found[0], (msg, found)
    assert (
        "did you mean m?" in trailer_problems([("d", "Rtlopt-Equivalent: mm", [])], {"m"}, set())[0]
    )


@pytest.mark.parametrize(
    "line",
    [
        "Rtlopt Equivalent: m",
        "- Rtlopt-Equivalent: m",
        "Rtlopt-Equivalent m",
        "Rtlopt-Equivalent = m",
        "**Rtlopt-Equivalent**: m",
        "1. Rtlopt-Equivalent: m",  # round 71
        "\u2022 Rtlopt-Equivalent: m",
    ],
)
def test_a_line_that_reads_like_a_trailer_must_be_one(line: str, tmp_path: Path) -> None:
    """Round 70: these required nothing, and the broken edit passed."""
    from rtlopt.check._rules import check_trailers, trailer_problems
    from rtlopt.errors import UsageError

    commits = [("e" * 40, f"edit\n\n{line}\n", [])]
    assert len(trailer_problems(commits, {"m"}, set())) == 1
    with pytest.raises(UsageError, match="reads like an equivalence trailer"):
        check_trailers(commits, [tmp_path])
    prose = [("f" * 40, "docs: the Rtlopt-Equivalent trailer\n\n# Rtlopt-Equivalent: m\n", [])]
    assert trailer_problems(prose, {"m"}, set()) == []


def test_a_format_character_inside_the_key_still_requires() -> None:
    """Round 71: ``R<zero-width space>tlopt-Equivalent: m`` reads as the trailer it shows."""
    for key in ("R\u200btlopt-Equivalent", "Rtlopt\u2011Equivalent"):  # another dash too
        commits = [("a" * 40, f"edit\n\n{key}: m\n", [])]
        assert required_modules(Config(), commits).why("m.v", "m") is not None, key
