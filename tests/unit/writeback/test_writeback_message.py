"""commit_message: metrics, verdict, run id."""

from __future__ import annotations

from rtlopt.results import PPA
from rtlopt.writeback import commit_message, percent_change


def test_message_has_metrics_verdict_and_run() -> None:
    before = PPA(area_um2=1552.74, delay_ps=2191.1, power_uw=None, cells=300)
    after = PPA(area_um2=1200.0, delay_ps=2000.0, power_uw=None, cells=250)
    msg = commit_message(
        "ct_vfmau_lza_simd_half",
        before,
        after,
        verdict="proven",
        method="sat miter (combinational)",
        run_id="20240101-abc",
        metric="adp",
    )
    subject, _, body = msg.partition("\n\n")
    expected = (after.adp - before.adp) / before.adp * 100
    assert subject == f"rtlopt: optimize ct_vfmau_lza_simd_half (ADP {expected:+.2f}%)"
    assert "1552.74" in body and "1200" in body
    assert f"{(1200 - 1552.74) / 1552.74 * 100:+.2f}%" in body
    assert "Equivalence: proven (sat miter (combinational))" in body
    assert "Rtlopt-Run: 20240101-abc" in body
    assert "PPA (um^2*ps*uW)" not in body  # no power measured


def test_ppa_metric_with_power() -> None:
    before = PPA(10.0, 100.0, 2.0)
    after = PPA(8.0, 100.0, 1.0)
    msg = commit_message("m", before, after, verdict="unknown", method="", run_id="r", metric="ppa")
    assert msg.splitlines()[0] == "rtlopt: optimize m (PPA -60.00%)"
    assert "power (uW)" in msg and "-50.00%" in msg
    assert "Rtlopt-Metric: PPA 2000 -> 800" in msg


def test_ppa_metric_falls_back_to_adp_without_power() -> None:
    msg = commit_message(
        "m",
        PPA(10.0, 10.0, None),
        PPA(5.0, 10.0, None),
        verdict="proven",
        method="x",
        run_id="r",
        metric="ppa",
    )
    assert "(ADP -50.00%)" in msg


def test_percent_change_edge_cases() -> None:
    assert percent_change(0.0, 1.0) == "n/a"
    assert percent_change(None, 1.0) == "n/a"
    assert percent_change(4.0, 5.0) == "+25.00%"
