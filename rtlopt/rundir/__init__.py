"""The run directory: its layout and a typed reader/writer for every file in it.

One optimization run owns one folder (docs/ARCHITECTURE.md draws it)::

    config.toml          resolved configuration              write_config / read_config_table
    run.json             RunInfo: id, target, status, branch  write_info / read_info / update_info
    provenance.json      tool versions, flow, seeds, command  write_provenance / read_provenance
    reference.json       the reference's EvalResult + code    write_reference / read_reference
    pool.json            the state pool                       StatePool.save / load at .pool
    search.json          IGR / MCTS state (ideas, chains, tree) write_search / read_search
    playbook.json        reflection lessons with evidence     write_playbook / read_playbook
    steps.jsonl          one StepRecord per step              append_step / read_steps
    state.json           RunState: resume checkpoint          write_state / read_state
    candidates/<h>.v     every candidate, and <h>.json        write_candidate / iter_candidates
    policy/              adapter + optimizer state; done      save_policy / policy_saved
    best.v, best.json    best accepted design                 write_best / read_best
    report.md, report.json, *.png, pr_body.md                 the report layer, finish
    work/                evaluator scratch                    .workdir
    bench.json, bench_best.v, suite_tb/   written by ``rtlopt bench`` only

Every writer replaces its file atomically (readers see the old or the new content). Readers
return ``None`` for a missing file and raise :class:`~rtlopt.errors.UsageError` naming the file
for a damaged one, so a resumed run never silently starts over; the report catches that error
to describe interrupted runs. This module sits on the ground floor: ``report`` reads runs
without importing ``run``.
"""

from __future__ import annotations

from rtlopt.rundir._files import atomic_write, iter_jsonl, read_json, write_json
from rtlopt.rundir._layout import RunDir
from rtlopt.rundir._records import CandidateRecord, RunInfo, RunState, StepRecord, new_run_id

__all__ = [
    "CandidateRecord",
    "RunDir",
    "RunInfo",
    "RunState",
    "StepRecord",
    "atomic_write",
    "iter_jsonl",
    "new_run_id",
    "read_json",
    "write_json",
]
