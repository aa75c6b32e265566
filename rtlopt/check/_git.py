"""Git plumbing for `rtlopt check`: changed files and trees at a base revision."""

from __future__ import annotations

import os
import posixpath
import shutil
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


def unstaged_files(repo: git.Repo) -> list[str]:
    """Verilog files the work tree changes against the index (edited, not staged)."""
    out = repo.git.diff("-z", "--name-only", "--diff-filter=AMRT", "--")
    return [f for f in out.split("\0") if f.endswith(VERILOG_SUFFIXES)]


def all_changes(repo: git.Repo, base: str, *, staged: bool) -> dict[str, str]:
    """Every path that differs between ``base`` and the index (staged) or the work tree, of
    any kind (headers, filelists, configuration; deleted files too): path -> git's status
    letter. In the work tree, untracked files git does not ignore count as added; the index
    (what the commit holds) has none (:func:`untracked_files`)."""
    args = ["--cached"] if staged else []
    # every submodule bump, whatever .gitmodules' `ignore` says (a commit can set it to all)
    out = repo.git.diff(
        *args, "-z", "--name-status", "--no-renames", "--ignore-submodules=none", base, "--"
    )
    fields = out.split("\0")
    changes: dict[str, str] = {}
    for i in range(0, len(fields) - 1, 2):
        if fields[i]:
            changes[fields[i + 1]] = fields[i][0]
    for rel in [] if staged else untracked_files(repo):
        changes.setdefault(rel, "A")
    return changes


def mode_changes(repo: git.Repo, base: str, *, staged: bool) -> dict[str, tuple[str, str]]:
    """Files whose git mode differs between ``base`` and the index (staged) or the work tree,
    both regular files (``100644`` <-> ``100755``: made executable or not): path -> (mode at
    the base, mode after the change). A build may test it (``[ -x gen.sh ]``) or run the
    file. A type change (git's ``T``: a file to a link or back) is in :func:`all_changes`;
    a submodule's, the submodules' rules'."""
    args = ["--cached"] if staged else []
    out = repo.git.diff(*args, "-z", "--raw", "--no-renames", base, "--")
    fields = out.split("\0")
    found: dict[str, tuple[str, str]] = {}
    for i in range(0, len(fields) - 1, 2):
        meta = fields[i].lstrip(":").split()
        if len(meta) >= 2 and meta[0] != meta[1] and {meta[0], meta[1]} <= _REGULAR:
            found[fields[i + 1]] = (meta[0], meta[1])
    return found


_REGULAR = {"100644", "100755"}


def untracked_files(repo: git.Repo) -> list[str]:
    """Files of the work tree that git neither tracks nor ignores."""
    out = str(repo.git.ls_files("-z", "--others", "--exclude-standard"))
    return [rel for rel in out.split("\0") if rel]


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


def work_tree_content(top: Path, rel: str) -> str | None:
    """A file's content in the work tree (an edit not staged yet); None when absent. What the
    change holds otherwise is read from its checkout (:func:`context_tree`)."""
    p = top / rel
    return p.read_text(errors="replace") if p.exists() else None


def base_content(repo: git.Repo, base: str, rel: str, tree: Path | None = None) -> str | None:
    """A file's content at ``base`` (a symlink's: its target's, as the tools read it); None
    when the file does not exist there. ``tree``: the base's checkout, where the file (the
    symlink's target) is read as a checkout converts it."""
    for _hop in range(8):
        try:
            text = str(repo.git.show(f"{base}:{rel}", strip_newline_in_stdout=False))
            mode = str(repo.git.ls_tree(base, "--", rel)).split(" ", 1)[0]
        except git.GitCommandError:
            return None
        if mode != "120000":
            found = tree / rel if tree is not None else None
            if found is not None and found.is_file() and not found.is_symlink():
                return found.read_text(errors="replace")
            return text
        target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), text.strip()))
        if posixpath.isabs(target) or target.startswith("../"):
            # outside the repository: not versioned, so its base version is what is there now
            p = Path(repo.working_tree_dir or ".") / rel
            return p.read_text(errors="replace") if p.exists() else None
        rel = target
    return None


