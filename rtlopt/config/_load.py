"""Loading: defaults, the user file, the project file, ``RTLOPT_<SECTION>__<KEY>`` environment
variables and command-line overrides merged into a :class:`Config`; rendering it back to TOML."""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.config._checks import Config
from rtlopt.config._sections import _field_types, _is_dataclass_type
from rtlopt.errors import ConfigError

Source = str  # "default", a file path, "env RTLOPT_X", "command line"


def _list_text(value: str, where: str) -> list[Any]:
    """A list given as text (an environment variable, a command-line value): a TOML array
    (``[]``, ``["rtl/*", "lib/*"]``) read as one, anything else comma-separated (``a,b``)."""
    text = value.strip()
    if text.startswith("[") and text.endswith("]"):
        import tomllib

        try:
            out = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{where} is not a TOML array: {value!r} ({exc})") from None
        return list(out)
    return [v.strip() for v in text.split(",") if v.strip()]


def _coerce(value: Any, tp: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _coerce(value, inner[0], where)
    if origin is tuple:
        if isinstance(value, str):
            value = _list_text(value, where)
        if not isinstance(value, list | tuple):
            raise ConfigError(f"{where} must be a list, got {value!r}")
        return tuple(_coerce(v, args[0], where) for v in value)
    if tp is bool:
        if isinstance(value, str):
            low = value.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
        if isinstance(value, bool):
            return value
        raise ConfigError(f"{where} must be true or false, got {value!r}")
    if tp is int:
        if isinstance(value, bool):
            raise ConfigError(f"{where} must be an integer, got {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where} must be an integer, got {value!r}") from None
    if tp is float:
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where} must be a number, got {value!r}") from None
    if tp is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where} must be a string, got {value!r}")
        return value
    return value


