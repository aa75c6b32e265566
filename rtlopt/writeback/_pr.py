"""The pull-request step: open a pull request from a pushed result branch, or say how.

With ``gh`` (GitHub's command line) on PATH, :func:`open_pull_request` runs
``gh pr create --head BRANCH --base BASE --title TITLE --body-file PR_BODY`` in the repository;
without it, the same command and, for GitHub and GitLab remotes, the web page that opens one
(:func:`compare_url`) are returned for the user to run or click.
"""

from __future__ import annotations

import logging
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import git

from rtlopt.errors import RepoError

__all__ = ["PullRequest", "compare_url", "open_pull_request", "remote_url"]

log = logging.getLogger(__name__)

# git@host:owner/repo(.git), ssh://git@host[:port]/owner/repo(.git), https://host/owner/repo(.git)
_SCP = re.compile(r"^(?:[\w.-]+@)?(?P<host>[\w.-]+):(?P<path>(?!/)[^\s]+?)(?:\.git)?/?$")
_URL = re.compile(
    r"^(?:https?|ssh|git)://(?:[^@/]+@)?(?P<host>[\w.-]+)(?::\d+)?/"
    r"(?P<path>[^\s]+?)(?:\.git)?/?$"
)


@dataclass(frozen=True)
class PullRequest:
    """What the pull-request step did or leaves to the user.

    Attributes:
        command: The ``gh pr create`` command line (run, or to run by hand).
        compare_url: The web page that opens the pull request (GitHub and GitLab remotes).
        url: The pull request's address, when ``gh`` opened it.
        error: Why ``gh`` failed, when it did (the branch stays pushed).
        log: ``gh``'s output, when it ran.
    """

    command: tuple[str, ...]
    compare_url: str | None = None
    url: str | None = None
    error: str | None = None
    log: Path | None = None

    @property
    def opened(self) -> bool:
        """Whether the pull request exists now."""
        return self.url is not None


def remote_url(repo_root: Path, remote: str) -> str:
    """The fetch URL of ``remote``.

    Raises:
        RepoError: no such remote (with the fix).
    """
    try:
        out = git.Git(str(repo_root)).execute(
            ["git", "remote", "get-url", remote], strip_newline_in_stdout=True
        )
    except git.GitCommandError:
        raise RepoError(
            f"git remote '{remote}' does not exist",
            path=repo_root,
            hint=f"git remote add {remote} URL, or pass --push REMOTE",
        ) from None
    return str(out).strip()


def _host_path(url: str) -> tuple[str, str] | None:
    for pattern in (_URL, _SCP):
        m = pattern.match(url.strip())
        if m and "/" in m.group("path"):
            return m.group("host").lower(), m.group("path")
    return None


def compare_url(url: str, base: str, branch: str) -> str | None:
    """The page that opens a pull (merge) request of ``branch`` into ``base``, for a GitHub or
    GitLab remote URL (``None`` for other hosts and local paths)."""
    found = _host_path(url)
    if found is None:
        return None
    host, path = found
    if "github" in host:
        return f"https://{host}/{path}/compare/{quote(base)}...{quote(branch)}?expand=1"
    if "gitlab" in host:
        return (
            f"https://{host}/{path}/-/merge_requests/new?"
            f"merge_request%5Bsource_branch%5D={quote(branch, safe='')}&"
            f"merge_request%5Btarget_branch%5D={quote(base, safe='')}"
        )
    return None


def _gh_repo(url: str) -> str | None:
    """``[HOST/]OWNER/REPO`` for gh's ``--repo`` (GitHub remotes only)."""
    found = _host_path(url)
    if found is None or "github" not in found[0]:
        return None
    host, path = found
    return path if host == "github.com" else f"{host}/{path}"


def open_pull_request(
    repo_root: Path,
    remote: str,
    *,
    branch: str,
    base: str,
    title: str,
    body_file: Path,
    workdir: Path,
    timeout: float = 120.0,
) -> PullRequest:
    """Open a pull request of ``branch`` (already pushed to ``remote``) into ``base``.

    Runs ``gh pr create`` when ``gh`` is installed; otherwise returns the command and the
    compare page for the user. A ``gh`` failure (not logged in, no permission) is returned in
    :attr:`PullRequest.error`, never raised: the branch is pushed and the run's results stand.

    Args:
        repo_root: The repository (gh finds the GitHub repository from its remotes).
        remote: The remote the branch was pushed to.
        branch: The pushed branch.
        base: The branch to merge into (the one the run started from).
        title: The pull request's title.
        body_file: Markdown file with its description (the run's ``pr_body.md``).
        workdir: Scratch folder for gh's log and temporary files.
        timeout: Seconds before gh is stopped.

    Raises:
        RepoError: ``remote`` does not exist.
    """
    url = remote_url(repo_root, remote)
    command = [
        "gh",
        "pr",
        "create",
        "--head",
        branch,
        "--base",
        base,
        "--title",
        title,
        "--body-file",
        str(body_file),
    ]
    repo = _gh_repo(url)
    if repo is not None:  # never let gh ask which remote is meant (no terminal in CI)
        command += ["--repo", repo]
    page = compare_url(url, base, branch)
    if shutil.which("gh") is None:
        log.info("gh is not installed; printing the pull-request command instead")
        return PullRequest(tuple(command), page)
    from rtlopt.tools import Limits, run_tool

    workdir.mkdir(parents=True, exist_ok=True)
    log_path = workdir / "gh-pr-create.log"
    run = run_tool(
        command,
        cwd=repo_root,
        log_path=log_path,
        limits=Limits(timeout),
        env={"TMPDIR": str(workdir), "GH_PROMPT_DISABLED": "1"},
        raise_on_timeout=False,
        sandbox=False,  # gh needs the network and the user's credentials; no candidate text
    )
    lines = [ln.strip() for ln in run.output().splitlines()[1:] if ln.strip()]
    if run.returncode != 0 or run.timed_out:
        why = "timed out" if run.timed_out else (lines[-1] if lines else f"exit {run.returncode}")
        return PullRequest(tuple(command), page, error=f"gh pr create failed: {why}", log=log_path)
    opened = next(
        (ln for ln in reversed(lines) if ln.startswith(("http://", "https://"))),
        lines[-1] if lines else "(gh printed no address)",
    )
    return PullRequest(tuple(command), page, url=opened, log=log_path)
