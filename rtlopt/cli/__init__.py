"""The `rtlopt` command line. Only this package prints; rich lives here.

``main`` answers a cached ``rtlopt evaluate`` from its memo (:mod:`rtlopt.cli._fast`) before
click or anything heavy is imported; every other command runs through the click group
(:mod:`rtlopt.cli._group`, also reachable as ``rtlopt.cli.cli``)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import click

# name -> "module:attribute"; commands import lazily so `rtlopt --help` stays fast and light.
_COMMANDS: dict[str, str] = {
    "evaluate": "rtlopt.cli.evaluate:evaluate",
    "inspect": "rtlopt.cli.inspect:inspect",
    "pdk": "rtlopt.cli.pdk:pdk",
    "optimize": "rtlopt.cli.optimize:optimize",
    "report": "rtlopt.cli.report:report",
    "check": "rtlopt.cli.check:check",
    "bench": "rtlopt.cli.bench:bench",
    "config": "rtlopt.cli.config:config",
    "doctor": "rtlopt.cli.doctor:doctor",
    "init": "rtlopt.cli.init:init",
    "profile": "rtlopt.cli.profile:profile",
    "train": "rtlopt.cli.train:train",
}

_HELP: dict[str, str] = {
    "evaluate": "Score a candidate against the original module (equivalence + PPA).",
    "inspect": "Show a module's interface, clocks/resets, dependencies and harness.",
    "pdk": "List, locate and download PDK liberty files.",
    "optimize": "Run test-time training to find a smaller/faster equivalent module.",
    "report": "(Re)generate the report of a run directory.",
    "check": "Pre-commit/CI gate: changed modules keep their interface, equivalence and PPA.",
    "bench": "Run a benchmark suite (RTLLM v2.0, a folder of modules) with the paper's metrics.",
    "config": "Show the effective configuration and where each value comes from.",
    "init": "Write a starting rtlopt.toml and the gate's pre-commit and CI files.",
    "doctor": "Print the plan of a run (model, memory per part, versions) without starting it.",
    "profile": "Which module first: a design's area, power and worst paths per module.",
    "train": "Test-time training on verl (GPU machines): rows, estimator, launch.",
}


_ONLY_TEXT = frozenset(("-h", "--help", "--version"))


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["evaluate"] and not _ONLY_TEXT.intersection(args):
        # a candidate already judged: answered from the evaluation cache, nothing else loaded
        from rtlopt.cli._fast import answer_evaluate, note_command

        note_command(args)
        code = answer_evaluate(args)
        if code is not None:
            sys.exit(code)
    # Tools run in their own sessions: a signal to rtlopt must end them (and clean scratch).
    # Help and version runs no command (click answers them before any command starts), so
    # they skip rtlopt.tools and its imports.
    if args and not _ONLY_TEXT.intersection(args):
        from rtlopt.tools import install_signal_handlers

        install_signal_handlers()
    from rtlopt.cli._group import cli

    cli(prog_name="rtlopt")


def __getattr__(name: str) -> Any:
    if name == "cli":  # the click group, imported on first use
        from rtlopt.cli._group import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    cli: click.Group

__all__ = ["cli", "main"]
