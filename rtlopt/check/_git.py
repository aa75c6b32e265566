"""Git plumbing for `rtlopt check`: changed files and trees at a base revision."""

from __future__ import annotations

import io
import os
import posixpath
import shutil
import tarfile
from pathlib import Path

import git

from rtlopt.errors import RepoError

VERILOG_SUFFIXES = (".v", ".sv", ".vh", ".svh")


def open_repo(path: Path) -> tuple[git.Repo, Path]:
    try:
        repo = git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise RepoError(
            "not inside a git repository", path=path, hint="run rtlopt check from your repository"
        ) from None
    top = Path(repo.working_tree_dir or path).resolve()
    return repo, top


def resolve_base(repo: git.Repo, base: str | None) -> str:
    """The commit to compare against: HEAD (pre-commit) or the merge base with ``base``."""
    try:
        if base is None:
            return repo.head.commit.hexsha
        return str(repo.git.merge_base(base, "HEAD")).strip()
    except (git.GitCommandError, ValueError) as exc:
        what = base or "HEAD"
        raise RepoError(
            f"cannot resolve base revision '{what}': {str(exc).splitlines()[-1][:120]}",
            hint="fetch it first (git fetch origin main) or pass --base REF",
        ) from None


def changed_files(repo: git.Repo, base: str, *, staged: bool) -> list[str]:
    """Verilog files that differ between ``base`` and the index (staged) or the work tree."""
    args = ["--cached"] if staged else []
    # -z: names as they are (without it git quotes a name with a non-ASCII character,
    # "m\303\263dulo.v", and the quoted name matches no suffix and no file)
    # T: a file that became a symlink (or stopped being one) changes what the tools read
    out = repo.git.diff(*args, "-z", "--name-only", "--diff-filter=AMRT", base, "--")
    return [f for f in out.split("\0") if f.endswith(VERILOG_SUFFIXES)]


def all_changes(repo: git.Repo, base: str, *, staged: bool) -> dict[str, str]:
    """Every path that differs between ``base`` and the index (staged) or the work tree, of
    any kind (headers, filelists, configuration; deleted files too): path -> git's status
    letter. Untracked files git does not ignore count as added."""
    args = ["--cached"] if staged else []
    out = repo.git.diff(*args, "-z", "--name-status", "--no-renames", base, "--")
    fields = out.split("\0")
    changes: dict[str, str] = {}
    for i in range(0, len(fields) - 1, 2):
        if fields[i]:
            changes[fields[i + 1]] = fields[i][0]
    for rel in repo.git.ls_files("-z", "--others", "--exclude-standard").split("\0"):
        if rel:
            changes.setdefault(rel, "A")
    return changes


def range_commits(repo: git.Repo, base: str) -> list[tuple[str, str, list[str]]]:
    """The commits from ``base`` (excluded) to HEAD: (sha, message, files it changed)."""
    # one git call however long the range (a branch far ahead of its upstream): each commit
    # is "\x1e<sha>\x1f<message>\x1f" and then its files, NUL-separated
    text = str(
        repo.git.log(
            "-z",
            "--no-renames",
            "--name-only",
            "--format=%x1e%H%x1f%B%x1f",
            f"{base}..HEAD",
            strip_newline_in_stdout=False,
        )
    )
    out = []
    for chunk in text.split("\x1e")[1:]:
        sha, message, rest = chunk.split("\x1f", 2)
        files = [f.strip("\n") for f in rest.split("\0") if f.strip("\n")]
        out.append((sha, message, files))
    return out


def upstream_merge_base(repo: git.Repo) -> tuple[str, str] | None:
    """The merge base of HEAD with the branch's upstream (else the remote's default branch,
    ``origin/HEAD``): ``(its sha, the upstream's name)``; None when there is neither."""
    for ref in ("@{upstream}", "origin/HEAD"):
        try:
            name = str(repo.git.rev_parse("--abbrev-ref", "--symbolic-full-name", ref)).strip()
            sha = str(repo.git.merge_base(name, "HEAD")).strip()
        except git.GitCommandError:
            continue
        if name and sha:
            return sha, name
    return None


