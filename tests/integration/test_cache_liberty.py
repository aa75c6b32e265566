"""The result cache is keyed on the liberty's bytes, not on the PDK's name or the file's path.

The same candidate, the same PDK name and the same liberty path: after the file's cell areas
change, the cached PPA must not be served (real Yosys and OpenSTA on RTLLM's 16-bit adder).
"""

from __future__ import annotations

import dataclasses
import gzip
import os
import re
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.pdk import resolve_pdk
from rtlopt.results import Status

pytestmark = pytest.mark.tools

BENCH = Path(os.environ.get("RTLOPT_BENCH_PATH", Path(__file__).parents[3] / "shared" / "bench"))
PDK = Path(os.environ.get("RTLOPT_PDK_PATH", Path(__file__).parents[3] / "shared" / "pdk"))
ADDER = BENCH / "rtllm" / "adder_16bit" / "verified_adder_16bit.v"
NANGATE = PDK / "nangate45" / "NangateOpenCellLibrary_typical.lib.gz"


def test_cached_ppa_not_served_after_the_liberty_changes_under_the_same_name(
    tmp_path: Path,
) -> None:
    for p in (ADDER, NANGATE):
        if not p.is_file():
            pytest.skip(f"shared data not found: {p}")
    lib = tmp_path / "lib" / "NangateOpenCellLibrary_typical.lib"
    lib.parent.mkdir()
    original = gzip.decompress(NANGATE.read_bytes()).decode()
    lib.write_text(original)
    base = Config()
    cfg = dataclasses.replace(
        base,
        flow=dataclasses.replace(base.flow, pdk="nangate45"),
        formal=dataclasses.replace(base.formal, enabled=False, require_proof=False),
        eval=EvalConfig(
            workers=1, cache=True, cache_dir=str(tmp_path / "cache"), netlist_check="never"
        ),
    )
    design = load_design(ADDER, None, cfg.project)
    text = design.target.text()
    cut = text.rindex("endmodule")
    cand = text[:cut] + "// the same candidate both times\n" + text[cut:]

    def area() -> tuple[float, str]:
        pdk = resolve_pdk("nangate45", liberty=lib)
        with Evaluator(design, cfg, tmp_path / f"eval-{pdk.md5[:8]}", pdk) as ev:
            r = ev.evaluate(cand)
        assert r.status is Status.OK and r.ppa is not None, r.reason
        return r.ppa.area_um2, pdk.md5

    first, md5_a = area()
    again, _ = area()
    assert again == first  # the cache answers for the same bytes
    doubled = re.sub(
        r"(\barea\s*:\s*)([0-9.]+)", lambda m: f"{m.group(1)}{float(m.group(2)) * 2:.6f}", original
    )
    assert doubled != original
    lib.write_text(doubled)
    second, md5_b = area()
    assert md5_b != md5_a
    assert second == pytest.approx(2 * first, rel=0.02), (first, second)
