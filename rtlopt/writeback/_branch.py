"""Write an optimized module to a new git branch without touching the user's checkout.

The branch is created from HEAD in a temporary ``git worktree`` outside the repository; only the
target module's ``module``..``endmodule`` span of the HEAD version of its file is replaced. The
user's working tree, index and uncommitted edits are never read for writing nor modified.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import git

from rtlopt.errors import DesignError, RepoError
from rtlopt.frontend.model import Design, Module
from rtlopt.verilog import ModuleSpan, find_span, module_spans
from rtlopt.writeback._merge import compile_gate, place_candidate

__all__ = ["BranchResult", "PushFailed", "assert_clean", "write_branch"]

log = logging.getLogger(__name__)

# Never run the user's hooks from inside our temporary worktree: a post-checkout or pre-commit
# hook could rewrite files or block the commit for reasons unrelated to the change.
_NO_HOOKS = ("-c", "core.hooksPath=/dev/null")


class PushFailed(RepoError):
    """The branch was written but could not be pushed (it exists locally)."""


@dataclass(frozen=True)
class BranchResult:
    """What write-back produced.

    Attributes:
        branch: The new branch's name.
        commit_sha: The commit on that branch.
        diff: Unified diff of the commit against its parent.
        pushed_to: The remote the branch was pushed to, if any.
        base: The branch HEAD was on: the branch was made from it (and a pull request goes
            into it).
    """

    branch: str
    commit_sha: str
    diff: str
    pushed_to: str | None = None
    base: str = ""


def _git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd`` and return its stdout (stripped of the final newline)."""
    out = git.Git(str(cwd)).execute(["git", *_NO_HOOKS, *args], strip_newline_in_stdout=True)
    return str(out)


def _first_line(exc: git.GitCommandError) -> str:
    text = exc.stderr.strip() if isinstance(exc.stderr, str) else str(exc)
    for line in text.splitlines():
        line = line.strip().removeprefix("stderr:").strip().strip("'").strip()
        if line:
            return line
    return str(exc.status)


@contextmanager
def _git_failure(
    what: str, top: Path, hint: str | None = None, error: type[RepoError] = RepoError
) -> Iterator[None]:
    """Turn a git command failing in the block into ``error``: ``{what} failed: <git's first
    line>``, naming the repository ``top``."""
    try:
        yield
    except git.GitCommandError as exc:
        raise error(f"{what} failed: {_first_line(exc)}", path=top, hint=hint) from None


