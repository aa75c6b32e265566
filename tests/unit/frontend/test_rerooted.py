"""``rerooted``: a path into the work tree is read in each of rtlopt check's checkouts,
compared as the kernel reads it (a symlink to the repository, ``//``, ``..``), never as
spelled; a way in that cannot be rerooted fails closed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rtlopt.errors import ConfigError
from rtlopt.frontend._sources import register_checkouts, rerooted, unregister_checkouts


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    repo = tmp_path / "repo"
    (repo / "inc").mkdir(parents=True)
    (repo / "rtl").mkdir()
    (repo / "rtl" / "hdrs").symlink_to("../inc")
    gate = tmp_path / "gate"
    base = gate / "base"
    (base / "inc").mkdir(parents=True)
    (gate / "new" / "inc").mkdir(parents=True)
    register_checkouts(gate, repo)
    yield repo, base
    unregister_checkouts(gate)


def test_every_spelling_of_the_work_tree_is_rerooted(setup: tuple[Path, Path]) -> None:
    repo, base = setup
    (repo.parent / "lnk").symlink_to(repo)
    (repo.parent / "inc_link").symlink_to(repo / "inc")
    (repo.parent / "hdrs_link").symlink_to(repo / "rtl" / "hdrs")
    assert rerooted(repo / "inc", base) == base / "inc"  # as before
    assert rerooted(repo.parent / "lnk" / "inc", base) == base / "inc"
    assert rerooted(Path("/" + str(repo / "inc")), base) == base / "inc"  # `//tmp/...`
    assert rerooted(repo / "rtl" / ".." / "inc", base) == base / "rtl" / ".." / "inc"
    assert rerooted(repo.parent / "inc_link", base) == base / "inc"
    # a symlink of the repository stays in the path: the checkout follows its own
    assert rerooted(repo.parent / "hdrs_link", base) == base / "rtl" / "hdrs"
    up = Path(*[".."] * len(base.parts))  # from the checkout up to / and down again
    assert rerooted(base / up / repo.relative_to("/") / "inc", base) == base / "inc"


def test_other_paths_are_themselves(setup: tuple[Path, Path]) -> None:
    repo, base = setup
    other = repo.parent / "ip" / "inc"
    other.mkdir(parents=True)
    assert rerooted(other, base) == other
    assert rerooted(repo / ".." / "ip" / "inc", base) == repo / ".." / "ip" / "inc"
    assert rerooted(base / "rtl" / "x.v", base) == base / "rtl" / "x.v"


def test_a_way_into_another_checkout_fails_closed(setup: tuple[Path, Path]) -> None:
    _, base = setup
    with pytest.raises(ConfigError, match="another checkout"):
        rerooted(base / ".." / "new" / "inc", base)
