"""Plugin registries: a static table of built-ins merged with entry points.

Each registry maps a name to a zero-argument factory (usually a class). A duplicate name is an
error naming both sources; an unknown name lists the known ones. A plugin that fails to load is
an error, never a warning.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from rtlopt.errors import PluginError

T = TypeVar("T")


@dataclass(frozen=True)
class _Entry:
    name: str
    target: str  # "module:attr"
    source: str  # "built-in" or "entry point <dist>"


class Registry(Generic[T]):
    """A named table of plugins of one kind.

    Args:
        kind: Human name of the plugin kind, used in messages ("PDK", "policy").
        group: Entry-point group, e.g. ``rtlopt.pdks``.
        builtins: Mapping of name to ``"module:attribute"`` for first-party plugins; imported
            lazily so that heavy plugins cost nothing until used.
    """

    def __init__(self, kind: str, group: str, builtins: dict[str, str]) -> None:
        self.kind = kind
        self.group = group
        self._builtins = dict(builtins)
        self._entries: dict[str, _Entry] | None = None

    def _load_table(self) -> dict[str, _Entry]:
        if self._entries is not None:
            return self._entries
        table: dict[str, _Entry] = {
            name: _Entry(name, target, "built-in") for name, target in self._builtins.items()
        }
        for ep in entry_points(group=self.group):
            dist = ep.dist.name if ep.dist is not None else "?"
            source = f"entry point of {dist}"
            if ep.name in table:
                raise PluginError(
                    f"{self.kind} '{ep.name}' is defined twice: by {table[ep.name].source} "
                    f"and by {source}",
                    hint="uninstall one of the two packages",
                )
            table[ep.name] = _Entry(ep.name, ep.value, source)
        self._entries = table
        return table

    def names(self) -> list[str]:
        """All registered names, sorted."""
        return sorted(self._load_table())

    def source(self, name: str) -> str:
        """Where a plugin comes from (built-in or which distribution)."""
        return self._entry(name).source

    def _entry(self, name: str) -> _Entry:
        table = self._load_table()
        if name not in table:
            known = ", ".join(sorted(table)) or "none"
            raise PluginError(f"unknown {self.kind} '{name}'", hint=f"known: {known}")
        return table[name]

    def get(self, name: str) -> Callable[..., T]:
        """The factory registered under ``name``.

        Raises:
            PluginError: unknown name (listing the known ones) or a plugin that fails to import.
        """
        entry = self._entry(name)
        module_name, _, attr = entry.target.partition(":")
        try:
            module = importlib.import_module(module_name)
            factory: Callable[..., T] = getattr(module, attr)
        except (ImportError, AttributeError) as exc:
            raise PluginError(
                f"{self.kind} '{name}' ({entry.source}) failed to load: {exc}",
                hint="reinstall the package that provides it",
            ) from exc
        return factory

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._load_table()
