"""Shared CLI plumbing: error handling, console, the options several commands share."""

from __future__ import annotations

import functools
import logging
import os
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click
from click.shell_completion import CompletionItem

from rtlopt.config import choices
from rtlopt.errors import PluginError, RtloptError, Terminated, UsageError
from rtlopt.plugins import (
    ADVANTAGES,
    DELTA_SCHEDULES,
    EXECUTORS,
    FRONTENDS,
    PDKS,
    POLICIES,
    SAMPLERS,
)
from rtlopt.registry import Registry
from rtlopt.shown import terminal_text

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:
    from rich.console import Console


class _LazyConsole:
    """A rich ``Console`` made on first use: importing rich costs ~0.1 s that ``--help``,
    ``--json`` output and a cached ``evaluate`` never need."""

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs
        self._console: Console | None = None

    def real(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._kwargs)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real(), name)


def real_console(con: Console) -> Console:
    """The rich Console behind ``console`` / ``err_console`` (for rich APIs that need one)."""
    return con.real() if isinstance(con, _LazyConsole) else con


def escape(text: str) -> str:
    """Text to print as it is: control characters blanked (``rtlopt.shown.terminal_text``,
    line breaks kept), rich's markup escaped (``[bold red]PROVEN`` prints those characters).
    Everything the CLI prints of a candidate, a repository or a reason goes through here."""
    from rich.markup import escape as rich_escape

    return rich_escape(terminal_text(text, lines=True))


def shown(text: object) -> str:
    """:func:`escape` of one line: a module name, a path or a reason in a table cell."""
    return escape(terminal_text(text))


console = cast("Console", _LazyConsole(highlight=False, soft_wrap=True))
err_console = cast("Console", _LazyConsole(stderr=True, highlight=False, soft_wrap=True))

EXIT_OK, EXIT_REJECTED, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPT = 0, 1, 2, 3, 130


def crash_log_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rtlopt" / "crash.log"


