"""What the frontend's pyslang readers share (the parser, the parameterizations, the compared
constants): the source manager and preprocessor options of an elaboration context, and a
node's kind. pyslang is imported lazily."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["node_kind", "preprocessor"]


def node_kind(node: Any) -> str:
    """The name of a pyslang node's kind (``""`` for a node without one)."""
    k = getattr(node, "kind", None)
    return getattr(k, "name", "") if k is not None else ""


def preprocessor(include_dirs: Iterable[Path], defines: Mapping[str, str]) -> tuple[Any, Any]:
    """A source manager searching the ``include_dirs`` that exist, and preprocessor options
    predefining ``defines`` (``NAME`` for an empty value, else ``NAME=value``)."""
    import pyslang
    from pyslang import parsing

    sm = pyslang.SourceManager()
    for d in include_dirs:
        if Path(d).is_dir():
            sm.addUserDirectories(str(d))
    popts = parsing.PreprocessorOptions()
    popts.predefines = [f"{k}={v}" if v != "" else k for k, v in defines.items()]
    return sm, popts