def _open_repo(repo_root: Path) -> git.Repo:
    root = Path(repo_root)
    if not root.exists():
        raise RepoError(
            "repository folder does not exist",
            path=root,
            hint="pass the folder of a git repository",
        )
    try:
        repo = git.Repo(str(root), search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise RepoError(
            "not a git repository", path=root, hint="run `git init` and commit your sources first"
        ) from None
    if repo.bare or repo.working_tree_dir is None:
        raise RepoError(
            "bare repository has no work tree", path=root, hint="run rtlopt inside a checkout"
        )
    return repo


def _head_commit(repo: git.Repo, root: Path) -> git.Commit:
    if not repo.head.is_valid():
        raise RepoError(
            "repository has no commits yet", path=root, hint="commit your sources first"
        )
    if repo.head.is_detached:
        raise RepoError(
            "HEAD is detached", path=root, hint="check out a branch first (git switch <branch>)"
        )
    return repo.head.commit


def _relpath(top: Path, target_file: Path) -> str:
    target = Path(target_file)
    if not target.is_absolute():
        # relative to the cwd, else to the repository's top level
        target = Path.cwd() / target if (Path.cwd() / target).exists() else top / target
    target = target.resolve()
    try:
        return target.relative_to(top).as_posix()
    except ValueError:
        raise RepoError(
            "target file is outside the repository", path=target, hint=f"pass a file under {top}"
        ) from None


def _check_branch_name(repo: git.Repo, top: Path, branch: str) -> None:
    try:
        _git(top, "check-ref-format", "--branch", branch)
    except git.GitCommandError:
        raise RepoError(
            f"'{branch}' is not a valid branch name",
            path=top,
            hint="use letters, digits, '/', '-', '_' and '.'",
        ) from None
    heads = [h.name for h in repo.heads]
    if branch in heads:
        raise RepoError(
            f"branch '{branch}' already exists",
            path=top,
            hint="pick another name or delete it (git branch -D " + branch + ")",
        )
    # git stores branches as files: 'a/b' cannot exist beside 'a' or 'a/b/c'
    for h in heads:
        if branch.startswith(h + "/") or h.startswith(branch + "/"):
            raise RepoError(
                f"branch '{branch}' cannot be created: branch '{h}' exists and git "
                "cannot hold both",
                path=top,
                hint=f"rename or delete '{h}' (git branch -m {h} <new name>), or "
                "set writeback.branch_prefix",
            )


def check_identity(top: Path) -> None:
    """Raise unless git can name the author and committer of a commit in ``top``."""
    for var in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"):
        try:
            _git(top, "var", var)
        except git.GitCommandError:
            raise RepoError(
                "git does not know who commits (no user.name / user.email)",
                path=top,
                hint='git config user.name "Your Name" && git config user.email you@example.com',
            ) from None


def _span_or_error(text: str, module_name: str, where: str, rel: str, top: Path) -> ModuleSpan:
    span = find_span(text, module_name)
    if span is None:
        present = ", ".join(s.name for s in module_spans(text)) or "none"
        raise RepoError(
            f"module '{module_name}' not found in {where} of {rel}; modules: {present}",
            path=top / rel,
            hint="commit the file that defines the module",
        )
    return span


def write_branch(
    repo_root: Path,
    target_file: Path,
    module_name: str,
    new_module_text: str,
    *,
    branch: str,
    message: str,
    push: str | None = None,
    design: Design | None = None,
    extend: bool = False,
) -> BranchResult:
    """Commit ``new_module_text`` in place of ``module_name`` on a new branch (or, with
    ``extend``, on top of ``branch``, which this run created before: one commit per module).

    Only the target's span changes: it receives the target and its new helper modules. A
    helper under the name of a module the repository defines is never written over it (the
    branch would differ from what was proven): unchanged, it is left out; changed, it is an
    internal error (:mod:`rtlopt.writeback._merge`). Before the commit the changed file is
    parsed again and,
    with ``design``, the target is compiled from the branch's files (iverilog, the design's
    include folders and defines).

    Args:
        repo_root: Any folder inside the repository.
        target_file: The file that defines the module (absolute, or relative to the cwd).
        module_name: The module to replace.
        new_module_text: The replacement, ``module`` .. ``endmodule`` (and helper modules).
        branch: Name of the branch to create from HEAD.
        message: Commit message.
        push: A remote to push the branch to, or None.
        design: The parsed design: the repository's modules and how to compile the branch.
            Without it the gate only parses.
        extend: Add the commit to the existing ``branch`` instead of creating it from HEAD.

    Returns:
        The branch, its commit and the diff.

    Raises:
        ValueError: ``new_module_text`` does not define ``module_name``.
        UnprovenWriteBack: a helper would replace a repository module (an internal error).
        RepoError: not a repository, no commits, detached HEAD, target outside the repository or
            not committed, the branch exists, the module is missing at HEAD, the module has
            uncommitted changes, the branch would not compile, or git failed (commit
            identity, push).
    """
    if find_span(new_module_text, module_name) is None:
        raise ValueError(f"the replacement text does not define module '{module_name}'")
    repo = _open_repo(repo_root)
    top = Path(str(repo.working_tree_dir)).resolve()
    head = _head_commit(repo, top)
    base = repo.active_branch.name  # HEAD is on a branch (checked above)
    rel = _relpath(top, target_file)
    if extend:
        head = _branch_tip(repo, top, branch)
    else:
        _check_branch_name(repo, top, branch)
    head_text, head_span = _head_module(head, top, rel, module_name)
    _check_committed(top, rel, module_name, head_text, head_span)

    sha, diff = _in_worktree(
        top,
        (branch, extend),
        rel,
        (module_name, new_module_text),
        (head.hexsha, head_text, head_span.line),
        design,
        message,
    )
    log.info("wrote %s on branch %s (%s)", module_name, branch, sha[:10])
    if push:
        _push(top, push, branch)
    return BranchResult(branch=branch, commit_sha=sha, diff=diff, pushed_to=push or None, base=base)


def _in_worktree(
    top: Path,
    where_to: tuple[str, bool],
    rel: str,
    replacement: tuple[str, str],
    head_info: tuple[str, str, int],
    design: Design | None,
    message: str,
) -> tuple[str, str]:
    """Check the branch out in a temporary worktree outside the repository (a new branch from
    HEAD, or the existing one with ``extend``), commit the replacement there and remove the
    worktree; a new branch is deleted again when the commit fails."""
    branch, extend = where_to
    tmp = Path(tempfile.mkdtemp(prefix="rtlopt-worktree-"))
    wt = tmp / "wt"
    created = False
    where = (str(wt), branch) if extend else ("-b", branch, str(wt), head_info[0])
    try:
        with _git_failure("git worktree add", top, hint="run `git worktree prune` and retry"):
            _git(top, "worktree", "add", "--quiet", *where)
        created = True
        sha, diff = _commit_replacement(wt, top, rel, replacement, head_info, design, message)
    except BaseException:
        if created:
            _remove_worktree(top, wt)
            created = False
            _drop_new_branch(top, branch, extend)
        raise
    finally:
        if created:
            _remove_worktree(top, wt)
        shutil.rmtree(tmp, ignore_errors=True)
    return sha, diff


def delete_branch(repo_root: Path, branch: str) -> None:
    """Delete ``branch``, which this run made, after a later step of the run failed (a branch
    that holds part of a run's rewrites is never left behind)."""
    _drop_new_branch(Path(str(_open_repo(repo_root).working_tree_dir)), branch, False)


def _drop_new_branch(top: Path, branch: str, extend: bool) -> None:
    """Delete the branch this call created after a failure (an extended one keeps its
    earlier commits)."""
    if extend:
        return
    try:
        _git(top, "branch", "-D", branch)
    except git.GitCommandError:
        log.warning("could not delete branch %s after a failure", branch)


def _branch_tip(repo: git.Repo, top: Path, branch: str) -> git.Commit:
    """The last commit of ``branch``, which must exist.

    Raises:
        RepoError: no such branch.
    """
    for h in repo.heads:
        if h.name == branch:
            return h.commit
    raise RepoError(f"branch '{branch}' does not exist", path=top, hint="write its first commit")


def _commit_replacement(
    wt: Path,
    top: Path,
    rel: str,
    replacement: tuple[str, str],
    head_info: tuple[str, str, int],
    design: Design | None,
    message: str,
) -> tuple[str, str]:
    """Place the replacement (and its new helpers) in the branch's work tree, pass the compile
    gate and commit; the commit and its diff against HEAD.

    Args:
        wt: The branch's work tree (checked out at HEAD).
        top: The repository's top folder.
        rel: The target file, relative to ``top``.
        replacement: The module's name and its new text.
        head_info: HEAD's commit, the target file's text there and the module's line.
        design: The parsed design, if any.
        message: Commit message.
    """
    module_name, new_module_text = replacement
    head_sha, head_text, head_line = head_info
    wt_file = wt / rel
    # the checked-out file is the HEAD version (with the repo's checkout filters applied)
    data = wt_file.read_bytes().decode("utf-8", errors="surrogateescape")
    span = find_span(data, module_name, head_line)
    if span is None:  # cannot happen unless a filter rewrites the file
        raise RepoError(
            f"module '{module_name}' not found in the checkout of {rel}",
            path=top / rel,
            hint="check the repository's checkout filters",
        )
    modules = design.modules if design is not None else _file_modules(head_text, top / rel)
    new_text = new_module_text.replace("\r\n", "\n")
    placement = place_candidate(
        new_text,
        module_name,
        modules,
        top,
        design.sources if design is not None else None,
        _declared_on_branch(wt, new_text, module_name),
    )
    _apply_edit(wt, rel, data, (span.start, span.end), placement.target_text)
    changed = [rel]
    compile_gate(wt, top, module_name, changed, placement, design, wt.parent / "gate")
    with _git_failure("git commit", top, hint="set git user.name and user.email"):
        _git(wt, "add", "--", *changed)
        _git(wt, "commit", "--quiet", "--no-verify", "-m", message)
    sha = _git(wt, "rev-parse", "HEAD")
    diff = _git(wt, "diff", f"{head_sha}..{sha}")
    return sha, diff


def _head_module(head: git.Commit, top: Path, rel: str, module_name: str) -> tuple[str, ModuleSpan]:
    """The target file's text at HEAD and the module's span in it.

    Raises:
        RepoError: the file is not committed, or the module is not in it.
    """
    try:
        blob = head.tree / rel
    except KeyError:
        raise RepoError(
            "target file is not committed at HEAD",
            path=top / rel,
            hint=f"git add {rel} && git commit",
        ) from None
    head_text = blob.data_stream.read().decode("utf-8", errors="surrogateescape")
    return head_text, _span_or_error(head_text, module_name, "HEAD", rel, top)


def _check_committed(
    top: Path, rel: str, module_name: str, head_text: str, head_span: ModuleSpan
) -> None:
    """The module in the work tree is the one at HEAD (line endings aside).

    Raises:
        RepoError: the file is deleted or the module has uncommitted changes.
    """
    work_file = top / rel
    if not work_file.is_file():
        raise RepoError(
            f"{rel} is deleted in the work tree",
            path=work_file,
            hint=f"commit or stash your changes to {rel} first",
        )
    work_text = work_file.read_bytes().decode("utf-8", errors="surrogateescape")
    work_span = find_span(work_text, module_name, head_span.line)
    head_mod = head_text[head_span.start : head_span.end].replace("\r\n", "\n")
    work_mod = (
        work_text[work_span.start : work_span.end].replace("\r\n", "\n")
        if work_span is not None
        else None
    )
    if work_mod != head_mod:
        raise RepoError(
            f"module '{module_name}' has uncommitted changes",
            path=work_file,
            hint=f"commit or stash your changes to {rel} first",
        )


def _declared_on_branch(wt: Path, new_text: str, module_name: str) -> dict[str, str]:
    """The candidate's helper names that a file of the branch's checkout declares (in any
    ```ifdef`` branch) -> the file: the write-back may replace none of them. A file holding the
    candidate itself is its own (a candidate read from the repository)."""
    from rtlopt.harness import declared_names

    names = {m.name for m in module_spans(new_text) if m.name != module_name}
    own = new_text.strip()
    return declared_names(wt, names, lambda path, text: "" if text.strip() == own else text)


def _apply_edit(wt: Path, rel: str, data: str, span: tuple[int, int], text: str) -> None:
    """Write the target file of the checkout (``data``: its text) with ``span`` replaced."""
    start, end = span
    text = text.strip()
    if "\r\n" in data[start:end]:  # keep the module's line endings
        text = text.replace("\n", "\r\n")
    new_data = data[:start] + text + data[end:]
    (wt / rel).write_bytes(new_data.encode("utf-8", errors="surrogateescape"))


def _push(top: Path, remote: str, branch: str) -> None:
    """Push the new branch.

    Raises:
        PushFailed: git push failed (the branch stays local).
    """
    hint = f"the branch {branch} exists locally; push it by hand"
    with _git_failure(f"push to '{remote}'", top, hint=hint, error=PushFailed):
        _git(top, "push", "--quiet", remote, f"refs/heads/{branch}:refs/heads/{branch}")


def _file_modules(text: str, path: Path) -> dict[str, Module]:
    """The modules of one file (when no design is given), located at ``path``."""
    from dataclasses import replace

    from rtlopt.frontend import parse_text

    try:
        return {m.name: replace(m, file=path) for m in parse_text(text, path.name)}
    except DesignError:
        return {}


def _remove_worktree(top: Path, wt: Path) -> None:
    try:
        _git(top, "worktree", "remove", "--force", str(wt))
    except git.GitCommandError:
        shutil.rmtree(wt, ignore_errors=True)
        try:
            _git(top, "worktree", "prune")
        except git.GitCommandError:
            log.warning("could not prune worktree %s", wt)


def assert_clean(repo_root: Path, paths: Sequence[Path] | None = None) -> None:
    """Raise unless the work tree (or the given paths) has no uncommitted changes.

    Untracked files are ignored.

    Raises:
        RepoError: not a repository, or uncommitted changes (listing a few of them).
    """
    repo = _open_repo(repo_root)
    top = Path(str(repo.working_tree_dir)).resolve()
    rels = [_relpath(top, p) for p in paths] if paths else []
    with _git_failure("git status", top):
        status = _git(top, "status", "--porcelain", "--untracked-files=no", "--", *rels)
    changed = [line[3:] for line in status.splitlines() if line.strip()]
    if changed:
        more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
        shown = ", ".join(changed[:5]) + more
        raise RepoError(
            f"work tree has uncommitted changes: {shown}", path=top, hint="commit or stash them"
        )