def message_file_text(path: Path) -> str:
    """A commit message being written (git's ``commit-msg`` hook argument) as git will store
    it: comment lines and everything below the scissors line of ``commit -v`` dropped."""
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise RepoError(
            f"cannot read the commit message file: {exc.strerror}",
            path=path,
            hint="pass the file git gives the commit-msg hook (.git/COMMIT_EDITMSG)",
        ) from None
    lines = []
    for line in text.splitlines():
        if line.startswith("# ") and ">8" in line:
            break
        if not line.startswith("#"):
            lines.append(line)
    return "\n".join(lines).strip() + "\n"


def renamed_files(repo: git.Repo, base: str, *, staged: bool) -> dict[str, str]:
    """Files git sees as renamed between ``base`` and the index (staged) or the work tree:
    new path -> old path."""
    args = ["--cached"] if staged else []
    out = repo.git.diff(*args, "-z", "--name-status", "-M", "--diff-filter=R", base, "--")
    fields = out.split("\0")
    renames: dict[str, str] = {}
    for i in range(0, len(fields) - 2, 3):  # status, old path, new path
        if fields[i].startswith("R"):
            renames[fields[i + 2]] = fields[i + 1]
    return renames


def new_content(repo: git.Repo, top: Path, rel: str, *, staged: bool) -> str | None:
    """A file's content in the index (staged) or the work tree; None when absent."""
    if staged:
        try:
            return str(repo.git.show(f":{rel}"))
        except git.GitCommandError:
            return None
    p = top / rel
    return p.read_text(errors="replace") if p.exists() else None


def base_content(repo: git.Repo, base: str, rel: str) -> str | None:
    """A file's content at ``base`` (a symlink's: its target's, as the tools read it); None
    when the file does not exist there."""
    for _hop in range(8):
        try:
            text = str(repo.git.show(f"{base}:{rel}", strip_newline_in_stdout=False))
            mode = str(repo.git.ls_tree(base, "--", rel)).split(" ", 1)[0]
        except git.GitCommandError:
            return None
        if mode != "120000":
            return text
        target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), text.strip()))
        if posixpath.isabs(target) or target.startswith("../"):
            # outside the repository: not versioned, so its base version is what is there now
            p = Path(repo.working_tree_dir or ".") / rel
            return p.read_text(errors="replace") if p.exists() else None
        rel = target
    return None


def context_tree(repo: git.Repo, top: Path, dest: Path, *, staged: bool) -> Path:
    """The repository as ``rtlopt evaluate`` would see it after the change, in ``dest``.

    Tracked files come from the index (staged: what the commit will hold) or the work tree;
    untracked files that git does not ignore (a filelist or ``rtlopt.toml`` not yet committed)
    come from the work tree. Symlinks stay symlinks. ``.git`` is not copied.
    """
    dest.mkdir(parents=True, exist_ok=True)
    if staged:
        repo.git.checkout_index("--all", f"--prefix={dest.as_posix()}/")
        names = repo.git.ls_files("-z", "--others", "--exclude-standard").split("\0")
    else:
        names = repo.git.ls_files("-z", "--cached", "--others", "--exclude-standard").split("\0")
    for rel in names:
        if not rel:
            continue
        src, out = top / rel, dest / rel
        if not os.path.lexists(src) or os.path.lexists(out):
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), out)
        elif src.is_file():  # regular files only: a FIFO is never opened
            shutil.copyfile(src, out)
    return dest


def export_tree(repo: git.Repo, rev: str, dest: Path) -> Path:
    """Write the tree of ``rev`` into ``dest`` (like ``git archive | tar -x``)."""
    buf = io.BytesIO()
    repo.git.archive(rev, format="tar", output_stream=buf)
    buf.seek(0)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=buf) as tar:
        tar.extractall(dest, filter="data")
    return dest
