"""Choosing a batch's modules from a profile, and the batch report's rows (no tools)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.batch import read_profile, targets_from_profile
from rtlopt.errors import UsageError
from rtlopt.profile import CLAIM, ContextResult, ModuleGain, ModuleProfile, Profile
from rtlopt.report import ModuleRow, multi_pr_body, multi_report
from rtlopt.results import PPA


def _mod(name: str, share: float, file: str, *, ok: bool = True, why: str = "") -> ModuleProfile:
    return ModuleProfile(
        name, (name,), 1, 10, share * 1000, share * 1000, share, file=file, evaluable=ok,
        why_not=why,
    )  # fmt: skip


def _profile(tmp_path: Path) -> Profile:
    for n in ("alu", "fifo", "regs"):
        (tmp_path / f"{n}.v").write_text(f"module {n}; endmodule\n")
    mods = (
        _mod("ram", 0.5, str(tmp_path / "ram.v"), ok=False, why="memory macro (blackbox)"),
        _mod("alu", 0.3, str(tmp_path / "alu.v")),
        _mod("gone", 0.1, str(tmp_path / "gone.v")),
        _mod("fifo", 0.05, str(tmp_path / "fifo.v")),
        _mod("regs", 0.01, str(tmp_path / "regs.v")),
    )
    return Profile("top", 1000.0, 1000.0, 1.0, 2.0, mods, ())


def test_from_profile_takes_the_ranking_and_skips_with_the_reason(tmp_path: Path) -> None:
    take, skips = targets_from_profile(_profile(tmp_path), 2)
    assert [m for _, m in take] == ["alu", "fifo"]
    assert take[0][0] == tmp_path / "alu.v"
    assert [(s.module, s.reason) for s in skips] == [
        ("ram", "memory macro (blackbox)"),
        ("gone", f"its file {tmp_path / 'gone.v'} is gone"),
    ]
    take, skips = targets_from_profile(_profile(tmp_path), 9)  # fewer evaluable than asked
    assert [m for _, m in take] == ["alu", "fifo", "regs"]
    with pytest.raises(UsageError):
        targets_from_profile(_profile(tmp_path), 0)


def test_a_profile_file_reads_back_and_a_bad_one_is_a_usage_error(tmp_path: Path) -> None:
    import json

    prof = _profile(tmp_path)
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(prof.to_json()))
    assert read_profile(path).module("alu").area_share == pytest.approx(0.3)
    path.write_text("{}")
    with pytest.raises(UsageError, match="not a profile"):
        read_profile(path)


def _ppa(area: float, delay: float = 100.0) -> PPA:
    return PPA(area_um2=area, delay_ps=delay, power_uw=1.0)


def test_batch_report_has_a_row_per_module_and_says_what_vanishes() -> None:
    rows = [
        ModuleRow("a", "rtl/a.v", "improved", before=_ppa(100), after=_ppa(80), commit="abc" * 5),
        ModuleRow("b", "rtl/b.v", "no improvement", before=_ppa(50)),
        ModuleRow("c", "rtl/c.v", "skipped", reason="memory macro"),
    ]
    ctx = ContextResult("top", _ppa(300), _ppa(300), (ModuleGain("a", _ppa(100), _ppa(80)),))
    text = multi_report(rows, ctx, run_id="r1", branches=("rtlopt/multi/r1",))
    table = [line for line in text.splitlines() if line.startswith("| `")]
    assert [line.split("|")[1].strip() for line in table[:3]] == ["`a`", "`b`", "`c`"]
    assert "100 -> 80 (-20.0%)" in table[0] and "skipped: memory macro" in table[2]
    assert "the 20% smaller module is 0% smaller in the flattened top" in text
    assert "The gain of `a` vanishes in context" in text and CLAIM in text
    body = multi_pr_body(rows, ctx, "r1")
    assert "1 module(s) rewritten (`a`)" in body and "vanishes in context" in body
    # without the top: no in-context section, the equivalence argument still stated
    plain = multi_report(rows, None, run_id="r1", context_error="no module improved")
    assert "In context: not measured (no module improved)" in plain and CLAIM in plain
