"""Plugin registries: a static table of built-ins merged with entry points.

Each registry maps a name to a factory (usually a class) whose signature is the registry's
factory Protocol (``SamplerFactory``, ``PdkFactory``, ...); the type parameter of
:class:`Registry` is that Protocol. A duplicate name is an error naming both sources; an unknown
name lists the known ones and the closest one ("did you mean"). A plugin that fails to load is
an error, never a warning. The tables themselves are in :mod:`rtlopt.plugins`.

Aliases are other names of a plugin (``sky130`` for ``sky130hd``): built-in ones, and those a
distribution declares in the entry-point group ``<group>.aliases`` (``sky130 = "sky130hd"``:
the value is the plugin's name). They are accepted wherever the name is and resolve to it
(:meth:`Registry.canonical`); two declarations of one alias for the same plugin agree, for
different plugins they are an error.

A built-in may be *replaceable* by one named distribution: rtlopt's own plugin packages under
``plugins/`` (which bundle the liberty files) then take the built-in's name instead of being
reported as a duplicate; any other distribution using that name still is.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import importlib
import json
import os
import re
import stat
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar, cast

from rtlopt.errors import PluginError

F_co = TypeVar("F_co", covariant=True)
"""The registry's factory type (a Protocol of the layer that uses the plugins)."""


@dataclass(frozen=True)
class _Entry:
    name: str
    target: str  # "module:attr"
    source: str  # "built-in", "entry point of <dist>" or "rtlopt itself" (reserved)


@dataclass(frozen=True)
class _Alias:
    canonical: str
    source: str


class _EP(NamedTuple):
    """An installed entry point: its name, value and distribution."""

    name: str
    value: str
    dist: str


def _scan() -> dict[str, list[_EP]]:
    from importlib.metadata import distributions  # ~25 ms of imports `--help` never needs

    out: dict[str, list[_EP]] = {}
    seen: set[str] = set()
    for dist in distributions():  # as entry_points() does: the first of a name on the path wins
        # the folder name (cheap, as entry_points() itself uses); METADATA only without one
        name = getattr(dist, "_normalized_name", None) or dist.metadata["Name"] or ""
        key = _dist_key(name)
        if key in seen:
            continue
        seen.add(key)
        for ep in dist.entry_points:
            if ep.group.startswith("rtlopt"):
                out.setdefault(ep.group, []).append(_EP(ep.name, ep.value, dist.name or "?"))
    return out


_DIST_ENTRIES = (".dist-info", ".egg-info", ".egg", ".egg-link", ".pth")


def _path_key(path: tuple[str, ...]) -> str:
    """What the installed distributions depend on: for each folder of the path, its
    distribution entries (``*.dist-info``, ``*.egg-info``, ``.pth`` ...) with their inode and
    mtime and those of their ``entry_points.txt`` (an install, uninstall or reinstall changes
    them); other files of the folder do not count, so a command run from a folder whose files
    change (the current folder is on the path) does not scan again."""
    parts = []
    for p in path:
        full = os.path.abspath(p or ".")
        try:
            st = os.stat(full)
        except OSError:
            parts.append(f"{full}\0-")
            continue
        if not stat.S_ISDIR(st.st_mode):  # a zip file on the path
            parts.append(f"{full}\0{st.st_ino}\0{st.st_mtime_ns}\0{st.st_size}")
            continue
        found: list[str] = []
        try:
            with os.scandir(full) as it:
                for e in it:
                    if not e.name.lower().endswith(_DIST_ENTRIES):
                        continue
                    try:
                        es = e.stat()
                        found.append(f"{e.name}\0{es.st_ino}\0{es.st_mtime_ns}")
                        ep = os.stat(os.path.join(e.path, "entry_points.txt"))
                        found.append(f"\0{ep.st_ino}\0{ep.st_mtime_ns}\0{ep.st_size}")
                    except OSError:
                        continue
        except OSError:
            found.append(f"\0{st.st_ino}\0{st.st_mtime_ns}")  # unreadable: its own mtime
        parts.append(full + "\0" + "\0".join(found))
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rtlopt" / "entry_points.json"


@functools.lru_cache(maxsize=8)
def _all_entry_points(path: tuple[str, ...]) -> dict[str, tuple[_EP, ...]]:
    """rtlopt's entry points by group, read once per ``sys.path``: each
    ``entry_points(group=...)`` call scans all installed distributions again (~20 ms each, a
    dozen registries and alias groups per command). The scan is kept on disk under the path's
    folders and their mtimes (an install changes them), so a short command does not repeat it.
    """
    key = _path_key(path)
    cache = _cache_file()
    known: dict[str, Any] = {}
    try:
        loaded = json.loads(cache.read_text())
        if isinstance(loaded, dict):
            known = loaded
    except (OSError, ValueError):
        pass
    hit = known.get(key)
    if isinstance(hit, dict):
        try:
            return {g: tuple(_EP(*e) for e in eps) for g, eps in hit.items()}
        except TypeError:
            pass
    groups = _scan()
    known = dict(list(known.items())[-7:])  # a few paths (folders run from, test folders)
    known[key] = {g: [list(e) for e in eps] for g, eps in groups.items()}
    tmp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(known))
        os.replace(tmp, cache)
    except OSError:
        tmp.unlink(missing_ok=True)
    return {g: tuple(eps) for g, eps in groups.items()}


def _group(group: str) -> tuple[_EP, ...]:
    return _all_entry_points(tuple(sys.path)).get(group, ())


