"""Write-back: the optimized module on a new git branch, with the metrics in the commit message.

Public API:
    write_branch(repo_root, target_file, module_name, new_module_text, *, branch, message,
                 push=None, design=None) -> BranchResult
    preflight_optimize(design, config, branch, push=None) -> None
    open_pull_request(repo_root, remote, *, branch, base, title, body_file, workdir)
        -> PullRequest
    commit_message(module_name, before, after, *, verdict, method, run_id, metric) -> str
    commit_message_for(module_name, outcome, run_id) -> str   (a run's best rewrite)
    assert_clean(repo_root, paths=None) -> None
    delete_branch(repo_root, branch) -> None   (a branch this run made, after a failure)
"""

from rtlopt.writeback._branch import (
    BranchResult,
    PushFailed,
    assert_clean,
    delete_branch,
    write_branch,
)
from rtlopt.writeback._message import commit_message, commit_message_for, percent_change
from rtlopt.writeback._pr import PullRequest, compare_url, open_pull_request, remote_url
from rtlopt.writeback._preflight import preflight_branch, preflight_optimize, results_kept

__all__ = [
    "BranchResult",
    "PullRequest",
    "PushFailed",
    "assert_clean",
    "commit_message",
    "commit_message_for",
    "compare_url",
    "delete_branch",
    "open_pull_request",
    "percent_change",
    "preflight_branch",
    "preflight_optimize",
    "remote_url",
    "results_kept",
    "write_branch",
]