def _merge(
    cls: type,
    base: Any,
    data: Mapping[str, Any],
    source: Source,
    prefix: str,
    sources: dict[str, Source],
) -> Any:
    hints = _field_types(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    metas = {f.name: f.metadata for f in dataclasses.fields(cls)}
    changes: dict[str, Any] = {}
    for key, value in data.items():
        norm = key.replace("-", "_")
        dotted = f"{prefix}{norm}"
        if norm not in names:
            close = difflib.get_close_matches(norm, names, n=1)
            hint = (
                f"did you mean '{prefix}{close[0]}'?"
                if close
                else f"known keys: {', '.join(names)}"
            )
            raise ConfigError(f"unknown configuration key '{prefix}{key}' in {source}", hint=hint)
        tp = hints[norm]
        if _is_dataclass_type(tp):
            if not isinstance(value, Mapping):
                raise ConfigError(f"'{dotted}' in {source} must be a table")
            changes[norm] = _merge(tp, getattr(base, norm), value, source, dotted + ".", sources)
        else:
            changes[norm] = _coerce(value, tp, f"'{dotted}' in {source}")
            registry = metas[norm].get("registry")
            if registry is not None and isinstance(changes[norm], str):
                # an alias (`sky130`) is stored as the plugin's name, so runs record one name
                changes[norm] = registry.canonical(changes[norm])
            sources[dotted] = source
    try:
        return dataclasses.replace(base, **changes)
    except ConfigError as exc:
        raise ConfigError(f"{exc.message} (from {source})", hint=exc.hint) from None


def _nest(dotted: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in dotted.items():
        node = out
        parts = key.split(".")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = value
    return out


def find_project_file(start: Path) -> tuple[Path, dict[str, Any]] | None:
    """The nearest ``rtlopt.toml`` or ``pyproject.toml`` with ``[tool.rtlopt]`` upward of start."""
    here = start if start.is_dir() else start.parent
    for d in [here.resolve(), *here.resolve().parents]:
        f = d / "rtlopt.toml"
        if f.is_file():
            return f, _read_toml(f)
        p = d / "pyproject.toml"
        if p.is_file():
            data = _read_toml(p)
            tool = data.get("tool", {})
            if isinstance(tool, dict) and "rtlopt" in tool:
                return p, dict(tool["rtlopt"])
        if (d / ".git").exists():
            break
    return None


def config_observations(
    start: Path | None, config_file: Path | None = None
) -> list[tuple[str, str]]:
    """What :func:`load_config` reads for a target at ``start``, as observations of
    ``rtlopt.inputs``: the user file; the given project file, or every file the upward search
    looks at, to the file system's root (and every ``.git`` on the way, which ends the search
    and names the repository's root)."""
    out = [("bytes", str(user_config_file()))]
    if config_file is not None:
        return [*out, ("real", str(config_file)), ("bytes", str(config_file))]
    if start is None:
        return out
    here = (start if start.is_dir() else start.parent).resolve()
    for d in [here, *here.parents]:
        out += [
            ("bytes", str(d / "rtlopt.toml")),
            ("bytes", str(d / "pyproject.toml")),
            ("exists", str(d / ".git")),
        ]
    return out


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"invalid TOML: {exc}", path=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}", path=path) from None


@dataclass(frozen=True)
class ResolvedConfig:
    """A configuration and, for every non-default value, where it came from."""

    config: Config
    sources: Mapping[str, Source]
    project_file: Path | None
    files: tuple[Path, ...] = ()  # every file read: the user file, the project file


def user_config_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "rtlopt" / "config.toml"


def load_config(
    start: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    config_file: Path | None = None,
) -> ResolvedConfig:
    """Resolve the configuration for a target at ``start``.

    Args:
        start: The target file or directory; the project file is searched upward from it.
        overrides: Dotted keys from the command line (``{"run.steps": 3}``); ``None`` values are
            ignored so that unset flags do not override files.
        env: Environment (default ``os.environ``).
        config_file: An explicit project file instead of the search.
    """
    env = os.environ if env is None else env
    sources: dict[str, Source] = {}
    cfg = Config()
    ufile = user_config_file()
    read: list[Path] = []
    if ufile.is_file():
        cfg = _merge(Config, cfg, _read_toml(ufile), str(ufile), "", sources)
        read.append(ufile)
    project_file: Path | None = None
    if config_file is not None:
        data = _read_toml(config_file)
        if config_file.name == "pyproject.toml":
            data = dict(data.get("tool", {}).get("rtlopt", {}))
        cfg = _merge(Config, cfg, data, str(config_file), "", sources)
        project_file = config_file
    elif start is not None:
        found = find_project_file(start)
        if found is not None:
            project_file, data = found
            cfg = _merge(Config, cfg, data, str(project_file), "", sources)
    env_items: dict[str, Any] = {}
    for key, value in env.items():
        if key.startswith("RTLOPT_") and "__" in key:
            dotted = key[len("RTLOPT_") :].lower().replace("__", ".")
            env_items[dotted] = value
    for dotted, value in env_items.items():
        cfg = _merge(
            Config,
            cfg,
            _nest({dotted: value}),
            f"environment RTLOPT_{dotted.upper().replace('.', '__')}",
            "",
            sources,
        )
    if overrides:
        given = {k: v for k, v in overrides.items() if v is not None}
        if given:
            cfg = _merge(Config, cfg, _nest(given), "command line", "", sources)
    if project_file is not None:
        read.append(project_file)
    return ResolvedConfig(cfg, sources, project_file, tuple(read))


def to_dict(cfg: Any) -> dict[str, Any]:
    """A JSON/TOML-friendly dict of a config dataclass."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cfg):
        v = getattr(cfg, f.name)
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            out[f.name] = to_dict(v)
        elif isinstance(v, tuple):
            out[f.name] = list(v)
        else:
            out[f.name] = v
    return out


def to_toml(cfg: Any) -> str:
    """Render a config as TOML (sections for nested dataclasses)."""
    lines: list[str] = []

    def emit(obj: Any, prefix: str) -> None:
        scalars: list[str] = []
        nested: list[tuple[str, Any]] = []
        for f in dataclasses.fields(obj):
            v = getattr(obj, f.name)
            if dataclasses.is_dataclass(v) and not isinstance(v, type):
                nested.append((f.name, v))
            elif v is None:
                scalars.append(f"# {f.name} = (unset)")
            else:
                scalars.append(f"{f.name} = {json.dumps(list(v) if isinstance(v, tuple) else v)}")
        if prefix:
            lines.append(f"[{prefix}]")
        lines.extend(scalars)
        lines.append("")
        for name, v in nested:
            emit(v, f"{prefix}.{name}" if prefix else name)

    emit(cfg, "")
    return "\n".join(lines)


def describe(cls: type = Config, prefix: str = "") -> list[tuple[str, str, Any]]:
    """(dotted key, help, default) for every field, for documentation and `config show`."""
    rows: list[tuple[str, str, Any]] = []
    hints = _field_types(cls)
    inst = cls()
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        if _is_dataclass_type(tp):
            rows.extend(describe(tp, f"{prefix}{f.name}."))
        else:
            rows.append((f"{prefix}{f.name}", f.metadata.get("help", ""), getattr(inst, f.name)))
    return rows
