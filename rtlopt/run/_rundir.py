"""Run directory layout and atomic file helpers."""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def atomic_write(path: Path, text: str) -> None:
    """Write a file so that readers see the old or the new content, never a torn one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def write_json(path: Path, data: Any) -> None:
    atomic_write(path, json.dumps(data, indent=2, default=str) + "\n")


def read_json(path: Path) -> Any:
    return json.loads(path.read_text())


def new_run_id(module: str) -> str:
    """``YYYYmmdd-HHMMSS-<4 hex>``: sortable and unique enough for branch names."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


@dataclass(frozen=True)
class RunDir:
    """Paths inside one run directory (see docs/ARCHITECTURE.md)."""

    path: Path

    @property
    def config(self) -> Path:
        return self.path / "config.toml"

    @property
    def provenance(self) -> Path:
        return self.path / "provenance.json"

    @property
    def reference(self) -> Path:
        return self.path / "reference.json"

    @property
    def pool(self) -> Path:
        return self.path / "pool.json"

    @property
    def steps(self) -> Path:
        return self.path / "steps.jsonl"

    @property
    def candidates(self) -> Path:
        return self.path / "candidates"

    @property
    def policy(self) -> Path:
        return self.path / "policy"

    @property
    def state(self) -> Path:
        return self.path / "state.json"

    @property
    def run_json(self) -> Path:
        return self.path / "run.json"

    @property
    def best_v(self) -> Path:
        return self.path / "best.v"

    @property
    def best_json(self) -> Path:
        return self.path / "best.json"

    @property
    def workdir(self) -> Path:
        return self.path / "work"

    def append_step(self, record: Mapping[str, Any]) -> None:
        with self.steps.open("a") as fh:
            fh.write(json.dumps(record, default=str) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def read_steps(self) -> list[dict[str, Any]]:
        return list(iter_jsonl(self.steps))

    def truncate_steps(self, upto: int) -> None:
        """Drop step records after ``upto`` (a resumed run redoes them)."""
        kept = [r for r in self.read_steps() if int(r["step"]) <= upto]
        atomic_write(self.steps, "".join(json.dumps(r) + "\n" for r in kept))


def iter_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    if not path.exists():
        return
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn last line of an interrupted run
