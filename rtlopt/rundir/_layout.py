"""The run directory's layout (``RunDir``): the path of every file, and a typed reader and
writer for each."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from rtlopt.config import Config, to_toml
from rtlopt.errors import UsageError
from rtlopt.results import EvalResult
from rtlopt.rundir._files import atomic_write, iter_jsonl, write_json
from rtlopt.rundir._records import CandidateRecord, RunInfo, RunState, StepRecord, _opt_int


@dataclass(frozen=True)
class RunDir:
    """One run directory: the path of every run file and its typed reader and writer."""

    path: Path

    # ------------------------------------------------------------------------------ layout

    @property
    def config(self) -> Path:
        return self.path / "config.toml"

    @property
    def run_json(self) -> Path:
        return self.path / "run.json"

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
    def search_state(self) -> Path:
        return self.path / "search.json"

    @property
    def playbook(self) -> Path:
        return self.path / "playbook.json"

    @property
    def steps(self) -> Path:
        return self.path / "steps.jsonl"

    @property
    def state(self) -> Path:
        return self.path / "state.json"

    @property
    def candidates(self) -> Path:
        return self.path / "candidates"

    @property
    def policy(self) -> Path:
        return self.path / "policy"

    @property
    def best_v(self) -> Path:
        return self.path / "best.v"

    @property
    def best_json(self) -> Path:
        return self.path / "best.json"

    @property
    def report_md(self) -> Path:
        return self.path / "report.md"

    @property
    def report_json(self) -> Path:
        return self.path / "report.json"

    @property
    def pr_body(self) -> Path:
        return self.path / "pr_body.md"

    @property
    def workdir(self) -> Path:
        return self.path / "work"

    @property
    def bench_json(self) -> Path:
        """``rtlopt bench``: the design's outcome (its presence means finished)."""
        return self.path / "bench.json"

    @property
    def bench_best_v(self) -> Path:
        """``rtlopt bench``: the design chosen after the suite's testbench."""
        return self.path / "bench_best.v"

    @property
    def suite_tb(self) -> Path:
        """``rtlopt bench``: scratch of the suite's testbench runs."""
        return self.path / "suite_tb"

    def plot(self, name: str) -> Path:
        """A report figure (``name`` is a file name such as ``reward.png``)."""
        return self.path / name

    def candidate_v(self, h: str) -> Path:
        return self.candidates / f"{h}.v"

    def candidate_json(self, h: str) -> Path:
        return self.candidates / f"{h}.json"

    def create(self) -> None:
        """Make the folder and ``candidates/``."""
        self.candidates.mkdir(parents=True, exist_ok=True)

    def is_run(self) -> bool:
        """Whether the folder holds a run (its run.json, steps or reference)."""
        return self.run_json.is_file() or self.steps.is_file() or self.reference.is_file()

    # ------------------------------------------------------------------------------ helpers

    @staticmethod
    def _damaged(path: Path, exc: Exception) -> UsageError:
        return UsageError(
            f"cannot read: {exc}", path=path, hint="the run directory is damaged or not a run"
        )

    def _json(self, path: Path) -> Any:
        """The parsed file, ``None`` when missing; damaged: UsageError."""
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise self._damaged(path, exc) from None

    def _json_object(self, path: Path) -> dict[str, Any] | None:
        """The parsed file, ``None`` when missing; damaged or not a JSON object: UsageError."""
        data = self._json(path)
        if data is None:
            return None
        if not isinstance(data, Mapping):
            raise self._damaged(path, ValueError("not a JSON object"))
        return dict(data)

    def _result(self, path: Path, data: Any) -> EvalResult:
        if not isinstance(data, Mapping):
            raise self._damaged(path, ValueError("not a JSON object"))
        try:
            return EvalResult.from_json(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise self._damaged(path, exc) from None

    # ------------------------------------------------------------------------------ config.toml

    def write_config(self, cfg: Config) -> None:
        """Write the resolved configuration (``load_config(config_file=...)`` reads it)."""
        atomic_write(self.config, to_toml(cfg))

    def read_config_table(self) -> dict[str, Any]:
        """The recorded configuration as a TOML table (``{}`` when missing).

        A table rather than a :class:`Config`: a run written by another rtlopt version may
        hold keys this one does not know, and reports must still read it.
        """
        try:
            return tomllib.loads(self.config.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise self._damaged(self.config, exc) from None

    # ------------------------------------------------------------------------------ run.json

    def write_info(self, info: RunInfo) -> None:
        write_json(self.run_json, info.to_json())

    def read_info(self) -> RunInfo | None:
        data = self._json_object(self.run_json)
        if data is None:
            return None
        try:
            return RunInfo.from_json(data)
        except TypeError as exc:
            raise self._damaged(self.run_json, exc) from None

    def update_info(self, **changes: Any) -> None:
        """Change fields of run.json (``status="done"``); a missing run.json is not created."""
        info = self.read_info()
        if info is not None:
            self.write_info(replace(info, **changes))

    # ------------------------------------------------------------------------------ provenance

    def write_provenance(self, data: Mapping[str, Any]) -> None:
        write_json(self.provenance, dict(data))

    def read_provenance(self) -> dict[str, Any]:
        data = self._json(self.provenance)
        return dict(data) if isinstance(data, Mapping) else {}

    # ------------------------------------------------------------------------------ reference

    def write_reference(self, result: EvalResult, code: str) -> None:
        """The reference's result with its source (``code``) for the report."""
        write_json(self.reference, {**result.to_json(), "code": code})

    def read_reference(self) -> tuple[EvalResult, str] | None:
        data = self._json(self.reference)
        if data is None:
            return None
        return self._result(self.reference, data), str(data.get("code", ""))

    # ------------------------------------------------------------------------------ steps.jsonl

    def append_step(self, record: StepRecord) -> None:
        """Append one step and flush it to disk (a crash loses at most the current step)."""
        with self.steps.open("a") as fh:
            fh.write(json.dumps(record.to_json(), default=str) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def read_steps(self) -> list[dict[str, Any]]:
        """Step records in step order; a step recorded twice (a resumed run redid it) counts
        once, with its last record; torn lines are skipped.

        Records stay dicts: runs of older versions lack newer fields, and readers show what
        they find.
        """
        by_step: dict[int, dict[str, Any]] = {}
        for rec in iter_jsonl(self.steps):
            step = rec.get("step")
            if isinstance(step, int) and not isinstance(step, bool):
                by_step[step] = rec
        return [by_step[k] for k in sorted(by_step)]

    def truncate_steps(self, upto: int) -> None:
        """Drop step records after ``upto`` (a resumed run redoes them)."""
        kept = [r for r in self.read_steps() if int(r["step"]) <= upto]
        atomic_write(self.steps, "".join(json.dumps(r) + "\n" for r in kept))

    # ------------------------------------------------------------------------------ state.json

    def write_state(self, state: RunState) -> None:
        write_json(self.state, asdict(state))

    def read_state(self) -> RunState | None:
        data = self._json(self.state)
        if data is None:
            return None
        try:
            return RunState.from_json(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise self._damaged(self.state, exc) from None

    # ------------------------------------------------------------------------------ search.json

    def write_search(self, data: Mapping[str, Any]) -> None:
        """The search strategy's state (IGR ideas and chains, the MCTS tree), atomically."""
        write_json(self.search_state, dict(data))

    def read_search(self) -> dict[str, Any] | None:
        """The strategy state, ``None`` when missing; damaged: UsageError."""
        return self._json_object(self.search_state)

    # ------------------------------------------------------------------------------ playbook

    def write_playbook(self, data: Mapping[str, Any]) -> None:
        """The reflection playbook (lessons with their evidence), atomically."""
        write_json(self.playbook, dict(data))

    def read_playbook(self) -> dict[str, Any] | None:
        """The playbook, ``None`` when missing; damaged: UsageError."""
        return self._json_object(self.playbook)

    # ------------------------------------------------------------------------------ candidates

    def has_candidate(self, h: str) -> bool:
        return self.candidate_v(h).exists()

    def write_candidate(
        self,
        h: str,
        code: str,
        result: EvalResult,
        *,
        step: int,
        parent: int,
        source: str | None = None,
    ) -> None:
        """Record a candidate's source and result with the step and parent that made it (and
        the name it came with, e.g. a ``--candidates`` file)."""
        self.candidate_v(h).write_text(code)
        extra = {"source": source} if source else {}
        write_json(
            self.candidate_json(h), {**result.to_json(), "step": step, "parent": parent, **extra}
        )

    def read_candidate(self, h: str) -> EvalResult | None:
        """A candidate's result; ``None`` when missing or unreadable (it is then re-judged)."""
        path = self.candidate_json(h)
        try:
            return self._result(path, self._json(path)) if path.exists() else None
        except UsageError:
            return None

    def iter_candidates(
        self, on_damaged: Callable[[Path, UsageError], None] | None = None
    ) -> Iterator[CandidateRecord]:
        """Every recorded candidate, by file name; damaged records are skipped.

        Args:
            on_damaged: Told about each skipped record (to log it).
        """
        if not self.candidates.is_dir():
            return
        for jpath in sorted(self.candidates.glob("*.json")):
            try:
                raw = self._json(jpath)
                res = self._result(jpath, raw)
            except UsageError as exc:
                if on_damaged is not None:
                    on_damaged(jpath, exc)
                continue
            vpath = jpath.with_suffix(".v")
            yield CandidateRecord(
                hash=jpath.stem,
                result=res,
                step=_opt_int(raw.get("step")),
                parent=_opt_int(raw.get("parent")),
                code_path=vpath if vpath.exists() else None,
                source=str(raw["source"]) if isinstance(raw.get("source"), str) else None,
            )

    # ------------------------------------------------------------------------------ policy/

    def policy_saved(self) -> bool:
        """Whether ``policy/`` holds a complete save (its ``done`` marker exists)."""
        return (self.policy / "done").exists()

    def save_policy(self, save: Callable[[Path], None], step: int) -> None:
        """Run ``save(policy_dir)`` between removing and rewriting the ``done`` marker, so a
        save cut short is never loaded."""
        marker = self.policy / "done"
        if marker.exists():
            marker.unlink()
        save(self.policy)
        marker.write_text(str(step))

    # ------------------------------------------------------------------------------ best

    def write_best(self, code: str, result: EvalResult) -> None:
        atomic_write(self.best_v, code)
        write_json(self.best_json, result.to_json())

    def read_best(self) -> tuple[EvalResult, str | None] | None:
        """The best accepted design's result and code (``None`` code: best.v is missing)."""
        data = self._json(self.best_json)
        if data is None:
            return None
        result = self._result(self.best_json, data)
        code = self.best_v.read_text(encoding="utf-8") if self.best_v.exists() else None
        return result, code

    # ------------------------------------------------------------------------------ finish

    def write_pr_body(self, text: str) -> None:
        atomic_write(self.pr_body, text)
