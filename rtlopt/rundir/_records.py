"""The records a run writes: its identity and status (``run.json``), its resume checkpoint
(``state.json``), one line per step (``steps.jsonl``) and a candidate as the report reads it."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from rtlopt.results import EvalResult


def new_run_id(module: str) -> str:
    """``YYYYmmdd-HHMMSS-<4 hex>``: sortable and unique enough for branch names."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


def _from_known(cls: Any, data: Mapping[str, Any]) -> Any:
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class RunInfo:
    """``run.json``: what the run is about and how far it got.

    Every field has an empty default so that the run.json of an older or partial run still
    reads; the run loop always writes them all.

    Attributes:
        run_id: The run's id (also the last part of its branch name).
        module: Target module.
        target_file: The file that defines it.
        repo_root: Root of its repository.
        pdk: PDK name.
        status: ``running``, ``paused``, ``interrupted`` or ``done``.
        command: The command line that started the run.
        branch: Branch written by the finished run, if any.
        commit: That branch's commit.
        wall_s: Wall-clock seconds of the run's sessions up to their reports (reference,
            policy loading, steps), added up over resumes; ``None`` when not recorded (a run
            stopped by a signal).
    """

    run_id: str = ""
    module: str = ""
    target_file: str = ""
    repo_root: str = ""
    pdk: str = ""
    status: str = ""
    command: tuple[str, ...] = ()
    branch: str | None = None
    commit: str | None = None
    wall_s: float | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; unset fields (empty or ``None``) are left out."""
        d = asdict(self)
        d["command"] = list(self.command)
        return {k: v for k, v in d.items() if v not in (None, "")}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> RunInfo:
        """Inverse of :meth:`to_json`; unknown keys are ignored."""
        info: RunInfo = _from_known(RunInfo, data)
        command = info.command if isinstance(info.command, list | tuple) else [info.command]
        return replace(info, command=tuple(str(c) for c in command))


@dataclass(frozen=True)
class RunState:
    """``state.json``: the checkpoint written after every completed step.

    Attributes:
        step: Last completed step.
        schedule: The KL-budget schedule's state (``DeltaSchedule.to_json``).
        best_reward: Best reward of any rollout so far (accepted or not).
        nodes: Candidates generated so far (the node budget's count).
        coordinator: The restart coordinator's state (``RestartCoordinator.to_json``; empty
            in runs of older versions).
    """

    step: int
    schedule: dict[str, Any] = field(default_factory=dict)
    best_reward: float = 0.0
    nodes: int = 0
    coordinator: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> RunState:
        """Parse ``state.json``."""
        return RunState(
            step=int(data["step"]),
            schedule=dict(data.get("schedule") or {}),
            best_reward=float(data.get("best_reward", 0.0)),
            nodes=int(data.get("nodes", 0)),
            coordinator=dict(data.get("coordinator") or {}),
        )


@dataclass
class StepRecord:
    """Metrics of one step: one line of ``steps.jsonl``.

    The last six are ``None`` in runs of older versions: ``nodes`` counts the candidates
    generated so far (the node budget's count), ``expansions`` the prompts of the step,
    ``reflections`` the reflector's requests and ``lessons`` the playbook's size after it,
    ``restart`` whether the step started again from the reference after stagnation
    (``reflect.restart_after``) and ``stagnant`` the stagnant steps in a row after it.
    The learning telemetry (``None`` in older runs): ``updated`` whether the policy's weights
    changed this step, ``samples`` the rollouts in the loss, ``grad_norm`` the gradient norm
    before clipping, ``trunc_frac`` the share of answers cut off at ``policy.max_new_tokens``
    and ``logprob_gap`` the mean per-token gap between the sampler's and the trainer's
    log-probabilities (``loss`` and ``kl_ref`` are above); ``masked`` the rewarded answers kept
    out of the loss for being cut off (``train.mask_truncated``), ``think_closed`` the answers
    whose think block was closed at ``policy.think_budget`` and ``tied`` the answers whose
    reward was merged with others' within ``train.ppa_tie``.
    """

    step: int
    max_reward: float
    mean_reward: float
    best_reward: float
    best_metric: float | None
    ref_metric: float
    metric: str
    delta: float
    beta_mean: float | None
    eff_n: float | None
    const_frac: float | None
    beta_max_rate: float | None
    kl_ref: float | None
    rule: str
    valid_frac: float
    accepted: int
    rollouts: int
    tokens: int
    loss: float | None
    time_s: float
    infra_errors: int = 0
    next_delta: float | None = None
    nodes: int | None = None
    expansions: int | None = None
    reflections: int | None = None
    lessons: int | None = None
    restart: bool | None = None
    stagnant: int | None = None
    updated: bool | None = None
    samples: int | None = None
    grad_norm: float | None = None
    trunc_frac: float | None = None
    logprob_gap: float | None = None
    masked: int | None = None
    think_closed: int | None = None
    tied: int | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class CandidateRecord:
    """One evaluated candidate in ``candidates/``.

    Attributes:
        hash: File stem (the normalized source hash).
        result: Its evaluation.
        step: Step that produced it (``None`` if not recorded).
        parent: Id of the pool state it was generated from.
        code_path: The candidate's Verilog file, if present.
        source: The name it came with (a ``--candidates`` file), if any.
    """

    hash: str
    result: EvalResult
    step: int | None
    parent: int | None
    code_path: Path | None
    source: str | None = None


def _opt_int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None
