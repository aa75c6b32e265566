"""The `rtlopt` command line. Only this package prints; rich lives here."""

from __future__ import annotations

import importlib
import sys

import click

from rtlopt import __version__

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


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, _, attr = target.partition(":")
        cmd: click.Command = getattr(importlib.import_module(module_name), attr)
        return cmd

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _HELP[name]) for name in sorted(_COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rtlopt")
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
def cli(verbose: int) -> None:
    """rtlopt: make a Verilog/SystemVerilog module smaller, faster and cooler, provably unchanged.

    \b
    Examples:
      rtlopt inspect rtl/alu.v
      rtlopt optimize rtl/alu.v --pdk sky130 --pr
      rtlopt check --base origin/main
      rtlopt config show flow --toml

    Exit codes: 0 success, 1 rejected / no improvement / check failed, 2 usage or input error,
    3 internal or tool error, 130 interrupted (Ctrl-C), 128+N stopped by signal N (143 for
    SIGTERM).

    \b
    Shell completion of commands, options, PDK and policy names:
      bash: eval "$(_RTLOPT_COMPLETE=bash_source rtlopt)"   # in ~/.bashrc
      zsh:  eval "$(_RTLOPT_COMPLETE=zsh_source rtlopt)"    # in ~/.zshrc
      fish: _RTLOPT_COMPLETE=fish_source rtlopt | source    # in config.fish
    """
    # lazy: the shared plumbing imports the configuration and plugin tables, which the group's
    # own `--help` does not need
    from rtlopt.cli._common import setup_logging

    setup_logging(verbose)


_ONLY_TEXT = frozenset(("-h", "--help", "--version"))


def main() -> None:
    args = sys.argv[1:]
    # Tools run in their own sessions: a signal to rtlopt must end them (and clean scratch).
    # Help and version runs no command (click answers them before any command starts), so
    # they skip rtlopt.tools and its imports.
    if args and not _ONLY_TEXT.intersection(args):
        from rtlopt.tools import install_signal_handlers

        install_signal_handlers()
    cli(prog_name="rtlopt")


__all__ = ["cli", "main"]
