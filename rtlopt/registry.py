"""Plugin registries: a static table of built-ins merged with entry points.

Each registry maps a name to a factory (usually a class) whose signature is the registry's
factory Protocol (``SamplerFactory``, ``PdkFactory``, ...); the type parameter of
:class:`Registry` is that Protocol. A duplicate name is an error naming both sources; an unknown
name lists the known ones. A plugin that fails to load is an error, never a warning. The tables
themselves are in :mod:`rtlopt.plugins`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Generic, TypeVar, cast

from rtlopt.errors import PluginError

F_co = TypeVar("F_co", covariant=True)
"""The registry's factory type (a Protocol of the layer that uses the plugins)."""


@dataclass(frozen=True)
class _Entry:
    name: str
    target: str  # "module:attr"
    source: str  # "built-in", "entry point of <dist>" or "rtlopt itself" (reserved)


class Registry(Generic[F_co]):
    """A named table of plugins of one kind.

    Args:
        kind: Human name of the plugin kind, used in messages ("PDK", "policy").
        group: Entry-point group, e.g. ``rtlopt.pdks``.
        builtins: Mapping of name to ``"module:attribute"`` for first-party plugins; imported
            lazily so that heavy plugins cost nothing until used.
        reserved: Names the layer itself answers for without a plugin (the ``custom`` PDK,
            which is a user's liberty file); accepted by :meth:`check`, listed by
            :meth:`choices`, never by :meth:`names`, and no plugin may take them.
    """

    def __init__(
        self, kind: str, group: str, builtins: dict[str, str], *, reserved: tuple[str, ...] = ()
    ) -> None:
        self.kind = kind
        self.group = group
        self.reserved = reserved
        self._builtins = dict(builtins)
        self._entries: dict[str, _Entry] | None = None

    def _load_table(self) -> dict[str, _Entry]:
        if self._entries is not None:
            return self._entries
        table: dict[str, _Entry] = {
            name: _Entry(name, target, "built-in") for name, target in self._builtins.items()
        }
        table.update({name: _Entry(name, "", "rtlopt itself") for name in self.reserved})
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

    def reload(self) -> None:
        """Forget the table read from the entry points; the next lookup reads them again (after
        a distribution was installed in this process, and in tests)."""
        self._entries = None

    def names(self) -> list[str]:
        """All registered names (built-ins and entry points), sorted."""
        return sorted(n for n in self._load_table() if n not in self.reserved)

    def choices(self) -> list[str]:
        """Every name a user may give: :meth:`names` plus the reserved ones."""
        return sorted(self._load_table())

    def check(self, name: str) -> None:
        """Raise :class:`PluginError` listing the known names unless ``name`` is one of them."""
        self._entry(name)

    def source(self, name: str) -> str:
        """Where a plugin comes from (built-in or which distribution)."""
        return self._entry(name).source

    def _entry(self, name: str) -> _Entry:
        table = self._load_table()
        if name not in table:
            known = ", ".join(sorted(table)) or "none"
            raise PluginError(f"unknown {self.kind} '{name}'", hint=f"known: {known}")
        return table[name]

    def get(self, name: str) -> F_co:
        """The factory registered under ``name``.

        Raises:
            PluginError: unknown or reserved name (listing the known ones), or a plugin that
                fails to import or is not callable.
        """
        entry = self._entry(name)
        if not entry.target:
            raise PluginError(
                f"{self.kind} '{name}' is not a plugin", hint=f"known: {', '.join(self.names())}"
            )
        module_name, _, attr = entry.target.partition(":")
        try:
            module = importlib.import_module(module_name)
            factory: Any = getattr(module, attr)
        except (ImportError, AttributeError) as exc:
            raise PluginError(
                f"{self.kind} '{name}' ({entry.source}) failed to load: {exc}",
                hint="reinstall the package that provides it",
            ) from exc
        if not callable(factory):
            raise PluginError(
                f"{self.kind} '{name}' ({entry.source}) is not a factory: {entry.target}",
                hint="reinstall the package that provides it",
            )
        # The entry point's value is checked only for being callable; its signature is the
        # plugin author's promise (the built-ins are checked by mypy in rtlopt.plugins).
        return cast(F_co, factory)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._load_table() and name not in self.reserved
