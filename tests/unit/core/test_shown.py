"""Candidate- and repository-derived text reaches Markdown and the terminal only escaped.

A module name (an escaped identifier holds any printable character), a comment quoted in a
reason or a file path carries ``|``, backticks, ``<img onerror=...>``, a Markdown link, or
terminal control sequences (``ESC[2J``, ``\\rPROVEN``) and rich markup. Each page and printer
that shows such text is fed the same hostile strings: the ``check --summary`` table keeps its
cells, ``report.md``, the pull-request bodies and the ``evaluate`` / ``check`` terminal output
show the characters, never obey them.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from rtlopt.check._check import CheckReport, ModuleCheck
from rtlopt.results import PPA, EvalResult, FormalResult, Stage, Status, Verdict
from rtlopt.shown import md_code, md_text, terminal_text

NAME = "\\x|pass|`y`<img src=x onerror=alert(1)>[PROVEN](http://evil)"
COMMENT = (
    "// ok | **pass** | `x` <script>alert(1)</script> [click](http://evil) \x1b[2J\rPROVEN\x07"
)
MARKUP = "[bold red]PROVEN[/]"
HOSTILE = [NAME, COMMENT, MARKUP, "a\nb | c", "\u202eNEVORP"]


def _outside_code(text: str) -> str:
    """``text`` without its code spans (read as CommonMark does: a backtick run opens a span
    that the next run of the same length closes; a backslash escapes a backtick outside)."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            out.append(text[i : i + 2])
            i += 2
            continue
        m = re.match("`+", text[i:])
        if m is None:
            out.append(text[i])
            i += 1
            continue
        fence = m.group(0)
        close = re.compile(f"(?<!`){fence}(?!`)")
        end = close.search(text, i + len(fence))
        if end is None:
            out.append(fence)
            i += len(fence)
        else:
            out.append(" ")
            i = end.end()
    return "".join(out)


def _inert_markdown(text: str, links: int = 0) -> None:
    """Outside code spans: no HTML tag, no link but ``links`` of ours, no control character."""
    rest = _outside_code(text)
    assert "<img" not in rest and "<script" not in rest, rest
    assert len(re.findall(r"(?<!\\)\]\(", rest)) == links, rest
    assert "\x1b" not in text and "\r" not in text and "\x07" not in text


@pytest.mark.parametrize("s", HOSTILE)
def test_md_text_is_inert(s: str) -> None:
    out = md_text(s)
    _inert_markdown(out)
    assert "\n" not in out
    assert not re.search(r"(?<!\\)[|`\[]", out), out


@pytest.mark.parametrize("s", HOSTILE)
def test_md_code_cannot_be_closed(s: str) -> None:
    out = md_code(s)
    fence = re.match("`+", out)
    assert fence is not None
    inner = out[len(fence.group(0)) : -len(fence.group(0))]
    assert out.endswith(fence.group(0)) and fence.group(0) not in inner
    assert not re.search(r"(?<!\\)\|", inner) and "\n" not in out and "\x1b" not in out


def test_terminal_text_strips_controls() -> None:
    out = terminal_text(COMMENT + "\u202e")
    assert not re.search("[\x00-\x1f\x7f-\x9f\u202e]", out)
    assert "PROVEN" in out and terminal_text("a\nb", lines=True) == "a\nb"


def _cells(row: str) -> int:
    return len(re.findall(r"(?<!\\)\|", _outside_code(row))) - 1


def test_check_summary_keeps_its_cells() -> None:
    mods = [
        ModuleCheck(
            file=f"rtl/{s}.v",
            module=s,
            change="modified",
            equivalence="refuted",
            findings=[f"not equivalent: {COMMENT}"],
        )
        for s in HOSTILE
    ]
    md = CheckReport(base="`abc|<b>", metric="adp", threshold=0.0, modules=mods).markdown()
    _inert_markdown(md)
    rows = [r for r in md.splitlines() if r.startswith("|")]
    assert len(rows) == 2 + len(HOSTILE)  # no row split by a line break
    assert {_cells(r) for r in rows} == {10}  # with the rule column
    assert all(r.rstrip().endswith("|") and "FAIL" in r for r in rows[2:])


