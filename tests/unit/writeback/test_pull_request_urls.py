"""Where a pull request is opened by hand: the compare page of GitHub and GitLab remotes."""

from __future__ import annotations

import pytest

from rtlopt.writeback._pr import _gh_repo, compare_url


@pytest.mark.parametrize(
    ("url", "page"),
    [
        (
            "git@github.com:acme/cpu.git",
            "https://github.com/acme/cpu/compare/main...rtlopt/alu/r1?expand=1",
        ),
        (
            "https://github.com/acme/cpu",
            "https://github.com/acme/cpu/compare/main...rtlopt/alu/r1?expand=1",
        ),
        (
            "https://x-access-token:abc@github.com/acme/cpu.git/",
            "https://github.com/acme/cpu/compare/main...rtlopt/alu/r1?expand=1",
        ),
        (
            "ssh://git@github.example.com:2222/hw/cpu.git",
            "https://github.example.com/hw/cpu/compare/main...rtlopt/alu/r1?expand=1",
        ),
        (
            "git@gitlab.com:group/sub/cpu.git",
            "https://gitlab.com/group/sub/cpu/-/merge_requests/new?"
            "merge_request%5Bsource_branch%5D=rtlopt%2Falu%2Fr1&merge_request%5Btarget_branch%5D=main",
        ),
        ("/srv/git/cpu.git", None),
        ("file:///srv/git/cpu.git", None),
        ("https://bitbucket.org/acme/cpu.git", None),
    ],
)
def test_compare_page(url: str, page: str | None) -> None:
    assert compare_url(url, "main", "rtlopt/alu/r1") == page


def test_gh_repo_argument() -> None:
    assert _gh_repo("git@github.com:acme/cpu.git") == "acme/cpu"
    assert _gh_repo("https://github.example.com/hw/cpu") == "github.example.com/hw/cpu"
    assert _gh_repo("git@gitlab.com:group/cpu.git") is None
    assert _gh_repo("../remote.git") is None