def _dist_key(name: str) -> str:
    """A distribution name normalized as in PEP 503 (``rtlopt_pdk_x`` is ``rtlopt-pdk-x``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


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
        aliases: Built-in aliases, alias -> name.
        replaceable: Built-in names that one distribution may take over, name -> distribution
            (rtlopt's own plugin packages, which bundle data the built-in has to find).
    """

    def __init__(
        self,
        kind: str,
        group: str,
        builtins: dict[str, str],
        *,
        reserved: tuple[str, ...] = (),
        aliases: Mapping[str, str] | None = None,
        replaceable: Mapping[str, str] | None = None,
    ) -> None:
        self.kind = kind
        self.group = group
        self.alias_group = f"{group}.aliases"
        self.reserved = reserved
        self._builtins = dict(builtins)
        self._builtin_aliases = dict(aliases or {})
        self._replaceable = {n: _dist_key(d) for n, d in (replaceable or {}).items()}
        self._entries: dict[str, _Entry] | None = None
        self._aliases: dict[str, _Alias] = {}

    def _load_table(self) -> dict[str, _Entry]:
        if self._entries is not None:
            return self._entries
        table: dict[str, _Entry] = {
            name: _Entry(name, target, "built-in") for name, target in self._builtins.items()
        }
        table.update({name: _Entry(name, "", "rtlopt itself") for name in self.reserved})
        for ep in _group(self.group):
            dist = ep.dist
            source = f"entry point of {dist}"
            old = table.get(ep.name)
            if old is not None:
                replaces = old.source == "built-in" and self._replaceable.get(ep.name) == _dist_key(
                    dist
                )
                if not replaces:
                    raise PluginError(
                        f"{self.kind} '{ep.name}' is defined twice: by {old.source} "
                        f"and by {source}",
                        hint="uninstall one of the two packages",
                    )
            table[ep.name] = _Entry(ep.name, ep.value, source)
        self._aliases = self._load_aliases(table)
        self._entries = table
        return table

    def _load_aliases(self, table: dict[str, _Entry]) -> dict[str, _Alias]:
        declared = [(a, n, "built-in") for a, n in self._builtin_aliases.items()]
        for ep in _group(self.alias_group):
            dist = ep.dist
            declared.append((ep.name, ep.value.strip(), f"entry point of {dist}"))
        out: dict[str, _Alias] = {}
        for alias, name, source in declared:
            if alias in table:
                raise PluginError(
                    f"{self.kind} alias '{alias}' ({source}) is also the name of a {self.kind} "
                    f"({table[alias].source})",
                    hint="uninstall one of the two packages",
                )
            if name not in table or name in self.reserved:
                known = ", ".join(n for n in sorted(table) if n not in self.reserved)
                raise PluginError(
                    f"{self.kind} alias '{alias}' ({source}) names no {self.kind}: '{name}'",
                    hint=f"known: {known}; reinstall the package that declares it",
                )
            old = out.get(alias)
            if old is not None and old.canonical != name:
                raise PluginError(
                    f"{self.kind} alias '{alias}' means '{old.canonical}' ({old.source}) and "
                    f"'{name}' ({source})",
                    hint="uninstall one of the two packages",
                )
            out.setdefault(alias, _Alias(name, source))
        return out

    def reload(self) -> None:
        """Forget the table read from the entry points; the next lookup reads them again (after
        a distribution was installed in this process, and in tests)."""
        _all_entry_points.cache_clear()
        self._entries = None
        self._aliases = {}

    def names(self) -> list[str]:
        """All registered names (built-ins and entry points), sorted; no aliases."""
        return sorted(n for n in self._load_table() if n not in self.reserved)

    def choices(self) -> list[str]:
        """Every name a user may give: :meth:`names`, the reserved names and the aliases."""
        table = self._load_table()
        return sorted([*table, *self._aliases])

    def aliases(self, name: str) -> list[str]:
        """The aliases of ``name`` (sorted; empty for an unknown name)."""
        self._load_table()
        return sorted(a for a, al in self._aliases.items() if al.canonical == name)

    def canonical(self, name: str) -> str:
        """The plugin name an alias stands for; any other name unchanged (unknown ones too:
        :meth:`check` reports those)."""
        self._load_table()
        alias = self._aliases.get(name)
        return alias.canonical if alias is not None else name

    def check(self, name: str) -> None:
        """Raise :class:`PluginError` listing the known names unless ``name`` is one of them
        (or an alias of one)."""
        self._entry(name)

    def source(self, name: str) -> str:
        """Where a plugin comes from (built-in or which distribution)."""
        return self._entry(name).source

    def _entry(self, name: str) -> _Entry:
        table = self._load_table()
        entry = table.get(self.canonical(name))
        if entry is None:
            known = ", ".join(sorted(table)) or "none"
            close = difflib.get_close_matches(name, self.choices(), n=1, cutoff=0.5)
            if not close:  # "sky" for "sky130hd": a prefix is as good a hint as a near spelling
                close = [c for c in self.choices() if c.startswith(name) and name][:1]
            hint = f"did you mean '{close[0]}'? known: {known}" if close else f"known: {known}"
            raise PluginError(f"unknown {self.kind} '{name}'", hint=hint)
        return entry

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
        """A plugin name or an alias of one (reserved names are not plugins)."""
        if not isinstance(name, str):
            return False
        name = self.canonical(name)
        return name in self._load_table() and name not in self.reserved
