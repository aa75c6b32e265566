"""The settings of the commands around the optimization loop: ``[bench]`` (repeated runs and
the frozen control), ``[check]`` (the gate) and ``[writeback]`` (git), each a frozen dataclass
with help text on every field, as :mod:`rtlopt.config._sections` holds the loop's own."""

from __future__ import annotations

from dataclasses import dataclass

from rtlopt.config._sections import _f


@dataclass(frozen=True)
class BenchConfig:
    """`rtlopt bench`: repeated runs and the frozen control that make "training helped" a
    measured claim."""

    seeds: int = _f(
        3,
        "Runs of every design, each with its own sampling and training seed (run.seed, run.seed + 1, ...; the harness seed stays): the benchmark reports each design's mean and spread (min-max, standard deviation) over them. 1: one run per design, as before, in <out>/runs/<design>/ when there is no frozen control (--seeds).",
    )
    frozen_control: bool = _f(
        True,
        "Run a frozen best-of-N control beside every seed: the same design, seed, steps, parents and rollouts (the same sample budget) with the policy frozen and no reuse (train.learning_rate = 0, search.sampler = none: the paper's Table 3 best-of-N row); the report gives learning minus frozen per design with its spread (the control samples every parent slot of every step; a pool sampler with lineage blocking may fill fewer, so learning never gets more samples; seeds.md counts both). false: no control (--no-frozen-control). A policy that does not train (scripted, openai, learning rate 0) gets no control unless --frozen-control asks for one.",
    )


@dataclass(frozen=True)
class CheckConfig:
    """`rtlopt check`: the pre-commit / CI gate."""

    optimization_only: tuple[str, ...] = _f(
        (), "Glob patterns of module names or file paths whose changes must keep them equivalent."
    )
    ppa_threshold: float = _f(0.02, "Largest accepted relative worsening of the figure of merit.")
    ppa: bool = _f(True, "Measure PPA of changed modules.")
    search_cycles: int = _f(
        24,
        "Cycles of the search for a failing input from the power-up state the reference and the change share (each register at its initial value, else 0), for a required module the proof leaves undecided (registers without reset); a failing input that no power-up state of the reference follows is a refutation. 0: no search.",
    )
    first_search_cycles: int = _f(
        6,
        "For a required module of a design without reset: a first, shorter search of this many cycles before the proof (a refutation then ends the check in seconds instead of after the formal limit). 0: none.",
    )


@dataclass(frozen=True)
class WritebackConfig:
    """Writing the result to git."""

    branch_prefix: str = _f("rtlopt", "Branch name prefix: <prefix>/<module>/<run-id>.")
    push: str | None = _f(None, "Remote to push the branch to.")
    pull_request: bool = _f(
        False,
        "Open a pull request from the pushed branch with gh (else print the gh command and the compare page); pushes to origin unless push is set.",
    )
    multi_branch: str = _f(
        "one",
        "Several modules in one run (rtlopt optimize A.v:m1 B.v:m2, or --from-profile N): 'one' writes one branch <prefix>/multi/<run-id> with one commit per improved module, 'each' one branch per improved module.",
    )
