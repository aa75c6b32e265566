"""Progress of long commands, readable in a terminal of any width and in a CI log.

In a terminal, :class:`LineProgress` keeps one live line that is laid out for the terminal's
width at every refresh: the counter (``step 3/20``) and the key result (the best design so far)
always stay; the bar, the elapsed time, the phase and the details are added in that order while
they fit. When the output is not a terminal (a pipe, a CI log) nothing is redrawn: each finished
step prints one plain line with everything, never cut or wrapped.

While the live line is shown, log records are printed through the same console, above it
(:func:`rtlopt.cli._common.log_console`), so a warning never runs into the bar.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.live import Live
from rich.text import Text

from rtlopt.cli import _common

__all__ = ["LineProgress", "layout", "status"]

_SEP = " | "


def _elapsed(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def layout(
    width: int,
    *,
    counter: str,
    key: str,
    key_short: str,
    elapsed: str,
    fraction: float,
    phase: str,
    details: Sequence[str],
) -> Text:
    """One progress line of at most ``width`` cells.

    Priority: the counter, then the key result (long form, else the short form, else the short
    form cut; the short form also when only it leaves room for the phase), then the elapsed
    time, the phase and the details while they fit; a bar takes the room left (up to 30
    cells).

    Args:
        width: Cells available.
        counter: ``step 3/20``: always shown (cut only if it alone is wider than ``width``).
        key: The key result in full (``best reward 18.40, ADP 1,234 (-12.3%)``).
        key_short: The same, short (``best 18.40 -12.3%``).
        elapsed: Elapsed time.
        fraction: Done fraction for the bar (0..1).
        phase: What is running now.
        details: More numbers, most important first.
    """
    used = cell_len(counter)
    best = ""
    room = width - used - 1
    fits = [k for k in (key, key_short) if k and cell_len(k) <= room]
    if fits:
        best = fits[0]
        # the phase says what the minutes are spent on: shorten the result to keep it
        if phase and len(fits) > 1:
            reserve = (1 + cell_len(elapsed) if elapsed else 0) + cell_len(_SEP) + cell_len(phase)
            if room - cell_len(fits[0]) < reserve <= room - cell_len(fits[1]):
                best = fits[1]
    elif key_short and room - 1 >= 4:
        best = key_short[: room - 2] + "…"
    used += (1 + cell_len(best)) if best else 0
    show_elapsed = bool(elapsed) and used + 1 + cell_len(elapsed) <= width
    used += (1 + cell_len(elapsed)) if show_elapsed else 0
    extra: list[str] = []
    for part in ([phase] if phase else []) + list(details):
        if used + cell_len(_SEP) + cell_len(part) <= width:
            extra.append(part)
            used += cell_len(_SEP) + cell_len(part)
    bar_width = min(30, width - used - 1)  # the bar takes what is left
    if bar_width < 8:
        bar_width = 0
    line = Text(counter[:width], style="bold")
    if bar_width:
        filled = max(0, min(bar_width, round(bar_width * fraction)))
        line.append(" ")
        line.append("━" * filled, style="green")
        line.append("━" * (bar_width - filled), style="grey35")
    if show_elapsed:
        line.append(" " + elapsed, style="yellow")
    if best:
        line.append(" ")
        line.append(best, style="bold cyan")
    for part in extra:
        line.append(_SEP + part)
    return line


class LineProgress:
    """A counter with a key result: a live line in a terminal, plain lines otherwise.

    Args:
        total: Number of units (steps, designs).
        label: Unit name in the counter (``step`` -> ``step 3/20``).
        console: Where to print (the commands' stdout console).
        live: Redraw one line (default: when ``console`` is a terminal).
    """

    def __init__(
        self,
        total: int,
        *,
        label: str = "step",
        console: Console | None = None,
        live: bool | None = None,
    ) -> None:
        self.console = _common.real_console(console if console is not None else _common.console)
        self.total = total
        self.label = label
        self.live = self.console.is_terminal if live is None else live
        self.completed = 0
        self.key = ""
        self.key_short = ""
        self.phase = ""
        self.details: list[str] = []
        self._start = time.monotonic()
        self._live: Live | None = None

    def counter(self) -> str:
        """``step 3/20``."""
        return f"{self.label} {self.completed}/{self.total}"

    def elapsed(self) -> str:
        """Time since the progress started, ``h:mm:ss``."""
        return _elapsed(time.monotonic() - self._start)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield layout(
            options.max_width,
            counter=self.counter(),
            key=self.key,
            key_short=self.key_short or self.key,
            elapsed=self.elapsed(),
            fraction=self.completed / self.total if self.total else 0.0,
            phase=self.phase,
            details=self.details,
        )

    def __enter__(self) -> LineProgress:
        self._start = time.monotonic()
        if self.live:
            self._live = Live(
                self,
                console=self.console,
                refresh_per_second=4,
                transient=False,
                redirect_stdout=True,
                redirect_stderr=True,
            )
            self._live.start()
            _common.set_log_console(self.console)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._live is not None:
            self.phase = ""
            self._live.stop()
            self._live = None
            _common.set_log_console(None)

    def update(
        self,
        *,
        completed: int | None = None,
        key: str | None = None,
        key_short: str | None = None,
        phase: str | None = None,
        details: Sequence[str] | None = None,
    ) -> None:
        """Change what the line shows (a live line redraws at its next refresh)."""
        if completed is not None:
            self.completed = completed
        if key is not None:
            self.key = key
            self.key_short = key_short if key_short is not None else key
        if phase is not None:
            self.phase = phase
        if details is not None:
            self.details = list(details)
        if self._live is not None:
            self._live.refresh()

    def plain(self) -> str:
        """Everything in one line: counter, key result, details and elapsed time."""
        parts = [self.counter(), self.key, *self.details, self.elapsed()]
        return _SEP.join(p for p in parts if p)

    def emit(self) -> None:
        """After a unit of work: when not live, print :meth:`plain` as one line (never cut)."""
        if not self.live:
            self.console.print(Text(self.plain()), soft_wrap=True, crop=False)


@contextmanager
def status(text: str, console: Console | None = None) -> Iterator[None]:
    """A spinner with ``text`` in a terminal; otherwise ``text`` printed once as a line, so a
    CI log shows what the command is waiting for."""
    target = console if console is not None else _common.console
    if target.is_terminal:
        with target.status(text):
            _common.set_log_console(target)
            try:
                yield
            finally:
                _common.set_log_console(None)
    else:
        target.print(Text(text), soft_wrap=True, crop=False)
        yield