def checkout_tree(repo: git.Repo, dest: Path, rev: str | None = None) -> Path:
    """What a fresh checkout of ``rev`` (None: of the index) writes, in ``dest``: every file
    converted by that side's own ``.gitattributes`` (``ident``, ``eol``, ``text``, filters,
    ``working-tree-encoding``), as a build reads it. ``dest`` is the checkout's work tree and
    a temporary index holding the tree (the index's: :func:`staged_tree`) its index, so
    neither the user's work tree nor its attributes take part (``checkout-index --prefix``
    would read the work tree's ``.gitattributes``, ``git archive`` applies ``export-ignore``
    / ``export-subst`` and ``git show`` converts nothing). Submodules (gitlinks) are left
    empty folders."""
    dest.mkdir(parents=True, exist_ok=True)
    index = dest.parent / f".{dest.name}.index"
    env = {"GIT_DIR": repo.git_dir, "GIT_INDEX_FILE": str(index), "GIT_WORK_TREE": str(dest)}
    # the index is the one every other git call of the gate reads: GIT_INDEX_FILE, which
    # git sets for a hook (`git commit -a` or `git commit PATHS` stage the commit in a
    # temporary index, not `.git/index`), resolved by git itself
    repo.git.read_tree(staged_tree(repo) if rev is None else rev, env=env)
    try:
        repo.git.checkout_index("--all", "--force", env=env)
    finally:
        index.unlink(missing_ok=True)
    return dest


def staged_tree(repo: git.Repo) -> str:
    """The tree the index holds (``git write-tree`` under this process's environment, so of
    the index ``GIT_INDEX_FILE`` names where it is set: the one a commit being made records
    and ``git diff --cached`` compares)."""
    try:
        return str(repo.git.write_tree()).strip()
    except git.GitCommandError as exc:
        raise RepoError(
            f"cannot read the index: {str(exc).strip().splitlines()[-1][:160]}",
            hint="resolve the conflicts (git status) and check again",
        ) from None


def context_tree(repo: git.Repo, top: Path, dest: Path, *, staged: bool) -> Path:
    """The repository as ``rtlopt evaluate`` would see it after the change, in ``dest``.

    Tracked files come from a checkout of the index (:func:`checkout_tree`: what the commit
    will hold, converted as a checkout of it reads it). ``staged`` (a commit being made): that
    is all; an untracked file the commit does not hold takes no part (the gate names the ones
    the design may read: :func:`rtlopt.check._reads.untracked_findings`). Otherwise (the work
    tree): the files the work tree changes against the index are taken from the work tree
    (and those it deleted are removed), and so are untracked files that git does not ignore.
    Symlinks stay symlinks. ``.git`` is not copied.
    """
    checkout_tree(repo, dest)
    if staged:
        return dest
    names = untracked_files(repo)
    out = repo.git.diff("-z", "--name-only", "--no-renames", "--")
    names += [n for n in out.split("\0") if n]
    for rel in names:
        if not rel:
            continue
        src, out_path = top / rel, dest / rel
        if not os.path.lexists(src):
            if os.path.lexists(out_path) and not out_path.is_dir():
                out_path.unlink()  # deleted in the work tree
            continue
        if os.path.lexists(out_path):
            if out_path.is_dir() and not out_path.is_symlink():
                continue  # a submodule's folder
            out_path.unlink()
        out_path.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), out_path)
        elif src.is_file():  # regular files only: a FIFO is never opened
            shutil.copyfile(src, out_path)
    return dest


def export_tree(repo: git.Repo, rev: str, dest: Path) -> Path:
    """Write the tree of ``rev`` into ``dest`` as a checkout of it reads it
    (:func:`checkout_tree`)."""
    return checkout_tree(repo, dest, rev)


def gitlinks(repo: git.Repo, base: str, *, staged: bool) -> dict[str, tuple[str, str]]:
    """Submodules (gitlinks, mode 160000) the change adds, moves to another commit, removes or
    turns into (or out of) a folder: path -> (commit at the base, commit after the change),
    ``""`` where there is none."""
    args = ["--cached"] if staged else []
    out = repo.git.diff(
        *args, "-z", "--raw", "--no-renames", "--abbrev=40", "--ignore-submodules=none", base, "--"
    )
    fields = out.split("\0")
    links: dict[str, tuple[str, str]] = {}
    for i in range(0, len(fields) - 1, 2):
        meta = fields[i].lstrip(":").split()
        if len(meta) < 4 or "160000" not in meta[:2]:
            continue
        old = meta[2] if meta[0] == "160000" else ""
        new = meta[3] if meta[1] == "160000" else ""
        links[fields[i + 1]] = (old.strip("0") and old, new.strip("0") and new)
    return links


