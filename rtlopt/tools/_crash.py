"""A tool killed by a signal is a tool error, never a verdict about the candidate.

Every Yosys and ABC run of the proof, and the compiler and preprocessor runs of the evaluation,
go through :func:`raise_if_crashed` right after they end: a run that died from a signal (an
abort, a segmentation fault, the kernel's out-of-memory killer) raises
:class:`~rtlopt.errors.ToolFailed` naming the signal and the log, so that the evaluator reports
``Status.TOOL_ERROR`` (exit 3 in ``evaluate``, "could not be checked" in ``check``) instead of
falling through to another engine and ending as an unproven candidate. A run stopped by its own
time limit (the wall clock, or the CPU-time backstop's ``SIGXCPU``) is a timeout, which the
engines already treat as an undecided proof.
"""

from __future__ import annotations

import signal

from rtlopt.errors import ToolFailed
from rtlopt.tools._runner import ToolRun

__all__ = ["crash_signal", "program", "raise_if_crashed"]

#: Signals that end a run because of its own limits, not because the tool failed.
_LIMIT_SIGNALS = frozenset({signal.SIGXCPU})


def crash_signal(run: ToolRun) -> str:
    """The name of the signal that killed ``run`` ("SIGABRT"), or "" when it was not a crash."""
    if run.timed_out or run.returncode >= 0:
        return ""
    signum = -run.returncode
    try:
        sig = signal.Signals(signum)
    except ValueError:
        return f"signal {signum}"
    return "" if sig in _LIMIT_SIGNALS else sig.name


def program(argv: tuple[str, ...] | list[str]) -> str:
    """The name of the program ``argv`` runs: past the sandbox's options (``bwrap ... --
    iverilog ...``) where it runs under one."""
    from rtlopt.tools._sandbox import bwrap_binary

    args = list(argv)
    wrappers = {"bwrap", (bwrap_binary() or "bwrap").rsplit("/", 1)[-1]}
    if args and "--" in args and args[0].rsplit("/", 1)[-1] in wrappers:
        args = args[args.index("--") + 1 :]
    return args[0].rsplit("/", 1)[-1] if args else "the tool"


def raise_if_crashed(run: ToolRun, what: str) -> None:
    """Raise :class:`ToolFailed` when ``run`` was killed by a signal.

    Args:
        run: The finished tool run.
        what: What the run was doing ("the structural proof"), for the message.
    """
    name = crash_signal(run)
    if not name:
        return
    tool = program(run.argv)
    said = [ln.strip() for ln in run.messages() if ln.strip()]
    last = f" ({said[-1][:200]})" if said else ""  # an assertion's line: the log may go
    raise ToolFailed(
        f"{tool} crashed ({name}) during {what}{last}: a tool failure, not a verdict on the "
        "candidate",
        command=list(run.argv),
        returncode=run.returncode,
        log_path=run.log_path,
        stderr_tail=run.tail(),
    )
