"""`rtlopt check`'s table in an 80-column log (CI): the verdict of every row is never cut."""

from __future__ import annotations

import io

import pytest

from rtlopt.check import CheckReport, ModuleCheck


@pytest.mark.parametrize("width", [80, 60])
def test_the_result_word_survives_a_narrow_log(monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    from rich.console import Console

    import rtlopt.cli.check as cli_check

    buf = io.StringIO()
    con = Console(file=buf, width=width, highlight=False, color_system=None)
    monkeypatch.setattr(cli_check, "console", con)
    long = "branch_predictor_saturation_counter_with_a_long_name"
    mods = [
        ModuleCheck(
            file="rtl/a.v",
            module=long,
            change="modified",
            equivalence="not required (no optimization_only rule or trailer names it)",
        ),
        ModuleCheck(
            file="rtl/b.v", module="b", change="modified", equivalence="refuted", findings=["x"]
        ),
        ModuleCheck(
            file="rtl/c.v",
            module="c",
            change="modified",
            equivalence="-",
            findings=["yosys timed out"],
            tool_error=True,
        ),
    ]
    cli_check._print_table(CheckReport("abc", "adp", 0.02, mods))
    lines = buf.getvalue().splitlines()
    assert all(len(line) <= width for line in lines)
    rows = "\n".join(lines)
    assert "pass" in rows and "FAIL" in rows and "not checked" in rows, rows
    assert "…" not in rows, rows  # nothing ellipsized: long cells fold


@pytest.mark.parametrize("ppa", [True, False])
def test_the_title_says_whether_ppa_is_measured(monkeypatch: pytest.MonkeyPatch, ppa: bool) -> None:
    from rich.console import Console

    import rtlopt.cli.check as cli_check

    buf = io.StringIO()
    con = Console(file=buf, width=120, highlight=False, color_system=None)
    monkeypatch.setattr(cli_check, "console", con)
    mods = [ModuleCheck(file="rtl/a.v", module="a", change="modified", equivalence="proven")]
    cli_check._print_table(CheckReport("abc", "ppa", 0.02, mods, ppa=ppa))
    title = next(ln for ln in buf.getvalue().splitlines() if ln.startswith("rtlopt check"))
    if ppa:
        assert "PPA in um^2*ps*uW, threshold 2%" in title, title
    else:  # no threshold that is not applied; the setting shown as written
        assert "PPA not measured: [check] ppa = false" in title, title
        assert "threshold" not in title, title