def gitlinks_at(repo: git.Repo, rev: str | None) -> dict[str, str]:
    """The submodules of ``rev`` (None: of the index): path -> the commit it records."""
    if rev is None:
        out = str(repo.git.ls_files("-z", "--stage"))
        rows = [r.split("\t", 1) for r in out.split("\0") if r.startswith("160000 ")]
        return {path: meta.split()[1] for meta, path in rows}
    out = str(repo.git.ls_tree("-r", "-z", rev))
    rows = [r.split("\t", 1) for r in out.split("\0") if r.startswith("160000 ")]
    return {path: meta.split()[2] for meta, path in rows}


def submodule_repo(top: Path, rel: str) -> git.Repo:
    """A submodule's own repository, its git calls on its own git folder, work tree and index:
    a hook inherits the superproject's ``GIT_INDEX_FILE`` (and, in a linked work tree,
    ``GIT_DIR``), which would otherwise be read as the submodule's."""
    sub = git.Repo(top / rel)
    sub.git.update_environment(
        GIT_DIR=str(sub.git_dir),
        GIT_WORK_TREE=str(sub.working_tree_dir or top / rel),
        GIT_INDEX_FILE=str(Path(sub.git_dir) / "index"),
    )
    return sub


def submodule_head(top: Path, rel: str) -> tuple[str, bool] | None:
    """The commit a submodule's work tree has checked out and whether it has changes of its
    own (tracked files edited); None when it is not checked out."""
    if not (top / rel / ".git").exists():
        return None
    try:
        sub = submodule_repo(top, rel)
        dirty = bool(str(sub.git.status("--porcelain", "--untracked-files=no")).strip())
        return sub.head.commit.hexsha, dirty
    except (git.GitCommandError, git.InvalidGitRepositoryError, ValueError):
        return None


def fill_submodules(top: Path, dest: Path, links: dict[str, str]) -> dict[str, str]:
    """Write each submodule of ``links`` (path -> commit) into ``dest`` as a checkout of that
    commit from the submodule's own repository in the work tree (:func:`checkout_tree`).
    Returns the ones that could not be written: path -> why."""
    missing: dict[str, str] = {}
    for rel, sha in sorted(links.items()):
        if not (top / rel / ".git").exists():
            missing[rel] = "it is not checked out (git submodule update --init)"
            continue
        try:
            sub = submodule_repo(top, rel)
            sub.git.cat_file("-e", f"{sha}^{{commit}}")
        except (git.GitCommandError, git.InvalidGitRepositoryError):
            missing[rel] = f"its commit {sha[:10]} is not in its repository (git -C {rel} fetch)"
            continue
        (dest / rel).mkdir(parents=True, exist_ok=True)
        checkout_tree(sub, dest / rel, sha)
    return missing


def submodule_diff(
    top: Path, rel: str, old: str, new: str, modes: dict[str, tuple[str, str]] | None = None
) -> dict[str, str]:
    """The paths that differ between two commits of a submodule, as paths of the repository
    (``rel/...``): path -> git's status letter (``G`` for a nested submodule). ``modes``
    receives the files whose mode changed (:func:`mode_changes`)."""
    sub = submodule_repo(top, rel)
    out = str(sub.git.diff("-z", "--raw", "--no-renames", "--ignore-submodules=none", old, new))
    fields = out.split("\0")
    changes: dict[str, str] = {}
    for i in range(0, len(fields) - 1, 2):
        meta = fields[i].lstrip(":").split()
        if len(meta) >= 5:
            nested = "160000" in meta[:2]
            changes[f"{rel}/{fields[i + 1]}"] = "G" if nested else meta[4][0]
            if modes is not None and meta[0] != meta[1] and {meta[0], meta[1]} <= _REGULAR:
                modes[f"{rel}/{fields[i + 1]}"] = (meta[0], meta[1])
    return changes
