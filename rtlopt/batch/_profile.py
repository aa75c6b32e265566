"""The modules of a batch taken from a profile: the profile's ranking, modules that cannot be
evaluated skipped with the reason."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rtlopt.errors import UsageError
from rtlopt.profile import Profile
from rtlopt.profile._suggest import rank


@dataclass(frozen=True)
class Skip:
    """A module the batch does not optimize, and why."""

    module: str
    reason: str
    file: str = ""


def find_profile(start: Path, runs_dir: str = ".rtlopt/runs") -> Path:
    """The newest ``profile.json`` that ``rtlopt profile`` wrote in the repository of ``start``.

    Raises:
        UsageError: no profile yet.
    """
    from rtlopt.frontend import find_repo_root

    root = find_repo_root(start)
    runs = Path(runs_dir) if Path(runs_dir).is_absolute() else root / runs_dir
    found = sorted(
        (runs / "profile").glob("*/profile.json"), key=lambda p: p.stat().st_mtime, reverse=True
    )
    if not found:
        raise UsageError(
            f"no profile under {runs / 'profile'}",
            hint="run `rtlopt profile` first, or pass --profile FILE",
        )
    return found[0]


def read_profile(path: Path) -> Profile:
    """A profile written by ``rtlopt profile`` (its ``profile.json``).

    Raises:
        UsageError: not a profile.
    """
    try:
        return Profile.from_json(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(
            f"not a profile: {exc}", path=path, hint="pass the profile.json of rtlopt profile"
        ) from None


def targets_from_profile(
    prof: Profile, count: int, root: Path | None = None
) -> tuple[list[tuple[Path, str]], list[Skip]]:
    """The first ``count`` modules of the profile's ranking that rtlopt can evaluate, as
    (file, module), and the modules ranked before the last one taken that it cannot (with the
    profile's reason)."""
    if count < 1:
        raise UsageError(f"--from-profile {count}: expected a count of at least 1")
    take: list[tuple[Path, str]] = []
    skips: list[Skip] = []
    for m in rank(prof):
        if len(take) >= count:
            break
        if not m.evaluable or not m.file:
            skips.append(Skip(m.name, m.why_not or "its file is not known", m.file))
            continue
        path = Path(m.file)
        if not path.is_absolute() and root is not None:
            path = root / path
        if not path.is_file():
            skips.append(Skip(m.name, f"its file {m.file} is gone", m.file))
            continue
        take.append((path, m.name))
    return take, skips
