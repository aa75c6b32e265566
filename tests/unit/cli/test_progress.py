"""The progress line: the counter and the best result survive any width; plain lines in a
pipe; log records go through the live console, above the line."""

from __future__ import annotations

import io
import logging
import re

import pytest
from rich.console import Console

from rtlopt.cli import _common
from rtlopt.cli._progress import LineProgress, layout

KEY = "best reward 18.40, ADP 1,234 (-12.3%)"
SHORT = "best 18.40 -12.3%"
DETAILS = ["valid 50%", "mean 5.20", "delta 0.693"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _line(width: int, **kw: object) -> str:
    args: dict[str, object] = dict(
        counter="step 13/100",
        key=KEY,
        key_short=SHORT,
        elapsed="0:01:05",
        fraction=0.13,
        phase="evaluate",
        details=DETAILS,
    )
    args.update(kw)
    return layout(width, **args).plain  # type: ignore[arg-type]


@pytest.mark.parametrize("width", [30, 40, 50, 60, 70, 80, 100, 160])
def test_counter_and_best_survive_every_width(width: int) -> None:
    text = _line(width)
    assert len(text) <= width, text
    assert text.startswith("step 13/100 ")
    assert KEY in text or SHORT in text, text
    if width >= 50:  # the phase is kept, with the short result when the long one leaves no room
        assert "evaluate" in text and "0:01:05" in text
    if width >= 70:
        assert KEY in text
    if width >= 100:
        assert "valid 50%" in text
    if width >= 160:
        assert "━" in text and "delta 0.693" in text


def test_the_short_result_is_cut_last() -> None:
    text = _line(22)
    assert text.startswith("step 13/100 best") and text.endswith("…") and len(text) <= 22
    assert _line(11) == "step 13/100"


def test_nothing_is_dropped_when_there_is_room() -> None:
    text = _line(200)
    for part in ("step 13/100", "0:01:05", KEY, "evaluate", *DETAILS):
        assert part in text
    assert text.index("step") < text.index("━") < text.index("0:01:05") < text.index(KEY)


def test_not_a_terminal_prints_one_full_line_per_step() -> None:
    out = io.StringIO()
    con = Console(file=out, width=80, force_terminal=False, soft_wrap=True)
    with LineProgress(3, console=con) as p:
        assert not p.live
        for k in (1, 2, 3):
            p.update(phase="generate")  # phases print nothing in a log
            p.update(completed=k, key=f"{KEY} #{k}", key_short=SHORT, details=DETAILS)
            p.emit()
    lines = out.getvalue().splitlines()
    assert len(lines) == 3, lines
    for k, line in enumerate(lines, 1):
        assert line.startswith(f"step {k}/3 | {KEY} #{k} | valid 50% | mean 5.20 | delta 0.693 |")
        assert len(line) > 80  # never cut at the console width
        assert "\x1b" not in line


@pytest.mark.parametrize("width", [60, 100])
def test_terminal_line_and_logs_through_the_same_console(width: int) -> None:
    out = io.StringIO()
    con = Console(file=out, width=width, force_terminal=True, color_system="standard")
    handler = _common._ConsoleLogHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("rtlopt.test.progress")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        with LineProgress(20, console=con) as p:
            assert p.live
            p.update(completed=3, key=KEY, key_short=SHORT, details=DETAILS)
            logger.warning("a warning while the line is live")
            p.update(completed=4)
        assert _common._log_target is None  # back to stderr after the line
    finally:
        logger.removeHandler(handler)
    screen = ANSI.sub("", out.getvalue()).replace("\r", "\n")
    lines = [ln for ln in screen.splitlines() if ln.strip()]
    warn = [ln for ln in lines if "a warning while the line is live" in ln]
    assert warn and all(ln.startswith("WARNING rtlopt.test.progress:") for ln in warn), lines
    assert not any("━" in ln for ln in warn)  # never in the same line as the bar
    last = lines[-1]
    assert last.startswith("step 4/20") and (KEY in last or SHORT in last), lines
    assert all(len(ln) <= width for ln in lines if "━" in ln)


def test_without_a_phase_the_long_result_stays() -> None:
    assert KEY in _line(60, phase="")
