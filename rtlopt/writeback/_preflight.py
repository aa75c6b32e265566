"""Checks run before an optimization starts, so a run never ends unable to write its branch."""

from __future__ import annotations

import logging
from pathlib import Path

from rtlopt.config import Config
from rtlopt.errors import RepoError, RtloptError
from rtlopt.frontend.model import Design
from rtlopt.writeback._branch import (
    PushFailed,
    _check_branch_name,
    _head_commit,
    _open_repo,
    _relpath,
    assert_clean,
    check_identity,
)

log = logging.getLogger(__name__)


def preflight_branch(repo_root: Path, target_file: Path, module_name: str, branch: str) -> bool:
    """Fail early when the result could not be written to ``branch``.

    The target file must be committed and unchanged in the work tree and the index (the branch
    is made from HEAD, so an edited target would be silently dropped); HEAD must be on a branch;
    the branch must not exist, nor clash with an existing ``a`` / ``a/b`` name; git must know
    the committer. Uncommitted changes to other files are allowed and stay untouched.

    Returns:
        True when the branch can be written.

    Raises:
        RepoError: with the fix, including ``--no-branch`` for folders outside git.
    """
    try:
        repo = _open_repo(repo_root)
    except RepoError as exc:
        raise RepoError(
            exc.message, path=exc.path, hint="run inside a git repository, or pass --no-branch"
        ) from None
    top = Path(str(repo.working_tree_dir)).resolve()
    head = _head_commit(repo, top)
    rel = _relpath(top, target_file)
    _check_branch_name(repo, top, branch)
    try:
        head.tree / rel
    except KeyError:
        raise RepoError(
            "target file is not committed",
            path=top / rel,
            hint=f"git add {rel} && git commit, or pass --no-branch",
        ) from None
    try:
        assert_clean(top, [top / rel])
    except RepoError:
        raise RepoError(
            "the target file has uncommitted changes",
            path=top / rel,
            hint=f"commit or stash your changes to {rel} first",
        ) from None
    check_identity(top)
    try:
        assert_clean(top)
    except RepoError as exc:
        log.warning("%s; they stay untouched: the branch is made from HEAD", exc.message)
    return True


def preflight_optimize(
    design: Design, config: Config, branch: str | None, push: str | None = None
) -> None:
    """Everything an optimization run needs at its end, checked before its first rollout.

    The tools on PATH (iverilog and vvp; yosys for the formal check and synthesis; sta for
    timing) and, when ``branch`` is given, that the branch can be written: the target file is
    committed and unchanged, the branch name is free (also of ``a`` vs ``a/b`` clashes), git
    knows the committer, and the remote to push to exists.

    Raises:
        ToolNotFound: a tool is missing.
        RepoError: the branch could not be written or pushed (with the fix, or
            ``--no-branch``).
    """
    from rtlopt.eda.flow import resolve_engine
    from rtlopt.tools import require_tools

    tools = ["iverilog", "vvp", "sta"]
    if config.formal.enabled:
        tools.append("yosys")
    require_tools(tools)
    # the configured synthesis engine itself: `auto` is the Yosys binary, never pyosys instead
    resolve_engine(config.flow.engine)
    if branch is not None:
        preflight_branch(design.root, design.target.file, design.target.name, branch)
        if push is not None:
            from rtlopt.writeback._pr import remote_url

            remote_url(design.root, push)


def results_kept(exc: RtloptError, run_dir: Path) -> RtloptError:
    """``exc`` with "results kept; rerun with --resume RUN_DIR" ending its hint.

    For failures after the rollouts (writing the branch): the run directory holds every result,
    and ``rtlopt optimize --resume`` on a finished run only writes the report and the branch.
    """
    if isinstance(exc, PushFailed):  # the branch exists: a rerun would find it taken
        return exc
    note = f"results kept; rerun with --resume {run_dir}"
    exc.hint = f"{exc.hint}; {note}" if exc.hint else note
    exc.args = (exc.one_line(),)
    return exc
