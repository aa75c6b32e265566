"""The report links a rejected candidate's counterexample waveform, relative to the run."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from rtlopt.report import generate_report
from tests.unit.report.test_report_fixes import _run_dir, _sim_reject


def test_report_links_the_counterexample_waveform(tmp_path: Path) -> None:
    vcd = tmp_path / "run" / "work" / "00002-aaaa" / "trace" / "trace.vcd"
    gone = tmp_path / "elsewhere" / "trace.vcd"
    with_trace = dataclasses.replace(_sim_reject("a" * 32), logs={"trace_vcd": str(vcd)})
    without = dataclasses.replace(_sim_reject("b" * 32), logs={"trace_vcd": str(gone)})
    rd = _run_dir(tmp_path, [(with_trace, 1), (without, 1)])
    vcd.parent.mkdir(parents=True)
    vcd.write_text("$enddefinitions $end\n")
    md = generate_report(rd).markdown.read_text()
    rel = "work/00002-aaaa/trace/trace.vcd"
    assert f"waveform: [{rel}]({rel})" in md
    rep = json.loads((rd / "report.json").read_text())
    links = {r["hash"]: r["waveform"] for r in rep["rejected"]}
    assert links == {"a" * 32: rel, "b" * 32: None}  # a waveform that is gone is not linked
