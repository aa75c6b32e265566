"""Checks run before an optimization starts, so a run never ends unable to write its branch."""

from __future__ import annotations

import logging
from pathlib import Path

from rtlopt.errors import RepoError
from rtlopt.writeback._branch import (
    _check_branch_name,
    _head_commit,
    _open_repo,
    _relpath,
    assert_clean,
)

log = logging.getLogger(__name__)


def preflight_branch(repo_root: Path, target_file: Path, module_name: str, branch: str) -> bool:
    """Fail early when the result could not be written to ``branch``.

    The target file must be committed and unchanged in the work tree and the index (the branch
    is made from HEAD, so an edited target would be silently dropped); HEAD must be on a branch;
    the branch must not exist. Uncommitted changes to other files are allowed and stay untouched.

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
    try:
        assert_clean(top)
    except RepoError as exc:
        log.warning("%s; they stay untouched: the branch is made from HEAD", exc.message)
    return True
