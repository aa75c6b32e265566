"""The evaluation cache: a fingerprint of everything besides a candidate's bytes that can change
a verdict, and a folder of results per fingerprint.

Two evaluators with the same fingerprint give the same result for the same bytes, so results
are shared between runs and processes (write-once files renamed into place).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import os
import uuid
from pathlib import Path
from typing import Any

from rtlopt.config import to_dict
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.evaluate._sources import (
    _file_digest,
    _repository_digest,
    _where,
    cache_root,
    deps_dir,
)
from rtlopt.results import EvalResult
from rtlopt.tools import tool_paths

__all__ = ["ResultCache", "code_fingerprint", "make_fingerprint"]

log = logging.getLogger(__name__)


def make_fingerprint(s: EvalSetup) -> str:
    """Hash of everything besides the candidate's bytes that can change a verdict."""
    from rtlopt.eda.iverilog import yosys_simulation_libraries

    cfg, pdk, design = s.config, s.pdk, s.design
    parts: dict[str, Any] = {
        "target": design.target.name,
        "ref": hashlib.sha256(s.ref_text.encode()).hexdigest(),
        "repository_files": _repository_digest(design, cfg.sandbox.timeout_s, deps_dir(cfg)),
        "sources": {
            "include_dirs": [_where(d, design.root) for d in design.include_dirs],
            "defines": dict(design.defines),
            "prelude": [str(f) for f in design.prelude],
        },
        "project": to_dict(cfg.project),
        "harness": to_dict(cfg.harness),
        "formal": to_dict(cfg.formal),
        "flow": to_dict(cfg.flow),
        "reward": to_dict(cfg.reward),
        "sandbox": to_dict(cfg.sandbox),
        "netlist_check": cfg.eval.netlist_check,
        "pdk": None
        if pdk is None
        else {
            "name": getattr(pdk, "name", None),
            "corner": getattr(pdk, "corner", None),
            "liberty_md5": getattr(pdk, "md5", None),
            "tie_hi": getattr(pdk, "tie_hi", None),
            "tie_lo": getattr(pdk, "tie_lo", None),
            "dont_use": getattr(pdk, "dont_use", None),
        },
        "tools": s.versions,
        "simulation_libraries": [_file_digest(f) for f in yosys_simulation_libraries()],
        "code": code_fingerprint(),
    }
    blob = json.dumps(parts, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:24]


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """Hash of rtlopt's own sources: a cached result is only reused by the code that made it."""
    import rtlopt

    root = Path(rtlopt.__file__).parent
    h = hashlib.sha256(rtlopt.__version__.encode())
    for f in sorted(root.rglob("*.py")):
        h.update(f.relative_to(root).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


class ResultCache:
    """Results on disk under ``<cache>/eval/<fingerprint>/`` (nothing when ``eval.cache`` is
    off or the folder cannot be made)."""

    def __init__(self, setup: EvalSetup, fingerprint: str) -> None:
        self._setup = setup
        self.dir = _cache_dir(setup, fingerprint)

    def read(self, key: str) -> Any | None:
        """The raw entry under ``key``, or None."""
        if self.dir is None:
            return None
        try:
            return json.loads((self.dir / f"{key}.json").read_text())
        except (OSError, ValueError):
            return None

    def write(self, key: str, entry: Any) -> None:
        """Write-once by atomic rename: several processes may store the same entry at once."""
        if self.dir is None:
            return
        tmp = self.dir / f".{key}.{os.getpid()}.{uuid.uuid4().hex}.tmp"
        try:
            tmp.write_text(json.dumps(entry, default=str))
            os.replace(tmp, self.dir / f"{key}.json")
        except OSError:
            log.debug("cache write failed for %s", key)
            tmp.unlink(missing_ok=True)

    def load(self, key: str) -> EvalResult | None:
        """The result under ``key``, marked cached, or None."""
        d = self.read(key)
        if d is None:
            return None
        try:
            return self.as_cached(EvalResult.from_json(d))
        except (ValueError, KeyError, TypeError):
            return None

    def store(self, key: str, res: EvalResult) -> None:
        """Keep ``res`` under ``key`` (a refutation with its waveform: the scratch folder does
        not last)."""
        if self.dir is not None and res.logs.get("trace"):
            from rtlopt.evaluate._trace import keep_trace

            res = keep_trace(res, self.dir / "traces" / key)
        self.write(key, res.to_json())

    def as_cached(self, res: EvalResult) -> EvalResult:
        """A result read from the disk cache, marked so, with this run's paths in its
        provenance: the cache is keyed on content (liberty and tool bytes), so the same
        numbers may have been measured with a liberty or binary at another path."""
        s = self._setup
        prov = dict(res.provenance)
        if "binaries" in prov:
            prov["binaries"] = {**prov["binaries"], **tool_paths(s.tool_names)}
        if isinstance(prov.get("flow"), dict) and s.pdk is not None:
            prov["flow"] = {**prov["flow"], "liberty": str(s.pdk.liberty)}
        return dataclasses.replace(res, cached=True, provenance=prov)


def _cache_dir(s: EvalSetup, fingerprint: str) -> Path | None:
    root = cache_root(s.config)
    if root is None:
        return None
    d = root / fingerprint
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return d
