"""An enum parameter's members are probed (``frontend/_enum_params.py``): a change wrong only
under a member no instance uses is refuted there, and the repository's own module evaluates
against itself (an enum value was written back as an int: exit 2; a probe that left the enum
unset: an internal error)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, run_rtlopt

from tests.enum_design import PKG, TOP, leaf

pytestmark = [pytest.mark.tools, pytest.mark.slow]  # two evaluations with probes, ~15 s each

LEAF = leaf()
TOML = '[project]\nfilelists = ["files.f"]\nexclude = ["cand/**"]\n'


def _evaluate(tmp_path: Path, mp: pytest.MonkeyPatch, cand: str) -> tuple[int, dict[str, object]]:
    files = {
        "rtlopt.toml": TOML,
        "rtl/mode_pkg.sv": PKG,
        "rtl/leaf.sv": LEAF,
        "rtl/top.sv": TOP,
        "files.f": "rtl/mode_pkg.sv\nrtl/leaf.sv\nrtl/top.sv\n",
    }
    repo = committed_repo(tmp_path / "repo", files, mp, tmp_path / "cache")
    (repo / "cand").mkdir()
    (repo / "cand" / "c.sv").write_text(cand)
    r = run_rtlopt(
        repo, "evaluate", "rtl/leaf.sv", "--candidate", "cand/c.sv", "--pdk", "nangate45", "--json"
    )
    assert r.returncode in (0, 1), r.stderr[-800:]
    out = json.loads(r.stdout)
    return r.returncode, out


def test_a_change_right_under_every_member_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # equivalent under every member; 1 is no member, so no probe may set it (was refuted
    # under a made-up MODE=1)
    cand = LEAF.replace("assign y = ~a;", "assign y = a ^ 4'hf;").replace(
        "end else begin : g_other",
        "end else if (MODE == mode_e'(1)) begin : g_one\n    assign y = a + 4'd1;\n"
        "  end else begin : g_other",
    )
    rc, out = _evaluate(tmp_path, monkeypatch, cand)
    assert rc == 0 and out["accepted"], out["candidate"]


def test_a_change_wrong_only_under_an_unused_member_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = LEAF.replace(
        "end else begin : g_other",
        "end else if (MODE == ModeNone) begin : g_none\n    assign y = a + 4'd1;\n"
        "  end else begin : g_other",
    )
    rc, out = _evaluate(tmp_path, monkeypatch, cand)
    assert rc == 1 and not out["accepted"], out
    assert "MODE=0" in str(out["candidate"]), out["candidate"]