def handle_errors(fn: F) -> F:
    """Turn library exceptions into one line on stderr and the documented exit codes."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except RtloptError as exc:
            # escaped: a path or name such as "rtl[3]" is text, not rich markup
            err_console.print(f"[bold red]error:[/] {escape(exc.one_line())}", soft_wrap=True)
            sys.exit(
                exc.exit_code if exc.exit_code in (EXIT_USAGE, EXIT_INTERNAL) else EXIT_INTERNAL
            )
        except KeyboardInterrupt:
            err_console.print("interrupted")
            sys.exit(EXIT_INTERRUPT)
        except Terminated as exc:
            err_console.print(f"stopped by {exc.name}")
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001 - top-level handler
            path = crash_log_path()
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(traceback.format_exc())
                where = f" (traceback in {path})"
            except OSError:
                where = ""
            err_console.print(
                f"[bold red]internal error:[/] {escape(f'{type(exc).__name__}: {exc}{where}')}",
                soft_wrap=True,
            )
            sys.exit(EXIT_INTERNAL)

    return wrapper  # type: ignore[return-value]


class OneLineUsageError(click.ClickException):
    """Bad input found while click parses options: one line on stderr and exit 2, like the
    errors the commands raise (click's usage errors print the usage block as well)."""

    exit_code = EXIT_USAGE

    def show(self, file: Any = None) -> None:
        err_console.print(f"[bold red]error:[/] {self.message}", soft_wrap=True)


class PluginChoice(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.3 only
    """A plugin name: checked, listed in ``--help`` and shell-completed from its registry.

    The registry is asked when the value is used, not when the command is defined, so names
    that installed distributions add through entry points are accepted like the built-ins.
    """

    def __init__(self, registry: Registry[object]) -> None:
        self.registry = registry
        self.name = registry.kind

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        try:  # the names; aliases are accepted and completed, not listed
            names = sorted([*self.registry.names(), *self.registry.reserved])
            return "[" + "|".join(names) + "]"
        except PluginError:  # a broken installation must not break --help; using it fails
            return "NAME"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        name = str(value)
        try:
            self.registry.check(name)
        except PluginError as exc:
            if isinstance(param, click.Argument):
                option = param.human_readable_name
            else:
                option = param.opts[0] if param is not None and param.opts else self.name
            raise OneLineUsageError(f"{option}: {exc.one_line()}") from None
        return self.registry.canonical(name)

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        return [CompletionItem(n) for n in self.registry.choices() if n.startswith(incomplete)]


_log_target: Console | None = None


def set_log_console(target: Console | None) -> None:
    """Print log records through ``target`` (the console of a live progress line, so that they
    appear above it); ``None`` goes back to stderr."""
    global _log_target
    _log_target = target


class _ConsoleLogHandler(logging.Handler):
    """Log records as plain text through the console that currently owns the terminal (else
    stderr)."""

    def _text(self, record: logging.LogRecord) -> str:
        return self.format(record)

    def _console(self) -> Console:
        return err_console

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self._text(record)
        except Exception:  # noqa: BLE001 - logging must never raise
            self.handleError(record)
            return
        from rich.text import Text

        target = _log_target if _log_target is not None else self._console()
        # a log message may quote a candidate: its control characters are not obeyed
        target.print(Text(terminal_text(text, lines=True)), soft_wrap=True, crop=False)


class _ProgressLogHandler(_ConsoleLogHandler):
    """Progress records (``rtlopt.progress``: per rollout, the model's first conversion) as
    plain lines on stdout, beside the per-step lines: stderr keeps errors and warnings only, so a
    failing command's stderr stays its one-line error."""

    def _text(self, record: logging.LogRecord) -> str:
        return record.getMessage()

    def _console(self) -> Console:
        return console


class SectionedCommand(click.Command):
    """A command whose ``--help`` lists its options in named sections (everyday ones first).

    ``sections`` pairs a title with the parameter names (``param.name``) shown under it;
    options not named in any section are listed last, under "Other options".
    """

    def __init__(
        self, *args: Any, sections: Sequence[tuple[str, Sequence[str]]] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sections = [(title, tuple(names)) for title, names in sections]

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows: dict[str, tuple[str, str]] = {}
        order: list[str] = []
        for param in self.get_params(ctx):
            if isinstance(param, click.Argument):  # arguments are in the usage line
                continue
            rec = param.get_help_record(ctx)
            if rec is not None and param.name is not None:
                rows[param.name] = rec
                order.append(param.name)
        placed: set[str] = set()
        for title, names in self.sections:
            records = [rows[n] for n in names if n in rows]
            placed.update(names)
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)
        rest = [rows[n] for n in order if n not in placed]
        if rest:
            with formatter.section("Other options"):
                formatter.write_dl(rest)


def setup_logging(verbose: int) -> None:
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(
        level=level,
        format="%(levelname)s %(name)s: %(message)s",
        handlers=[_ConsoleLogHandler()],
    )
    # per-rollout progress and the model's first conversion: shown without -v, also in a pipe
    progress = logging.getLogger("rtlopt.progress")
    progress.setLevel(min(level, logging.INFO))
    progress.handlers = [_ProgressLogHandler()]
    progress.propagate = False


def parse_defines(items: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name] = value or "1"
    return out


def existing_file(path: Path, what: str = "file") -> Path:
    if not path.exists():
        raise UsageError(f"{what} not found", path=path, hint="check the path")
    if path.is_dir():
        raise UsageError(f"expected a {what}, got a directory", path=path)
    return path.resolve()


def design_options(fn: F) -> F:
    """--module, --config, -I, -D, --frontend."""
    fn = click.option(
        "--frontend", type=PluginChoice(FRONTENDS), default=None, help="Parser (default: pyslang)."
    )(fn)
    fn = click.option(
        "-D", "defines", multiple=True, metavar="NAME[=VALUE]", help="Preprocessor define."
    )(fn)
    fn = click.option(
        "-I",
        "include_dirs",
        multiple=True,
        type=click.Path(path_type=Path),
        help="Include directory.",
    )(fn)
    fn = click.option(
        "--config",
        "config_file",
        type=click.Path(path_type=Path, exists=True, dir_okay=False),
        default=None,
        help="Configuration file (default: rtlopt.toml or [tool.rtlopt] found upward).",
    )(fn)
    fn = click.option(
        "--module",
        "-m",
        type=str,
        default=None,
        help="Target module (needed when the file defines several).",
    )(fn)
    return fn


def pdk_options(fn: F) -> F:
    fn = click.option(
        "--liberty",
        type=click.Path(path_type=Path),
        default=None,
        help="Use this liberty file instead of the PDK's.",
    )(fn)
    fn = click.option(
        "--pdk",
        type=PluginChoice(PDKS),
        default=None,
        help="PDK by name or alias, e.g. sky130 (see `rtlopt pdk list`); custom with --liberty.",
    )(fn)
    return fn


def fmt(value: float | None, digits: int = 4) -> str:
    if value is None:
        return "-"
    if abs(value) >= 1e5:
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def flow_label(result: Any) -> str:
    """The flow behind a result's numbers, from its provenance: synthesis engine and version,
    timing tool, PDK and corner (``yosys 0.23, OpenSTA 2.0.17, nangate45 typical``)."""
    flow = (getattr(result, "provenance", None) or {}).get("flow") or {}
    if not flow:
        return "no PPA flow"
    versions = flow.get("tool_versions") or {}
    engine = str(flow.get("engine", "?"))
    parts = [
        f"{engine} {versions.get(engine, '?')}" + (" (in-process)" if engine == "pyosys" else ""),
        f"OpenSTA {versions.get('sta', '?')}",
        f"{flow.get('pdk', '?')} {flow.get('corner', '')}".strip(),
    ]
    return ", ".join(parts)


def ratio(new: float | None, old: float | None) -> str:
    if new is None or old is None or old == 0:
        return "-"
    return f"{new / old:.3f} ({(new / old - 1) * 100:+.1f}%)"


def run_options(fn: F) -> F:
    """The policy, search and training options shared by `optimize` and `bench`."""
    for option in reversed(_RUN_OPTIONS):
        fn = option(fn)
    return fn


def run_overrides(s: Mapping[str, Any]) -> dict[str, Any]:
    """The configuration overrides of the :func:`run_options`, ``--pdk`` and ``--metric``,
    from the command's options by name (unset options stay ``None``: they override nothing);
    ``--seed`` also seeds the harness."""
    out: dict[str, Any] = {
        "flow.pdk": s["pdk"],
        "flow.metric": s["metric"],
        "policy.backend": s["policy"],
        "policy.model": s["model"],
        "policy.endpoint": s["endpoint"],
        "policy.max_new_tokens": s["max_new_tokens"],
        "run.steps": s["steps"],
        "run.rollouts": s["rollouts"],
        "run.seed": s["seed"],
        "search.parents": s["parents"],
        "search.sampler": s["reuse"],
        "search.node_budget": s["budget"],
        "train.delta": s["delta"],
        "train.advantage": s["advantage"],
        "train.learning_rate": s["lr"],
    }
    if s["seed"] is not None:
        out["harness.seed"] = s["seed"]
    return out


_RUN_OPTIONS: list[Callable[[Any], Any]] = [
    click.option(
        "--policy",
        type=PluginChoice(POLICIES),
        default=None,
        help="Policy backend: transformers (train on this machine), vllm (GPU rollouts), "
        "openai (any OpenAI-compatible endpoint, frozen) or scripted (candidates from files).",
    ),
    click.option(
        "--model",
        type=str,
        default=None,
        help="Model id or local path (auto: Qwen/Qwen3-8B on a GPU, SmolLM2-135M on CPU).",
    ),
    click.option(
        "--endpoint", type=str, default=None, help="Base URL of an OpenAI-compatible server."
    ),
    click.option("--steps", type=int, default=None, help="Training steps (default 100)."),
    click.option("--parents", type=int, default=None, help="Parent states per step (default 4)."),
    click.option("--rollouts", type=int, default=None, help="Rollouts per parent (default 4)."),
    click.option(
        "--seed", type=int, default=None, help="Seed for sampling, training and the harness."
    ),
    click.option(
        "--delta",
        type=PluginChoice(DELTA_SCHEDULES),
        default=None,
        help="KL budget: fixed ln 2, the adaptive controller, or a cosine schedule.",
    ),
    click.option(
        "--search",
        "--reuse",
        "reuse",
        type=PluginChoice(SAMPLERS),
        default=None,
        help="Search strategy: puct (TTT-RTL state pool), igr or mcts (EvolVE), or the pool "
        "ablations egreedy, greedy, none (always the root). --reuse is the old name.",
    ),
    click.option(
        "--budget",
        type=int,
        default=None,
        help="Node budget: stop after this many candidates (default: no limit, --steps decides).",
    ),
    click.option(
        "--advantage",
        type=PluginChoice(ADVANTAGES),
        default=None,
        help="Advantage estimator: entropic (leave-one-out) or expected reward (GRPO).",
    ),
    click.option(
        "--lr", type=float, default=None, help="Learning rate (0 freezes the policy: best-of-N)."
    ),
    click.option("--max-new-tokens", type=int, default=None, help="Longest answer in tokens."),
    click.option(
        "--executor",
        type=PluginChoice(EXECUTORS),
        default=None,
        help="Where candidates are evaluated: local threads, or Ray actors with warm tools "
        "(bench: the designs run as Ray tasks). Needs rtlopt[ray].",
    ),
    click.option(
        "--ray-address",
        type=str,
        default=None,
        metavar="ADDR",
        help="Ray cluster (head host:port, ray://host:port or auto; default: a single-node "
        "Ray on 127.0.0.1).",
    ),
    click.option(
        "--metric",
        type=click.Choice(choices("flow.metric")),
        default=None,
        help="Figure of merit to minimize.",
    ),
]


def parse_settings(items: Sequence[str]) -> dict[str, Any]:
    """``--set KEY=VALUE`` items as dotted configuration overrides. VALUE is read as a TOML
    value (``3``, ``0.5``, ``true``, ``"a b"``, ``["x", "y"]``); anything else is the string
    itself (``--set flow.pdk=sky130hd``). Keys are checked later, by the configuration loader,
    like the keys of ``rtlopt.toml``.

    Raises:
        UsageError: an item without ``=`` or with an empty key; a key given twice.
    """
    import tomllib

    out: dict[str, Any] = {}
    for item in items:
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise UsageError(
                f"--set {item!r}: expected KEY=VALUE",
                hint="e.g. --set reflect.restart_after=5 (see `rtlopt config show`)",
            )
        if key in out:
            raise UsageError(f"--set {key}: given twice", hint="keep one --set per key")
        try:
            value: Any = tomllib.loads(f"v = {raw.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw.strip()
        out[key] = value
    return out


def merge_settings(named: dict[str, Any], generic: dict[str, Any]) -> dict[str, Any]:
    """The named options' overrides plus the ``--set`` ones.

    Raises:
        UsageError: one key set both ways (to different values).
    """
    out = dict(named)
    for key, value in generic.items():
        given = out.get(key)
        if given is not None and given != value:
            raise UsageError(
                f"--set {key}={value!r} conflicts with the option that sets it to {given!r}",
                hint="give the setting once",
            )
        out[key] = value
    for key in out:
        inner = next((k for k in out if k.startswith(key + ".") and out[k] is not None), None)
        if inner is not None and out[key] is not None:
            raise UsageError(
                f"--set {key}: '{key}' is a section, and {inner} is set too",
                hint="set the section's keys one by one",
            )
    return out


def settings_option(fn: F) -> F:
    """``--set KEY=VALUE`` (repeatable): any configuration setting."""
    return click.option(
        "--set",
        "set_items",
        multiple=True,
        metavar="KEY=VALUE",
        help="Set any configuration key for this run (repeatable), e.g. "
        "--set reflect.restart_after=5 --set flow.clock_period_ns=2.5; VALUE is read as TOML, "
        "else as a string. Keys as in rtlopt.toml (`rtlopt config show`).",
    )(fn)


OPTIMIZE_SECTIONS: list[tuple[str, list[str]]] = [
    (
        "Target",
        [
            "module",
            "pdk",
            "liberty",
            "metric",
            "config_file",
            "include_dirs",
            "defines",
            "frontend",
            "spec",
        ],
    ),
    ("Model", ["policy", "model", "endpoint", "candidates", "max_new_tokens"]),
    ("Reflection (ACE-RTL)", ["reflect_endpoint", "reflect_model"]),
    (
        "Search",
        [
            "steps",
            "parents",
            "rollouts",
            "seed",
            "reuse",
            "budget",
            "jobs",
            "executor",
            "ray_address",
        ],
    ),
    ("Training (research settings)", ["lr", "delta", "advantage"]),
    ("Output", ["run_dir", "resume", "stop_after", "no_branch", "push", "pr"]),
    ("Several modules", ["from_profile", "profile_json", "in_context", "no_in_context"]),
    ("Any setting", ["set_items"]),
]
"""The sections of ``rtlopt optimize --help`` (``bench`` uses the same for its run options)."""
