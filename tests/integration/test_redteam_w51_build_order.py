"""Red team round 51 (held out): the walk for x judged a definition of a module the build
never compiles, so the x the build's definition ties into the target went unseen and a
candidate reading x otherwise than the reference was accepted on the 0/1 proofs alone.

* ``library``: ``-y lib`` with ``+libext+.v``; the build loads ``lib/mid.v`` for ``mid``
  (``b`` tied to ``1'bx``), rtlopt took a stale ``lib/aaa.v`` (``b`` = ``en``) that sorts
  first (FA-9).
* ``include``: ``top.v`` includes ``mid_impl.vh`` (``b`` = ``1'bx``); rtlopt took a stale
  ``mid.v`` outside the filelist (FA-10).

The reference takes ``else`` on ``b`` = x (``y`` = 0); the candidate takes its ``else`` too
(``y`` = ``a``): equal on 0/1, not in a simulation of ``top``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo
from test_redteam_w41_x_sources import IF_B, NOT_B
from test_xfaith import CONFIG, _evaluate

pytestmark = pytest.mark.tools

MID_X = "module mid(input a, input en, output y);\n  m u(.a(a), .b(1'bx), .y(y));\nendmodule\n"
MID_OK = "module mid(input a, input en, output y);\n  m u(.a(a), .b(en), .y(y));\nendmodule\n"
TOP = "module top(input a, input en, output y);\n  mid u0(.a(a), .en(en), .y(y));\nendmodule\n"
FORMS: dict[str, dict[str, str]] = {
    "library": {
        "top.v": TOP,
        "lib/mid.v": MID_X,
        "lib/aaa.v": MID_OK,
        "files.f": "top.v\nm.v\n-y lib\n+libext+.v\n",
    },
    "include": {
        "top.v": f'`include "mid_impl.vh"\n{TOP}',
        "inc/mid_impl.vh": MID_X,
        "mid.v": MID_OK,
        "files.f": "+incdir+inc\ntop.v\nm.v\n",
    },
}
#: Round 53: the header the target's file includes defines ``mid`` behind a guard that the
#: listed-first ``mid.v`` (ties b to x) defines: the build compiles ``mid.v``'s.
GUARD = "`ifndef MID_DONE\n`define MID_DONE\n{}`endif\n"
GUARDED = {
    "top.v": TOP,
    "mid.v": GUARD.format(MID_X),
    "inc/mid_impl.vh": GUARD.format(MID_OK),
    "files.f": "+incdir+inc\nmid.v\ntop.v\nm.v\n",
}


@pytest.mark.parametrize("form", list(FORMS))
def test_the_builds_definition_of_a_parent_is_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    files = {
        "rtlopt.toml": f'{CONFIG}[project]\nfilelists = ["files.f"]\n',
        "m.v": IF_B,
        **FORMS[form],
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    out = _evaluate(tmp_path, repo, NOT_B)
    reason = str(out["reason"])
    if form == "library":  # two definitions of mid while a build reads a library: a decoy
        assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
        assert "module mid is defined otherwise in" in reason and "lib/mid.v" in reason, reason
        return
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "not where the repository feeds x into b" in reason and "b=x" in reason, reason
    where = "inc/mid_impl.vh"
    assert "ties input 'b' to 1'bx" in reason and where in reason, reason


def test_a_guarded_header_beside_an_earlier_definition_is_not_walked_as_the_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "rtlopt.toml": f'{CONFIG}[project]\nfilelists = ["files.f"]\n',
        "m.v": f'`include "mid_impl.vh"\n{IF_B}',
        **GUARDED,
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    out = _evaluate(tmp_path, repo, NOT_B)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
    assert "through a header" in reason and "cannot be told" in reason, reason