def test_report_pages_escape(tmp_path: Path) -> None:
    from rtlopt.report._multi import ModuleRow, multi_pr_body
    from rtlopt.report._report import _md_rejected

    rep: dict[str, Any] = {
        "rejected": [
            {
                "hash": "0123456789abcdef",
                "source": NAME,
                "step": 1,
                "stage": "simulation",
                "reason": COMMENT,
                "counterexample": [COMMENT],
                "waveform": f"{tmp_path}/x](http://evil).vcd",
            }
        ]
    }
    page = "\n".join(_md_rejected(rep))
    _inert_markdown(page, links=1)  # the waveform's, its target percent-encoded
    assert "x%5D%28http" in page
    rows = [ModuleRow(module=s, file=f"{s}.v", status="improved", reason=COMMENT) for s in HOSTILE]
    body = multi_pr_body(rows, None, "run`|")
    _inert_markdown(body)
    table = [r for r in body.splitlines() if r.startswith("|")]
    assert len({_cells(r) for r in table}) == 1


def test_evaluate_and_check_print_inert_text(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    import rtlopt.cli._evaluate_table as cli_eval
    import rtlopt.cli.check as cli_check

    buf = io.StringIO()
    con = Console(file=buf, force_terminal=True, width=200, highlight=False)
    monkeypatch.setattr(cli_eval, "console", con)
    monkeypatch.setattr(cli_check, "console", con)
    ppa = PPA(area_um2=1.0, delay_ps=1.0, power_uw=1.0)
    ref = EvalResult(Status.OK, Stage.DONE, ppa=ppa)
    bad = EvalResult(
        Status.INVALID,
        Stage.SIMULATION,
        reason=f"{COMMENT} {MARKUP}",
        formal=FormalResult(Verdict.UNKNOWN, method=MARKUP, reason=COMMENT),
    )
    cli_eval.print_table(NAME + MARKUP, ref, bad, "adp", None)
    mods = [ModuleCheck(file=s, module=s, change="modified", findings=[COMMENT]) for s in HOSTILE]
    cli_check._print_table(CheckReport("abc", "adp", 0.0, mods, notes=[COMMENT]))
    out = buf.getvalue()
    # rich's own styling is ESC[...m; nothing else of ESC, no CR, no BEL, no clear-screen
    assert not re.search(r"\x1b(?!\[[0-9;]*m)", out), repr(out)
    assert "\r" not in out and "\x07" not in out and "\x1b[2J" not in out
    assert out.count("[bold red]PROVEN[/]") >= 3  # the markup is shown, not obeyed


def test_the_pull_request_body_escapes(tmp_path: Path) -> None:
    from rtlopt.config import ProjectConfig
    from rtlopt.frontend import load_design
    from rtlopt.run import pr_body

    rtl = tmp_path / "a|b`x`<img src=x onerror=alert(1)>[l](http:e)"
    rtl.mkdir()
    src = rtl / "m.v"
    src.write_text("module m(input a, output y);\n  assign y = ~a;\nendmodule\n")
    design = load_design(src, "m", ProjectConfig(), root=tmp_path)
    ppa = PPA(area_um2=2.0, delay_ps=2.0, power_uw=1.0)
    ref = EvalResult(Status.OK, Stage.DONE, ppa=ppa)
    best = EvalResult(
        Status.OK,
        Stage.DONE,
        ppa=PPA(area_um2=1.0, delay_ps=1.0, power_uw=1.0),
        formal=FormalResult(Verdict.PROVEN, method=MARKUP, reason=COMMENT),
    )
    body = pr_body(design, ref, best, "adp", "run|`1`")
    _inert_markdown(body)
    assert "a\\|b" in body and "&lt;script&gt;" in body
