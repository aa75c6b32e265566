"""The `rtlopt` command group (click): commands import lazily so `rtlopt --help` stays fast and
light."""

from __future__ import annotations

import importlib

import click

from rtlopt import __version__
from rtlopt.cli import _COMMANDS, _HELP


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


__all__ = ["cli"]
