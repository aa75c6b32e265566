"""Files written atomically (a reader sees the old or the new content), JSON and JSON lines."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def atomic_write(path: Path, text: str) -> None:
    """Write a file so that readers see the old or the new content, never a torn one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as indented JSON, atomically."""
    atomic_write(path, json.dumps(data, indent=2, default=str) + "\n")


def read_json(path: Path) -> Any:
    """Parse a JSON file (``OSError``/``ValueError`` propagate)."""
    return json.loads(path.read_text(encoding="utf-8"))


def iter_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The objects of a JSON-lines file, skipping blank and torn lines."""
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn last line of an interrupted run
        if isinstance(obj, dict):
            yield obj
