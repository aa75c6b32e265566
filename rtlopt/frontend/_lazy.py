"""The repository's modules, parsed on first use (lazy, indexed loading).

:func:`rtlopt.frontend.load_design` parses only the files the target needs. A candidate may
still instantiate any module of the repository: looking a name up here (``name in modules``,
``modules[name]``, ``modules.get(name)``) parses the files the module index names for it, in
the design's elaboration context, and keeps the result. Iterating covers the modules parsed so
far (the target's closure and whatever was looked up since).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from rtlopt.errors import DesignError
from rtlopt.frontend._files import read_source
from rtlopt.frontend.model import Module

__all__ = ["LazyModules", "module_closure", "module_users", "with_module"]

log = logging.getLogger(__name__)


class LazyModules(Mapping[str, Module]):
    """A ``name -> Module`` mapping that parses a declared but unparsed module on lookup.

    Args:
        loaded: The modules parsed already.
        index: Declared name -> the files declaring it.
        parse: Parses a list of files in the design's context into modules by name (roles
            inferred); errors there leave the name undefined.
    """

    def __init__(
        self,
        loaded: Mapping[str, Module],
        index: Mapping[str, tuple[Path, ...]],
        parse: Callable[[list[Path]], Mapping[str, Module]],
    ) -> None:
        self._loaded = dict(loaded)
        self._index = dict(index)
        self._parse = parse
        self._tried: set[Path] = {m.file for m in self._loaded.values()}
        self._lock = threading.Lock()

    def _load(self, name: str) -> Module | None:
        with self._lock:
            hit = self._loaded.get(name)
            if hit is not None:
                return hit
            # a name declared nowhere by name may be declared under a macro (``module `M``)
            named = self._index.get(name) or self._index.get("`", ())
            files = [f for f in named if f not in self._tried]
            if not files:
                return None
            self._tried.update(files)
            try:
                found = self._parse(files)
            except Exception as exc:  # a file that does not parse: the name stays undefined
                log.info("module %s: its files do not parse (%s)", name, exc)
                return None
            for n, m in found.items():
                self._loaded.setdefault(n, m)
            log.debug("module %s parsed on first use from %s", name, files)
            return self._loaded.get(name)

    def users_of(self, name: str) -> list[str]:
        """Every repository module that instantiates ``name``: the files that mention the
        name as a word are parsed first (the others cannot instantiate it)."""
        word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
        with self._lock:
            files = {f for fs in self._index.values() for f in fs} - self._tried
        mention: list[Path] = []
        for f in sorted(files):
            try:
                if word.search(read_source(f)):
                    mention.append(f)
            except (OSError, DesignError):
                continue
        with self._lock:
            todo = [f for f in mention if f not in self._tried]
            self._tried.update(todo)
            if todo:
                try:
                    found = self._parse(todo)
                except Exception as exc:
                    log.info("modules of %s do not parse (%s)", todo, exc)
                    found = {}
                for n, m in found.items():
                    self._loaded.setdefault(n, m)
            return [u.name for u in self._loaded.values() if name in u.instances]

    def __getitem__(self, name: str) -> Module:
        m = self._load(name)
        if m is None:
            raise KeyError(name)
        return m

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._load(name) is not None

    def __iter__(self) -> Iterator[str]:
        with self._lock:
            return iter(list(self._loaded))

    def __len__(self) -> int:
        return len(self._loaded)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()


def with_module(modules: Mapping[str, Module], module: Module) -> Mapping[str, Module]:
    """``modules`` with ``module`` in place of the one of its name (a lazily loaded mapping
    stays lazy: the rest of the repository is still found on lookup)."""
    if isinstance(modules, LazyModules):
        with modules._lock:
            loaded = {**modules._loaded, module.name: module}
        out = LazyModules(loaded, modules._index, modules._parse)
        out._tried |= modules._tried
        return out
    return {**modules, module.name: module}


def module_closure(names: Iterable[str], modules: Mapping[str, Module]) -> list[str]:
    """Every repository module reachable from ``names`` through instantiations."""
    seen: list[str] = []
    stack = [n for n in names if n in modules]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.append(n)
        stack.extend(i for i in modules[n].instances if i in modules and i not in seen)
    return seen


def module_users(modules: Mapping[str, Module], name: str) -> list[str]:
    """Names of the repository's modules that instantiate ``name`` (parsing, for a lazily
    loaded design, the files that could)."""
    if isinstance(modules, LazyModules):
        return modules.users_of(name)
    return [u.name for u in modules.values() if name in u.instances]
